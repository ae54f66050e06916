package netcode

import (
	"hash/maphash"
	"net/netip"
	"time"
)

// Rate limits for unauthenticated requests (Hello, Join). Each source IP
// may send limitRate per second with bursts of limitBurst, and the server
// as a whole answers at most limitGlobal per second. Sources share
// limitBuckets buckets by hash, so the table's size is fixed whatever the
// number of sources: a flood from spoofed addresses costs no memory.
//
// A flood from one IP must not shut out an honest client behind the same
// address (a NAT, a campus). So each source port has a small bucket of its
// own too (portRate, portBurst: what a connecting client sends), and once
// the IP's bucket is empty a request is still answered when its port's
// bucket was full: that port has been quiet, as an honest client's is,
// while a flooding port's bucket is empty. Such quiet passes take a token
// from a second bucket of the IP's (quietRate, quietBurst), so a flood
// that hops to a fresh port every few requests gets at most that many more
// a second, and cannot spend the global budget that every other address
// shares. The global limit bounds everything. An IPv6 source counts by its
// /64.
const (
	limitBuckets = 4096
	limitRate    = 20
	limitBurst   = 40
	limitGlobal  = 4000
	portBuckets  = 16384
	portRate     = 4
	portBurst    = 8
	quietRate    = 20
	quietBurst   = 40
)

type bucket struct {
	tokens float64
	last   time.Time
}

// limiter is a hashed token-bucket table. Not safe for concurrent use.
type limiter struct {
	seed    maphash.Seed
	buckets [limitBuckets]bucket
	quiet   [limitBuckets]bucket // the IPs' quiet passes
	ports   [portBuckets]bucket
	global  bucket
}

func newLimiter() *limiter {
	return &limiter{seed: maphash.MakeSeed(), global: bucket{tokens: limitGlobal}}
}

// allow reports whether a request from from may be served now, and takes
// tokens for it.
func (l *limiter) allow(from netip.AddrPort, now time.Time) bool {
	a := limitKey(from.Addr()).As16()
	port := &l.ports[l.portBucket(from)]
	quiet := refill(port, now, portRate, portBurst) >= portBurst-0.5
	if !take(port, now, portRate, portBurst) {
		return false // this port floods
	}
	i := maphash.Bytes(l.seed, a[:]) % limitBuckets
	if !take(&l.buckets[i], now, limitRate, limitBurst) && !(quiet && take(&l.quiet[i], now, quietRate, quietBurst)) {
		return false
	}
	return take(&l.global, now, limitGlobal, limitGlobal)
}

// portBucket returns the index of from's bucket in the port table.
func (l *limiter) portBucket(from netip.AddrPort) uint64 {
	a := from.Addr().As16()
	var key [18]byte
	copy(key[:], a[:])
	key[16], key[17] = byte(from.Port()>>8), byte(from.Port())
	return maphash.Bytes(l.seed, key[:]) % portBuckets
}

// refill brings b's tokens up to now and returns them.
func refill(b *bucket, now time.Time, rate, burst float64) float64 {
	if b.last.IsZero() {
		b.tokens = burst
	} else if d := now.Sub(b.last).Seconds(); d > 0 {
		b.tokens = min(burst, b.tokens+d*rate)
	}
	b.last = now
	return b.tokens
}

func take(b *bucket, now time.Time, rate, burst float64) bool {
	if refill(b, now, rate, burst) < 1 {
		return false
	}
	b.tokens--
	return true
}
