// Package ratelimit implements token-bucket rate limiting, per key, with an
// HTTP middleware on top. It is used by the public API gateway to cap
// requests per API key.
package ratelimit

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Limiter is what callers depend on; TokenBucket is the only implementation
// today, tests use a fake.
type Limiter interface {
	Allow() bool
	Wait(ctx context.Context) error
}

// Clock lets tests control time.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// ErrLimitExceeded is returned by Wait when the required wait would exceed
// the context deadline.
var ErrLimitExceeded = errors.New("ratelimit: wait would exceed deadline")

// TokenBucket refills at rate tokens per second up to burst tokens.
// The zero value is not usable; construct with NewTokenBucket.
type TokenBucket struct {
	mu       sync.Mutex
	rate     float64
	burst    float64
	tokens   float64
	last     time.Time
	lastUsed time.Time
	clock    Clock
}

// Option configures a TokenBucket.
type Option func(*TokenBucket)

// WithBurst sets the bucket size. Defaults to one second worth of tokens.
func WithBurst(n int) Option {
	return func(b *TokenBucket) {
		b.burst = float64(n)
	}
}

// WithClock replaces the wall clock, for tests.
func WithClock(c Clock) Option {
	return func(b *TokenBucket) {
		b.clock = c
	}
}

// NewTokenBucket returns a full bucket.
func NewTokenBucket(perSecond float64, opts ...Option) *TokenBucket {
	b := &TokenBucket{rate: perSecond, burst: math.Max(1, perSecond), clock: systemClock{}}
	for _, opt := range opts {
		opt(b)
	}
	b.tokens = b.burst
	b.last = b.clock.Now()
	b.lastUsed = b.last
	return b
}

// refill adds the tokens accrued since the last call. Caller holds mu.
func (b *TokenBucket) refill(now time.Time) {
	elapsed := now.Sub(b.last).Seconds()
	if elapsed <= 0 {
		return
	}
	b.tokens = math.Min(b.burst, b.tokens+elapsed*b.rate)
	b.last = now
}

// Allow takes one token if available and reports whether it did.
func (b *TokenBucket) Allow() bool {
	return b.AllowN(1)
}

// AllowN takes n tokens atomically: either all of them or none.
func (b *TokenBucket) AllowN(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	b.refill(now)
	b.lastUsed = now
	if b.tokens < float64(n) {
		return false
	}
	b.tokens -= float64(n)
	return true
}

// Wait blocks until a token is available or ctx is done. If the context
// has a deadline that comes before the token, it fails fast instead of
// sleeping until the deadline.
func (b *TokenBucket) Wait(ctx context.Context) error {
	for {
		b.mu.Lock()
		now := b.clock.Now()
		b.refill(now)
		if b.tokens >= 1 {
			b.tokens--
			b.lastUsed = now
			b.mu.Unlock()
			return nil
		}
		missing := 1 - b.tokens
		delay := time.Duration(missing / b.rate * float64(time.Second))
		b.mu.Unlock()

		if deadline, ok := ctx.Deadline(); ok && now.Add(delay).After(deadline) {
			return ErrLimitExceeded
		}
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
}

// RetryAfter estimates how long until the next token, for the
// Retry-After header.
func (b *TokenBucket) RetryAfter() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(b.clock.Now())
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}

// KeyedLimiter hands out one bucket per key (API key, client IP) and
// evicts buckets that have been idle for longer than idleTTL.
type KeyedLimiter struct {
	mu      sync.Mutex
	buckets map[string]*TokenBucket
	newFn   func() *TokenBucket
	idleTTL time.Duration
	stop    chan struct{}
}

// NewKeyedLimiter starts a background janitor goroutine; call Close to
// stop it.
func NewKeyedLimiter(perSecond float64, burst int, idleTTL time.Duration) *KeyedLimiter {
	k := &KeyedLimiter{
		buckets: make(map[string]*TokenBucket),
		newFn:   func() *TokenBucket { return NewTokenBucket(perSecond, WithBurst(burst)) },
		idleTTL: idleTTL,
		stop:    make(chan struct{}),
	}
	go k.janitor(idleTTL / 2)
	return k
}

// For returns the bucket of a key, creating it on first use.
func (k *KeyedLimiter) For(key string) *TokenBucket {
	k.mu.Lock()
	defer k.mu.Unlock()
	b, ok := k.buckets[key]
	if !ok {
		b = k.newFn()
		k.buckets[key] = b
	}
	return b
}

func (k *KeyedLimiter) janitor(every time.Duration) {
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-k.stop:
			return
		case now := <-ticker.C:
			k.evictIdle(now)
		}
	}
}

// evictIdle drops buckets not used since idleTTL. A bucket idle that long
// has refilled completely anyway, so dropping it loses no state.
func (k *KeyedLimiter) evictIdle(now time.Time) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	evicted := 0
	for key, b := range k.buckets {
		b.mu.Lock()
		idle := now.Sub(b.lastUsed)
		b.mu.Unlock()
		if idle > k.idleTTL {
			delete(k.buckets, key)
			evicted++
		}
	}
	return evicted
}

// Close stops the janitor goroutine.
func (k *KeyedLimiter) Close() {
	close(k.stop)
}

// Middleware rejects requests over the limit with 429. keyFn extracts the
// key from the request (for example the X-API-Key header).
func Middleware(k *KeyedLimiter, keyFn func(*http.Request) string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := keyFn(r)
			if key == "" {
				key = r.RemoteAddr
			}
			bucket := k.For(key)
			if !bucket.Allow() {
				secs := int(math.Ceil(bucket.RetryAfter().Seconds()))
				w.Header().Set("Retry-After", strconv.Itoa(secs))
				http.Error(w, "rate limit exceeded", http.StatusTooManyRequests)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
