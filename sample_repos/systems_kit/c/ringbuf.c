/*
 * ringbuf.c - see ringbuf.h for the concurrency contract.
 *
 * head and tail are free-running 32-bit counters; the used size is always
 * head - tail (unsigned wrap-around makes that correct), and the array
 * index is counter & mask. This avoids the classic "one slot wasted"
 * trick for telling full from empty.
 */
#include "ringbuf.h"

#include <stdlib.h>
#include <string.h>

#define RB_INDEX(rb, counter) ((counter) & (rb)->mask)
#define RB_MIN(a, b) ((a) < (b) ? (a) : (b))

/* Compiler barrier: keep the data copy before the index update. On the
 * Cortex-M0 target there is no reordering in hardware for normal memory. */
#define RB_BARRIER() __asm__ __volatile__("" ::: "memory")

/*
 * Allocate the storage. Returns RB_ERR_CAPACITY for sizes that are not a
 * power of two or exceed RB_MAX_CAPACITY.
 */
rb_status rb_init(ringbuf *rb, uint32_t capacity)
{
    if (!RB_IS_POW2(capacity) || capacity > RB_MAX_CAPACITY)
        return RB_ERR_CAPACITY;
    rb->data = malloc(capacity);
    if (rb->data == NULL)
        return RB_ERR_NOMEM;
    rb->capacity = capacity;
    rb->mask = capacity - 1;
    rb->head = 0;
    rb->tail = 0;
    rb->dropped = 0;
    return RB_OK;
}

void rb_free(ringbuf *rb)
{
    free(rb->data);
    memset(rb, 0, sizeof(*rb));
}

size_t rb_used(const ringbuf *rb)
{
    return (size_t)(rb->head - rb->tail);
}

size_t rb_free_space(const ringbuf *rb)
{
    return rb->capacity - rb_used(rb);
}

/* Producer side, single byte: called from the UART RX interrupt. */
rb_status rb_push(ringbuf *rb, uint8_t byte)
{
    if (rb_used(rb) == rb->capacity) {
        rb->dropped++;
        return RB_ERR_FULL;
    }
    rb->data[RB_INDEX(rb, rb->head)] = byte;
    RB_BARRIER();
    rb->head++;
    return RB_OK;
}

/*
 * Producer side, bulk: copies as much of src as fits, in at most two
 * memcpy calls (before and after the wrap point). Returns bytes written;
 * the rest is counted as dropped.
 */
size_t rb_write(ringbuf *rb, const uint8_t *src, size_t len)
{
    size_t n = RB_MIN(len, rb_free_space(rb));
    uint32_t start = RB_INDEX(rb, rb->head);
    size_t first = RB_MIN(n, (size_t)(rb->capacity - start));

    memcpy(rb->data + start, src, first);
    memcpy(rb->data, src + first, n - first);
    RB_BARRIER();
    rb->head += (uint32_t)n;
    rb->dropped += (uint32_t)(len - n);
    return n;
}

rb_status rb_pop(ringbuf *rb, uint8_t *out)
{
    if (rb->head == rb->tail)
        return RB_ERR_EMPTY;
    *out = rb->data[RB_INDEX(rb, rb->tail)];
    RB_BARRIER();
    rb->tail++;
    return RB_OK;
}

/* Copy up to len bytes without consuming them. */
size_t rb_peek(const ringbuf *rb, uint8_t *dst, size_t len)
{
    size_t n = RB_MIN(len, rb_used(rb));
    uint32_t start = RB_INDEX(rb, rb->tail);
    size_t first = RB_MIN(n, (size_t)(rb->capacity - start));

    memcpy(dst, rb->data + start, first);
    memcpy(dst + first, rb->data, n - first);
    return n;
}

/* Consumer side, bulk: peek, then advance the tail. */
size_t rb_read(ringbuf *rb, uint8_t *dst, size_t len)
{
    size_t n = rb_peek(rb, dst, len);
    RB_BARRIER();
    rb->tail += (uint32_t)n;
    return n;
}

/* Offset of the first occurrence of needle from the tail, or -1. */
long rb_find(const ringbuf *rb, uint8_t needle)
{
    size_t used = rb_used(rb);
    for (size_t i = 0; i < used; i++) {
        if (rb->data[RB_INDEX(rb, rb->tail + (uint32_t)i)] == needle)
            return (long)i;
    }
    return -1;
}

/*
 * Take one complete '\n'-terminated line out of the buffer into dst as a
 * NUL-terminated string without the newline (and without a trailing '\r').
 * Returns the string length, or 0 when no complete line is buffered yet.
 * Lines longer than dst_size - 1 are truncated, but the whole line is
 * consumed so the reader never gets stuck on an oversized line.
 */
size_t rb_read_line(ringbuf *rb, char *dst, size_t dst_size)
{
    long nl = rb_find(rb, '\n');
    size_t line_len, copy;

    if (nl < 0 || dst_size == 0)
        return 0;
    line_len = (size_t)nl;
    copy = RB_MIN(line_len, dst_size - 1);
    rb_peek(rb, (uint8_t *)dst, copy);
    if (copy > 0 && dst[copy - 1] == '\r')
        copy--;
    dst[copy] = '\0';
    rb->tail += (uint32_t)(line_len + 1);
    return copy;
}

#ifdef RINGBUF_SELFTEST
#include <assert.h>
#include <stdio.h>

int main(void)
{
    ringbuf rb;
    char line[16];

    assert(rb_init(&rb, 8) == RB_OK);
    assert(rb_write(&rb, (const uint8_t *)"ab\r\ncdefgh", 10) == 8);
    assert(rb.dropped == 2);
    assert(rb_read_line(&rb, line, sizeof line) == 2 && strcmp(line, "ab") == 0);
    assert(rb_read_line(&rb, line, sizeof line) == 0);
    rb_free(&rb);
    puts("ringbuf selftest ok");
    return 0;
}
#endif
