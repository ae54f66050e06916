package netcode

import (
	"net/netip"
	"time"

	"ttytanks/proto"
)

// Path validation timing: a challenge to an address being checked goes
// at most every pathChallengeGap; a check that has not been answered
// within probeFor is dropped, and the connection stays where it was.
// An answered check moves the connection only once the old address has
// been quiet for moveQuiet since the check began: a copy of the player's
// datagrams, injected from elsewhere, may win the race to the server, but
// the originals still come from the old address within that time.
const (
	pathChallengeGap = 200 * time.Millisecond
	probeFor         = 3 * time.Second
	moveQuiet        = 300 * time.Millisecond
)

// pathCheck is the check of a new address a connection's datagrams came
// from (PROTOCOL.md §4.14), as QUIC validates a path (RFC 9000 §8.2,
// §9.3): a PathChallenge goes there, and the connection moves there only
// when the challenge's data comes back in a PathResponse from there
// while the old address has gone quiet. Until then the connection stays
// at its validated address: the replies, the dashboard, the per-address
// limits and the bans all see that one, the new address gets nothing but
// the challenge, and no more bytes of it than it sent (the 1x rule), so
// a forged or injected copy of a datagram cannot move a live connection
// or aim the server's traffic at someone else. Inputs that come from the
// new address count at once: a NAT rebinding loses none. The challenge's
// data is drawn once per check: an answer to any of its repeats ends it.
type pathCheck struct {
	addr   netip.AddrPort // the address being checked; zero: none
	began  time.Time
	budget int // bytes it may still be sent: received less sent
	data   [proto.PathDataLen]byte
	sentAt time.Time // the last challenge
	drawn  bool      // data holds this check's challenge
	ok     bool      // the address answered
}

// begin starts the check of addr at now, with nothing to spend yet.
func (p *pathCheck) begin(addr netip.AddrPort, now time.Time) {
	*p = pathCheck{addr: addr, began: now}
}

// end drops the check.
func (p *pathCheck) end() { *p = pathCheck{} }

// of reports whether addr is the address being checked, and drops a
// check that has gone unanswered for probeFor at now.
func (p *pathCheck) of(addr netip.AddrPort, now time.Time) bool {
	if p.addr.IsValid() && now.Sub(p.began) > probeFor {
		p.end()
	}
	return p.addr.IsValid() && addr == p.addr
}

// received credits n bytes received from the address being checked at
// now; it reports whether a challenge is due.
func (p *pathCheck) received(n int, now time.Time) bool {
	p.budget += n
	return p.sentAt.IsZero() || now.Sub(p.sentAt) >= pathChallengeGap
}

// challenge returns the challenge to send at now, drawing its data with
// random the first time.
func (p *pathCheck) challenge(now time.Time, random func([]byte)) *proto.PathChallenge {
	if !p.drawn {
		random(p.data[:])
		p.drawn = true
	}
	p.sentAt = now
	return &proto.PathChallenge{Data: p.data}
}

// answer takes d, come from addr: the check is answered if it is its
// data.
func (p *pathCheck) answer(addr netip.AddrPort, d [proto.PathDataLen]byte) {
	if p.addr.IsValid() && p.drawn && addr == p.addr && d == p.data {
		p.ok = true
	}
}

// passed reports whether the address answered and the old one, last
// heard at heard, has been quiet since the check began, for moveQuiet.
func (p *pathCheck) passed(now, heard time.Time) bool {
	return p.ok && !heard.After(p.began) && now.Sub(p.began) >= moveQuiet
}

// spend takes n bytes to send to the address being checked from its
// budget; false when they do not fit.
func (p *pathCheck) spend(n int) bool {
	if n > p.budget {
		return false
	}
	p.budget -= n
	return true
}

// target returns the address being checked (zero: none).
func (p *pathCheck) target() netip.AddrPort { return p.addr }

// started returns when the check began.
func (p *pathCheck) started() time.Time { return p.began }
