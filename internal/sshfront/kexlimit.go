package sshfront

import (
	"net/netip"
	"time"

	"ttytanks/internal/addrprefix"
)

// prefixOf is the key every per-address limit of the front end counts a
// client under: the game server's (addrprefix.Of), so a ban, a kick and a
// cap mean the same thing over UDP and over SSH.
func prefixOf(ip netip.Addr) netip.Addr { return addrprefix.Of(ip) }

// KexLimits are the rates at which new connections may start a key
// exchange, the costly step of an SSH connection (about 0.4 ms of a core
// each): Rate a second and bursts of Burst per address prefix; Global a
// second and bursts of GlobalBurst for the whole server; and beyond that
// a Reserve a second (bursts of the same) that only a quiet prefix (its
// own bucket full: no connection for Burst/Rate seconds) may use, so
// that busy prefixes, however many, cannot spend a newcomer's chance. A
// zero field takes its default (DefaultKexLimits); a negative one
// removes that limit.
type KexLimits struct {
	Rate, Burst         float64
	Global, GlobalBurst float64
	Reserve             float64
}

// DefaultKexLimits: a player needs one connection, a household a few; 4
// a second per prefix (bursts of 8) is far beyond either, and the 100
// a second overall (bursts of 200), about 4 % of a core, bound what a
// flood from any number of addresses costs; 20 a second more are kept
// for quiet prefixes.
var DefaultKexLimits = KexLimits{Rate: 4, Burst: 8, Global: 100, GlobalBurst: 200, Reserve: 20}

// withDefaults fills in the zero fields.
func (k KexLimits) withDefaults() KexLimits {
	d := DefaultKexLimits
	set := func(v *float64, def float64) {
		if *v == 0 {
			*v = def
		}
	}
	set(&k.Rate, d.Rate)
	set(&k.Burst, d.Burst)
	set(&k.Global, d.Global)
	set(&k.GlobalBurst, d.GlobalBurst)
	set(&k.Reserve, d.Reserve)
	return k
}

// tokenBucket is a token bucket; its zero value is full.
type tokenBucket struct {
	tokens float64
	last   time.Time
	used   bool // tokens and last mean something
}

// level brings b up to now at rate (at most burst) and returns its tokens.
func (b *tokenBucket) level(now time.Time, rate, burst float64) float64 {
	if !b.used {
		b.tokens, b.last, b.used = burst, now, true
	} else if d := now.Sub(b.last).Seconds(); d > 0 {
		b.tokens, b.last = min(burst, b.tokens+d*rate), now
	}
	return b.tokens
}

// maxKexPrefixes bounds the prefixes the limiter keeps buckets for;
// beyond it the full ones are forgotten, and if none is, a new prefix
// shares one overflow bucket (it is still under the global cap).
const maxKexPrefixes = 1 << 16

// kexLimiter rations key exchanges (KexLimits). It is a pure state
// machine: callers pass the time in. Not safe for concurrent use.
type kexLimiter struct {
	lim      KexLimits
	global   tokenBucket
	reserve  tokenBucket
	prefixes map[netip.Addr]*tokenBucket
	overflow tokenBucket
}

func newKexLimiter(lim KexLimits) *kexLimiter {
	return &kexLimiter{lim: lim.withDefaults(), prefixes: map[netip.Addr]*tokenBucket{}}
}

// Why a key exchange is refused.
const (
	refusedKexPrefix = "key exchanges from the address too fast"
	refusedKexAll    = "key exchanges too fast"
)

// allow takes a token for a key exchange from prefix at now, or returns
// why it is refused.
func (l *kexLimiter) allow(prefix netip.Addr, now time.Time) (refused string) {
	lim := l.lim
	b := l.bucket(prefix, now)
	quiet := true
	if lim.Rate >= 0 {
		tokens := b.level(now, lim.Rate, lim.Burst)
		if tokens < 1 {
			return refusedKexPrefix
		}
		quiet = tokens >= lim.Burst
	}
	switch {
	case lim.Global < 0:
	case l.global.level(now, lim.Global, lim.GlobalBurst) >= 1:
		l.global.tokens--
	case quiet && lim.Reserve >= 0 && l.reserve.level(now, lim.Reserve, lim.Reserve) >= 1:
		l.reserve.tokens--
	default:
		return refusedKexAll
	}
	if lim.Rate >= 0 {
		b.tokens--
	}
	return ""
}

// bucket is prefix's bucket, made (full) if need be.
func (l *kexLimiter) bucket(prefix netip.Addr, now time.Time) *tokenBucket {
	if b := l.prefixes[prefix]; b != nil {
		return b
	}
	if len(l.prefixes) >= maxKexPrefixes {
		for p, b := range l.prefixes { // order does not matter: every full one goes
			if b.level(now, l.lim.Rate, l.lim.Burst) >= l.lim.Burst {
				delete(l.prefixes, p)
			}
		}
		if len(l.prefixes) >= maxKexPrefixes {
			return &l.overflow
		}
	}
	b := &tokenBucket{}
	l.prefixes[prefix] = b
	return b
}
