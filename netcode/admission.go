package netcode

import (
	"crypto/subtle"
	"io"
	"net/netip"
	"time"

	"ttytanks/proto"
)

// admission decides who may talk to the server at all: the stateless
// cookies of the handshake, the per-source rate limit on unauthenticated
// requests, the minting of reconnect tokens, and the memory of sessions
// that left recently (so a repeated Leave is acknowledged again). It keeps
// nothing per client before a valid cookie.
type admission struct {
	jar     *proto.CookieJar
	limit   *limiter
	entropy io.Reader
	left    [leftMemory]departure
	nextL   int
}

// leftMemory is how many recent departures the server remembers to answer
// a Leave repeated after its acknowledgement was lost.
const leftMemory = 64

// leftFor is how long a departure is remembered: longer than a client
// repeats its Leave (leaveFor).
const leftFor = 3 * time.Second

type departure struct {
	addr    netip.AddrPort
	session uint64
	match   uint32
	player  uint8
	at      time.Time
}

func newAdmission(secret []byte, entropy io.Reader) admission {
	return admission{jar: proto.NewCookieJar(secret), limit: newLimiter(), entropy: entropy}
}

// allow takes a rate-limit token for an unauthenticated request from addr.
func (a *admission) allow(addr netip.Addr, now time.Time) bool { return a.limit.allow(addr, now) }

// cookie issues a handshake cookie for from.
func (a *admission) cookie(from netip.AddrPort, now time.Time) proto.Cookie {
	return a.jar.Issue(from, now)
}

// verify checks a cookie echoed from from, and returns the handshake's
// round trip (Challenge issued → this Join) on success.
func (a *admission) verify(c proto.Cookie, from netip.AddrPort, now time.Time) (time.Duration, error) {
	if err := a.jar.Verify(c, from, now); err != nil {
		return 0, err
	}
	return now.Sub(c.Issued()), nil
}

// token mints a reconnect token: unguessable, since it is worth a seat.
func (a *admission) token() proto.Token {
	var t proto.Token
	if _, err := io.ReadFull(a.entropy, t[:]); err != nil {
		panic("netcode: entropy source failed: " + err.Error())
	}
	return t
}

// sameToken compares tokens in constant time.
func sameToken(a, b *proto.Token) bool { return subtle.ConstantTimeCompare(a[:], b[:]) == 1 }

// departed remembers that session at addr, player in match, left at now.
func (a *admission) departed(addr netip.AddrPort, session uint64, match uint32, player uint8, now time.Time) {
	a.left[a.nextL] = departure{addr: addr, session: session, match: match, player: player, at: now}
	a.nextL = (a.nextL + 1) % leftMemory
}

// leftRecently returns the departure of session at addr within leftFor.
func (a *admission) leftRecently(addr netip.AddrPort, session uint64, now time.Time) (departure, bool) {
	for i := range a.left {
		d := &a.left[i]
		if d.session == session && d.addr == addr && !d.at.IsZero() && now.Sub(d.at) <= leftFor {
			return *d, true
		}
	}
	return departure{}, false
}
