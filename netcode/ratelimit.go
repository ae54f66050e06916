package netcode

import (
	"hash/maphash"
	"net/netip"
	"time"
)

// Rate limits for unauthenticated requests (Hello, Join): each source IP
// may send limitRate per second with bursts of limitBurst, and the server
// as a whole answers at most limitGlobal per second. Sources share
// limitBuckets buckets by hash, so the table's size is fixed whatever the
// number of sources: a flood from spoofed addresses costs no memory, and at
// worst makes an honest client that shares a bucket with an attacker wait.
const (
	limitBuckets = 4096
	limitRate    = 20
	limitBurst   = 40
	limitGlobal  = 4000
)

type bucket struct {
	tokens float64
	last   time.Time
}

// limiter is a hashed token-bucket table. Not safe for concurrent use.
type limiter struct {
	seed    maphash.Seed
	buckets [limitBuckets]bucket
	global  bucket
}

func newLimiter() *limiter {
	return &limiter{seed: maphash.MakeSeed(), global: bucket{tokens: limitGlobal}}
}

// allow reports whether a request from addr may be served now, and takes a
// token for it.
func (l *limiter) allow(addr netip.Addr, now time.Time) bool {
	a := addr.As16()
	b := &l.buckets[maphash.Bytes(l.seed, a[:])%limitBuckets]
	if !take(b, now, limitRate, limitBurst) {
		return false
	}
	return take(&l.global, now, limitGlobal, limitGlobal)
}

func take(b *bucket, now time.Time, rate, burst float64) bool {
	if b.last.IsZero() {
		b.tokens = burst
	} else if d := now.Sub(b.last).Seconds(); d > 0 {
		b.tokens = min(burst, b.tokens+d*rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
