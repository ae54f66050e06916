package netcode

import (
	"crypto/subtle"
	"io"
	"net/netip"
	"time"

	"ttytanks/internal/addrprefix"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// admission decides who may talk to the server at all: the stateless
// cookies of the handshake, the per-source rate limit on unauthenticated
// requests, the minting of reconnect tokens, and the memory of sessions
// that left recently (so a repeated Leave is acknowledged again). It keeps
// nothing per client before a valid cookie.
type admission struct {
	jar     *proto.CookieJar
	hello   *helloLimiter
	kex     *kexLimiter
	entropy io.Reader
	left    [leftMemory]departure
	nextL   int
	trusted []netip.Prefix
	banned  map[netip.Addr]bool // by limitKey; looked up only, never iterated
	// held are the prefixes of kicked players, until when they stay out
	// (iterated only to prune, which decides nothing of the game).
	held map[netip.Addr]time.Time
	// sshOrigin tells the address an in-memory peer really comes from
	// (ServerConfig.Origin); nil: none does.
	sshOrigin func(netip.AddrPort) (netip.Addr, bool)
}

// leftMemory is how many recent departures the server remembers to answer
// a Leave repeated after its acknowledgement was lost.
const leftMemory = 64

// leftFor is how long a departure is remembered: longer than a client
// repeats its Leave (leaveFor).
const leftFor = 3 * time.Second

type departure struct {
	addr   netip.AddrPort
	conn   uint32
	match  uint32
	player uint8
	at     time.Time
}

func newAdmission(secret []byte, entropy io.Reader, trusted []netip.Prefix, origin func(netip.AddrPort) (netip.Addr, bool)) admission {
	return admission{jar: proto.NewCookieJar(secret), hello: newHelloLimiter(), kex: newKexLimiter(), entropy: entropy,
		trusted: append([]netip.Prefix(nil), trusted...), banned: map[netip.Addr]bool{}, held: map[netip.Addr]time.Time{},
		sshOrigin: origin}
}

// origin returns the address whose per-address limits a peer at addr
// counts against (limitKey of its IP, or of its SSH client's).
func (a *admission) origin(addr netip.AddrPort) netip.Addr {
	if o, ok := a.sshClient(addr); ok {
		return limitKey(o)
	}
	return limitKey(addr.Addr())
}

// sshFrom returns the address of the SSH client an in-memory peer at addr
// plays for ("" for any other peer).
func (a *admission) sshFrom(addr netip.AddrPort) string {
	if o, ok := a.sshClient(addr); ok {
		return o.String()
	}
	return ""
}

// sshClient returns the address of the SSH client an in-memory peer at
// addr plays for.
func (a *admission) sshClient(addr netip.AddrPort) (netip.Addr, bool) {
	if a.sshOrigin == nil || !transport.MemPrefix.Contains(addr.Addr().Unmap()) {
		return netip.Addr{}, false
	}
	return a.sshOrigin(addr)
}

// allow takes a rate-limit token for an unauthenticated request from addr;
// trusted addresses, and in-memory peers of no known SSH client, are not
// limited. An SSH player's in-process client spends its SSH client's
// prefix's tokens (its own port's bucket, as a UDP client would).
func (a *admission) allow(addr netip.AddrPort, now time.Time) bool {
	if o, ok := a.sshClient(addr); ok {
		return a.isTrusted(o) || a.hello.allow(netip.AddrPortFrom(o, addr.Port()), now)
	}
	return a.exempt(addr) || a.hello.allow(addr, now)
}

// allowKex takes a key-exchange token for a Join from addr whose cookie
// is valid (server_ratelimit.go), from its prefix's budget (an SSH
// player's: its SSH client's); trusted addresses and in-memory peers of
// no known SSH client are not limited.
func (a *admission) allowKex(addr netip.AddrPort, now time.Time) bool {
	if o, ok := a.sshClient(addr); ok {
		return a.isTrusted(o) || a.kex.allow(limitKey(o), now)
	}
	return a.exempt(addr) || a.kex.allow(limitKey(addr.Addr()), now)
}

// exempt reports whether addr is exempt from the rate limits: trusted, or
// an in-memory peer of no known SSH client (an embedded client).
func (a *admission) exempt(addr netip.AddrPort) bool {
	if o, ok := a.sshClient(addr); ok {
		return a.isTrusted(o)
	}
	return a.capExempt(addr)
}

// capExempt reports whether addr is exempt from the per-address cap on
// connections: trusted, or in-memory (every in-memory peer has the same
// IP; the SSH front end bounds the sessions of each SSH client's prefix,
// each with one game client at a time).
func (a *admission) capExempt(addr netip.AddrPort) bool {
	return a.isTrusted(addr.Addr()) || transport.MemPrefix.Contains(addr.Addr().Unmap())
}

// limitKey is the address the per-address limits count a peer under
// (addrprefix.Of: its IPv4 address, or its IPv6 /64).
func limitKey(ip netip.Addr) netip.Addr { return addrprefix.Of(ip) }

// isTrusted reports whether addr is exempt from the per-address limits:
// in a trusted range (ServerConfig.Trusted).
func (a *admission) isTrusted(addr netip.Addr) bool {
	addr = addr.Unmap()
	for _, p := range a.trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// ban refuses addr's prefix (limitKey) for the server's life.
func (a *admission) ban(addr netip.Addr) { a.banned[limitKey(addr)] = true }

// isBanned reports whether addr is in a banned prefix.
func (a *admission) isBanned(addr netip.Addr) bool { return a.banned[limitKey(addr)] }

// originBanned reports whether the in-memory peer at addr plays for an
// SSH client in a banned prefix (false for any other peer): a ban of an
// address keeps out its SSH players too, as its kick holds do.
func (a *admission) originBanned(addr netip.AddrPort) bool {
	o, ok := a.sshClient(addr)
	return ok && a.banned[limitKey(o)]
}

// maxHeld bounds the kicked prefixes held out at once; past it the ones
// whose hold has ended are forgotten, then the soonest to end.
const maxHeld = 4096

// hold keeps the prefix key (a limitKey) out until until: a kicked
// player's.
func (a *admission) hold(key netip.Addr, until time.Time) {
	if len(a.held) >= maxHeld {
		a.pruneHeld(until)
	}
	if u, ok := a.held[key]; !ok || until.After(u) {
		a.held[key] = until
	}
}

// pruneHeld forgets the holds that end by now, and if that frees no room,
// the one that ends first.
func (a *admission) pruneHeld(now time.Time) {
	var first netip.Addr
	var firstAt time.Time
	for k, u := range a.held {
		if !u.After(now) {
			delete(a.held, k)
			continue
		}
		if firstAt.IsZero() || u.Before(firstAt) {
			first, firstAt = k, u
		}
	}
	if len(a.held) >= maxHeld {
		delete(a.held, first)
	}
}

// heldOut reports whether the prefix key (a limitKey) is held out at now.
func (a *admission) heldOut(key netip.Addr, now time.Time) bool {
	u, ok := a.held[key]
	if ok && !now.Before(u) {
		delete(a.held, key)
		return false
	}
	return ok
}

// cookie issues a handshake cookie for session at from.
func (a *admission) cookie(from netip.AddrPort, session uint64, now time.Time) proto.Cookie {
	return a.jar.Issue(from, session, now)
}

// verify checks a cookie echoed by session from from, and returns the
// handshake's round trip (Challenge issued → this Join) on success.
func (a *admission) verify(c proto.Cookie, from netip.AddrPort, session uint64, now time.Time) (time.Duration, error) {
	if err := a.jar.Verify(c, from, session, now); err != nil {
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

// departed remembers that connection conn at addr, player in match, left
// at now.
func (a *admission) departed(addr netip.AddrPort, conn uint32, match uint32, player uint8, now time.Time) {
	a.left[a.nextL] = departure{addr: addr, conn: conn, match: match, player: player, at: now}
	a.nextL = (a.nextL + 1) % leftMemory
}

// leftRecently returns the departure of connection conn at addr within
// leftFor.
func (a *admission) leftRecently(addr netip.AddrPort, conn uint32, now time.Time) (departure, bool) {
	for i := range a.left {
		d := &a.left[i]
		if d.conn == conn && d.addr == addr && !d.at.IsZero() && now.Sub(d.at) <= leftFor {
			return *d, true
		}
	}
	return departure{}, false
}

// random fills b with random bytes from the entropy source (join codes).
func (a *admission) random(b []byte) {
	if _, err := io.ReadFull(a.entropy, b); err != nil {
		panic("netcode: entropy: " + err.Error())
	}
}
