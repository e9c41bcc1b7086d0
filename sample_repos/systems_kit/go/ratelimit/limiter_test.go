package ratelimit

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// fakeClock is a Clock that only moves when the test says so.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestTokenBucket(t *testing.T) {
	t.Run("starts full and allows a burst", func(t *testing.T) {
		clock := newFakeClock()
		b := NewTokenBucket(2, WithBurst(5), WithClock(clock))
		for i := 0; i < 5; i++ {
			if !b.Allow() {
				t.Fatalf("request %d of the burst was refused", i+1)
			}
		}
		if b.Allow() {
			t.Fatal("the sixth request went through an empty bucket")
		}
	})

	t.Run("refills with the time that passed", func(t *testing.T) {
		clock := newFakeClock()
		b := NewTokenBucket(2, WithBurst(2), WithClock(clock))
		b.AllowN(2)
		clock.Advance(500 * time.Millisecond)
		if !b.Allow() {
			t.Fatal("half a second at 2/s should have brought one token back")
		}
		if b.Allow() {
			t.Fatal("only one token should have come back")
		}
		clock.Advance(10 * time.Second)
		if !b.AllowN(2) {
			t.Fatal("a long pause should refill the bucket up to its burst")
		}
		if b.Allow() {
			t.Fatal("the refill must stop at the burst size")
		}
	})

	t.Run("AllowN takes all tokens or none", func(t *testing.T) {
		clock := newFakeClock()
		b := NewTokenBucket(1, WithBurst(3), WithClock(clock))
		if b.AllowN(4) {
			t.Fatal("took more tokens than the bucket holds")
		}
		if !b.AllowN(3) {
			t.Fatal("a refused AllowN must not spend tokens")
		}
	})

	t.Run("RetryAfter says when the next token comes", func(t *testing.T) {
		clock := newFakeClock()
		b := NewTokenBucket(4, WithBurst(1), WithClock(clock))
		if got := b.RetryAfter(); got != 0 {
			t.Fatalf("RetryAfter on a full bucket = %v, want 0", got)
		}
		b.Allow()
		if got := b.RetryAfter(); got != 250*time.Millisecond {
			t.Fatalf("RetryAfter = %v, want 250ms at 4 tokens/s", got)
		}
	})
}

func TestWait(t *testing.T) {
	t.Run("fails fast when the deadline comes before the token", func(t *testing.T) {
		b := NewTokenBucket(0.5, WithBurst(1))
		b.Allow()
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := b.Wait(ctx)
		if !errors.Is(err, ErrLimitExceeded) {
			t.Fatalf("Wait = %v, want ErrLimitExceeded", err)
		}
		if waited := time.Since(start); waited > 40*time.Millisecond {
			t.Fatalf("Wait slept %v before failing; it should fail at once", waited)
		}
	})

	t.Run("returns the context's error when cancelled", func(t *testing.T) {
		b := NewTokenBucket(0.1, WithBurst(1))
		b.Allow()
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			time.Sleep(10 * time.Millisecond)
			cancel()
		}()
		if err := b.Wait(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("Wait = %v, want context.Canceled", err)
		}
	})
}

func TestKeyedLimiter(t *testing.T) {
	k := NewKeyedLimiter(1, 1, time.Minute)
	defer k.Close()

	t.Run("one bucket per key", func(t *testing.T) {
		if k.For("alice") != k.For("alice") {
			t.Fatal("the same key got two buckets")
		}
		if k.For("alice") == k.For("bob") {
			t.Fatal("two keys share a bucket")
		}
	})

	t.Run("evicts buckets idle past the TTL", func(t *testing.T) {
		k.For("carol").Allow()
		if n := k.evictIdle(time.Now()); n != 0 {
			t.Fatalf("evicted %d fresh buckets", n)
		}
		if n := k.evictIdle(time.Now().Add(2 * time.Minute)); n != 3 {
			t.Fatalf("evicted %d buckets after the TTL, want all 3", n)
		}
	})
}

func TestMiddleware(t *testing.T) {
	k := NewKeyedLimiter(1, 1, time.Minute)
	defer k.Close()
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	handler := Middleware(k, func(r *http.Request) string { return r.Header.Get("X-API-Key") })(ok)

	cases := []struct {
		name string
		key  string
		want int
	}{
		{"first request of a key passes", "key-1", http.StatusNoContent},
		{"second request of that key is limited", "key-1", http.StatusTooManyRequests},
		{"another key has its own bucket", "key-2", http.StatusNoContent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/v1/orders", nil)
			req.Header.Set("X-API-Key", tc.key)
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("status = %d, want %d", rec.Code, tc.want)
			}
			if tc.want == http.StatusTooManyRequests && rec.Header().Get("Retry-After") == "" {
				t.Fatal("a limited response must say when to retry")
			}
		})
	}
}

func BenchmarkAllow(b *testing.B) {
	b.Run("one bucket", func(b *testing.B) {
		bucket := NewTokenBucket(1e9, WithBurst(1e9))
		for i := 0; i < b.N; i++ {
			bucket.Allow()
		}
	})
	b.Run("keyed, parallel", func(b *testing.B) {
		k := NewKeyedLimiter(1e9, 1e9, time.Minute)
		defer k.Close()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				k.For("shared").Allow()
			}
		})
	})
}
