package netcode

import (
	"time"

	"ttytanks/netcode/transport"
)

// The drain: before a restart the server stops taking newcomers and lets
// its running matches end. From Drain on, every Request for a new place
// (a seat, a spectator's place, a room) gets a Reject saying the server
// is draining, and the room list marks every room closing; the places
// held keep theirs. A room whose match has not begun tells its peers at
// once (a Leave saying the server shuts down); a running match plays to
// its end, shows its results for drainResults with no rematch, and then
// its players and spectators get that Leave. Drained reports when no
// room has anything left to play: the driver's owner then stops the
// server.

// drainResults is how long a draining room shows its match's results
// before it sends its peers away.
const drainResults = 5 * time.Second

// drainState is whether the server drains, and since when.
type drainState struct {
	on    bool
	since time.Time
}

// start starts the drain at now; it reports false if it had started.
func (d *drainState) start(now time.Time) bool {
	if d.on {
		return false
	}
	d.on, d.since = true, now
	return true
}

// active reports whether the server drains.
func (d *drainState) active() bool { return d.on }

// Drain starts the drain at now (a second call does nothing) and returns
// the Leaves of the peers of rooms whose match has not begun.
func (s *Server) Drain(now time.Time) []transport.Datagram {
	s.out.reset()
	if s.drain.start(now) {
		s.log.Info("draining", "rooms", s.rooms.count())
		s.rooms.each(func(r *room) {
			s.inRoom(r, func() { r.drainStarted(now) })
		})
	}
	return s.out.datagrams()
}

// Draining reports whether the server drains.
func (s *Server) Draining() bool { return s.drain.active() }

// Drained reports whether the server drains and every room's last match
// is over and its peers told.
func (s *Server) Drained() bool {
	if !s.drain.active() {
		return false
	}
	done := true
	s.rooms.each(func(r *room) { done = done && r.drained() })
	return done
}
