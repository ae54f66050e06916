package netcode

import (
	"time"

	"ttytanks/proto"
)

// pathChallengeGap is how often a PathChallenge may go to an address
// being checked.
const pathChallengeGap = 200 * time.Millisecond

// pathCheck is the check of the address a connection moved to
// (PROTOCOL.md §4.14): a PathChallenge goes there, and until its data
// comes back in a PathResponse from there, the server sends the address
// no more bytes than it received from it (the 1x rule), so a moved
// connection cannot aim the server's traffic at someone else. The
// challenge's data is drawn once per check: an answer to any of its
// repeats (the first may take longer than the repeat interval) ends it.
type pathCheck struct {
	pending bool // the address has not answered yet
	budget  int  // bytes it may still be sent: received less sent
	data    [proto.PathDataLen]byte
	sentAt  time.Time // the last challenge
	draw    bool      // the next challenge draws new data: a new address
}

// begin starts the check of a new address, with nothing to spend.
func (p *pathCheck) begin() { p.pending, p.budget, p.draw = true, 0, true }

// checking reports whether the address has not answered yet.
func (p *pathCheck) checking() bool { return p.pending }

// received credits n bytes received from the address at now; it reports
// whether a challenge is due.
func (p *pathCheck) received(n int, now time.Time) bool {
	if !p.pending {
		return false
	}
	p.budget += n
	return now.Sub(p.sentAt) >= pathChallengeGap
}

// challenge returns the data of the challenge to send at now, drawing it
// with random for a new address.
func (p *pathCheck) challenge(now time.Time, random func([]byte)) [proto.PathDataLen]byte {
	if p.draw {
		random(p.data[:])
		p.draw = false
	}
	p.sentAt = now
	return p.data
}

// answered ends the check when d is the challenge's data; a late answer
// to an earlier check changes nothing.
func (p *pathCheck) answered(d [proto.PathDataLen]byte) {
	if p.pending && d == p.data {
		p.pending, p.budget = false, 0
	}
}

// spend takes n bytes to send from the budget of an address being
// checked; false, and nothing taken, when they do not fit.
func (p *pathCheck) spend(n int) bool {
	if !p.pending {
		return true
	}
	if n > p.budget {
		return false
	}
	p.budget -= n
	return true
}
