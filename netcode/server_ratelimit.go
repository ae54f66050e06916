package netcode

import (
	"hash/maphash"
	"net/netip"
	"time"
)

// The server's rate limits. Every one counts a prefix (limitKey: an IPv4
// address, an IPv6 /64), and none is one budget for everybody, so no
// number of addresses spends an honest newcomer's share:
//
//   - helloLimiter: the unauthenticated requests (Hello, Join, ListRooms,
//     a datagram of another version), before any cryptography. Answers
//     are cheap and never larger than the request, so there is no global
//     cap that a flood from many (spoofed) sources could spend; each
//     prefix has its own bucket, in two hashed tables, so a prefix is held
//     back only when both of its buckets are spent: a flood from thousands
//     of prefixes still leaves almost every other prefix its whole budget.
//   - kexLimiter: the key exchanges, the server's costly step (about
//     0.17 ms each), only for a Join whose cookie proved its address: an
//     exact bucket per prefix (the cookie proved it, so the table costs a
//     flood real addresses, and no busy prefix can share a newcomer's), a
//     global cap, and a reserve beyond it that only a quiet prefix (no key
//     exchange for a while) may use, so that many busy prefixes cannot
//     keep a new one out.
//   - prefixLimiter: rare actions that cost a whole handshake (join-code
//     tries, rooms opened), an exact bucket per prefix.
const (
	limitBuckets = 1 << 16
	limitRate    = 20
	limitBurst   = 40
	portBuckets  = 1 << 14
	portRate     = 4
	portBurst    = 8
	quietRate    = 20
	quietBurst   = 40

	kexRate    = 4
	kexBurst   = 16
	kexQuiet   = 2 * time.Second
	kexGlobal  = 1000
	kexReserve = 200
)

// bucket is a token bucket. Its zero value is full.
type bucket struct {
	tokens float64
	last   time.Time
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

// level returns b's tokens at now, changing nothing.
func level(b *bucket, now time.Time, rate, burst float64) float64 {
	if b.last.IsZero() {
		return burst
	}
	return min(burst, b.tokens+max(now.Sub(b.last).Seconds(), 0)*rate)
}

func take(b *bucket, now time.Time, rate, burst float64) bool {
	if refill(b, now, rate, burst) < 1 {
		return false
	}
	b.tokens--
	return true
}

// hashedBuckets is a fixed-size table of buckets a prefix shares by two
// hashes, as a count-min sketch counts: a request takes a token from
// both of its buckets, and is refused only when both are spent, so a
// prefix is held back by others only when each of its two buckets is
// shared with a busy prefix. Its size is fixed whatever the number of
// prefixes: a flood from spoofed addresses costs no memory.
type hashedBuckets struct {
	seed       maphash.Seed
	rate, size float64
	b          [][2]bucket
}

func newHashedBuckets(n int, rate, burst float64) hashedBuckets {
	return hashedBuckets{seed: maphash.MakeSeed(), rate: rate, size: burst, b: make([][2]bucket, n)}
}

// slots returns the indexes of key's two buckets.
func (h *hashedBuckets) slots(key netip.Addr) (uint64, uint64) {
	a := key.As16()
	x := maphash.Bytes(h.seed, a[:])
	n := uint64(len(h.b))
	return x % n, (x >> 32) % n
}

// pair returns key's two buckets.
func (h *hashedBuckets) pair(key netip.Addr) (*bucket, *bucket) {
	i, j := h.slots(key)
	return &h.b[i][0], &h.b[j][1]
}

// take takes a token of key's at now, from both its buckets; false, and
// nothing taken, when both are spent.
func (h *hashedBuckets) take(key netip.Addr, now time.Time) bool {
	b1, b2 := h.pair(key)
	if max(refill(b1, now, h.rate, h.size), refill(b2, now, h.rate, h.size)) < 1 {
		return false
	}
	b1.tokens, b2.tokens = max(b1.tokens-1, 0), max(b2.tokens-1, 0)
	return true
}

// has reports whether key has a token at now, taking none.
func (h *hashedBuckets) has(key netip.Addr, now time.Time) bool {
	b1, b2 := h.pair(key)
	return max(level(b1, now, h.rate, h.size), level(b2, now, h.rate, h.size)) >= 1
}

// helloLimiter limits the unauthenticated requests. A flood from one
// prefix must not shut out an honest client behind the same address (a
// NAT, a campus): each source port has a small bucket of its own too
// (portRate, portBurst: what a connecting client sends), and once the
// prefix's buckets are spent a request is still answered when its port's
// bucket was full: that port has been quiet, as an honest client's is,
// while a flooding port's bucket is empty. Such quiet passes take a token
// from a second table (quietRate, quietBurst), so a flood that hops to a
// fresh port every few requests gets at most that many more a second.
// Not safe for concurrent use.
type helloLimiter struct {
	seed     maphash.Seed
	prefixes hashedBuckets
	quiet    hashedBuckets
	ports    [portBuckets]bucket
}

func newHelloLimiter() *helloLimiter {
	return &helloLimiter{seed: maphash.MakeSeed(), prefixes: newHashedBuckets(limitBuckets, limitRate, limitBurst),
		quiet: newHashedBuckets(limitBuckets/4, quietRate, quietBurst)}
}

// allow reports whether a request from from may be served now, and takes
// tokens for it.
func (l *helloLimiter) allow(from netip.AddrPort, now time.Time) bool {
	key := limitKey(from.Addr())
	port := &l.ports[l.portBucket(from)]
	// The port table only tells a quiet port from a flooding one: it
	// never refuses on its own, since its buckets are shared by hash and
	// a flood from many sources spends most of them; a newcomer whose
	// port shares a bucket with a flooder still has its prefix's budget.
	quiet := refill(port, now, portRate, portBurst) >= portBurst-0.5
	take(port, now, portRate, portBurst)
	return l.prefixes.take(key, now) || (quiet && l.quiet.take(key, now))
}

// portBucket returns the index of from's bucket in the port table.
func (l *helloLimiter) portBucket(from netip.AddrPort) uint64 {
	a := from.Addr().As16()
	var key [18]byte
	copy(key[:], a[:])
	key[16], key[17] = byte(from.Port()>>8), byte(from.Port())
	return maphash.Bytes(l.seed, key[:]) % portBuckets
}

// kexLimiter limits the key exchanges: kexRate a second per prefix,
// kexGlobal a second in all, and when the global budget is spent a prefix
// that has been quiet (no key exchange for kexQuiet) may still take one
// of kexReserve a second. Not safe for concurrent use.
type kexLimiter struct {
	prefixes        *prefixLimiter
	global, reserve bucket
}

func newKexLimiter() *kexLimiter {
	return &kexLimiter{prefixes: newPrefixLimiter(kexBurst, time.Second/kexRate)}
}

// allow reports whether the prefix key (a limitKey) may have a key
// exchange at now, and takes the tokens for it.
func (l *kexLimiter) allow(key netip.Addr, now time.Time) bool {
	if !l.prefixes.has(key, now) {
		return false
	}
	// A refusal takes nothing of the prefix's: a newcomer that retries
	// while the global budget is spent stays quiet, and keeps its claim on
	// the reserve.
	if !take(&l.global, now, kexGlobal, kexGlobal) && !(l.prefixes.quiet(key, now, kexQuiet) && take(&l.reserve, now, kexReserve, kexReserve)) {
		return false
	}
	return l.prefixes.allow(key, now)
}

// prefixLimiter is an exact token bucket per prefix, for rare actions
// that each cost a whole handshake (a join-code try, a room opened): a
// prefix is never held back by another's use. It keeps at most
// maxPrefixes buckets: past that it forgets the full ones (prefixes quiet
// long enough to have their whole budget again), then the oldest. Not
// safe for concurrent use.
type prefixLimiter struct {
	rate, burst float64
	b           map[netip.Addr]*servedBucket // iterated only to prune: no game state depends on its order
}

// servedBucket is a prefix's bucket and when it last gave a token.
type servedBucket struct {
	bucket
	gave time.Time
}

// maxPrefixes bounds a prefixLimiter's table.
const maxPrefixes = 1 << 16

func newPrefixLimiter(burst int, refill time.Duration) *prefixLimiter {
	return &prefixLimiter{burst: float64(burst), rate: 1 / refill.Seconds(), b: map[netip.Addr]*servedBucket{}}
}

// allow takes a token of the prefix key (a limitKey) at now; false when
// it has none left.
func (p *prefixLimiter) allow(key netip.Addr, now time.Time) bool {
	b := p.b[key]
	if b == nil {
		if len(p.b) >= maxPrefixes {
			p.prune(now)
		}
		b = &servedBucket{}
		p.b[key] = b
	}
	if !take(&b.bucket, now, p.rate, p.burst) {
		return false
	}
	b.gave = now
	return true
}

// quiet reports whether the prefix key has been given no token for d at
// now. A forgotten prefix is quiet: prune forgets only full buckets
// (quiet for burst/rate) before it must forget the oldest.
func (p *prefixLimiter) quiet(key netip.Addr, now time.Time, d time.Duration) bool {
	b := p.b[key]
	return b == nil || now.Sub(b.gave) >= d
}

// has reports whether the prefix key has a token left at now, taking
// none.
func (p *prefixLimiter) has(key netip.Addr, now time.Time) bool {
	b := p.b[key]
	return b == nil || level(&b.bucket, now, p.rate, p.burst) >= 1
}

// prune forgets the full buckets, and if that frees too little, the
// oldest half of the rest.
func (p *prefixLimiter) prune(now time.Time) {
	var newest time.Time
	for k, b := range p.b {
		if level(&b.bucket, now, p.rate, p.burst) >= p.burst {
			delete(p.b, k)
		} else if b.last.After(newest) {
			newest = b.last
		}
	}
	if len(p.b) < maxPrefixes*3/4 {
		return
	}
	var oldest time.Time
	for _, b := range p.b {
		if oldest.IsZero() || b.last.Before(oldest) {
			oldest = b.last
		}
	}
	mid := oldest.Add(newest.Sub(oldest) / 2)
	for k, b := range p.b {
		if !b.last.After(mid) {
			delete(p.b, k)
		}
	}
}
