/*
 * ringbuf.h - fixed-capacity byte ring buffer for the serial log collector.
 *
 * Single producer / single consumer. The producer is the UART interrupt
 * handler, the consumer is the main loop that ships log lines upstream.
 * Capacity must be a power of two so that index wrapping is a mask.
 */
#ifndef SYSKIT_RINGBUF_H
#define SYSKIT_RINGBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* True when x is a non-zero power of two. */
#define RB_IS_POW2(x) ((x) != 0 && (((x) & ((x) - 1)) == 0))

/* Largest capacity we allow; the indices are 32-bit. */
#define RB_MAX_CAPACITY (1u << 24)

typedef enum {
    RB_OK = 0,
    RB_ERR_NOMEM = -1,
    RB_ERR_CAPACITY = -2,
    RB_ERR_FULL = -3,
    RB_ERR_EMPTY = -4
} rb_status;

typedef struct ringbuf {
    uint8_t *data;
    uint32_t capacity;      /* power of two */
    uint32_t mask;          /* capacity - 1 */
    volatile uint32_t head; /* next write position, only the producer moves it */
    volatile uint32_t tail; /* next read position, only the consumer moves it */
    uint32_t dropped;       /* bytes rejected because the buffer was full */
} ringbuf;

/* Allocate storage for `capacity` bytes (power of two, <= RB_MAX_CAPACITY). */
rb_status rb_init(ringbuf *rb, uint32_t capacity);

/* Release the storage and zero the struct; safe to call on a failed init. */
void rb_free(ringbuf *rb);

/* Bytes currently buffered / bytes that can still be written. */
size_t rb_used(const ringbuf *rb);
size_t rb_free_space(const ringbuf *rb);

/* Producer API (interrupt context). Full buffer: data is dropped and
 * counted in rb->dropped, never blocks. */
rb_status rb_push(ringbuf *rb, uint8_t byte);
size_t rb_write(ringbuf *rb, const uint8_t *src, size_t len);

/* Consumer API (main loop). */
rb_status rb_pop(ringbuf *rb, uint8_t *out);
size_t rb_read(ringbuf *rb, uint8_t *dst, size_t len);

/* Copy without consuming. */
size_t rb_peek(const ringbuf *rb, uint8_t *dst, size_t len);

/* Offset of the first `needle` byte counted from the read position, -1 if absent. */
long rb_find(const ringbuf *rb, uint8_t needle);

/* Pop one '\n'-terminated line as a C string; 0 if no full line yet. */
size_t rb_read_line(ringbuf *rb, char *dst, size_t dst_size);

#endif /* SYSKIT_RINGBUF_H */
