package netcode

import (
	"time"

	"ttytanks/proto"
)

// A room during the server's drain (server_drain.go): its match, if one
// runs, is its last.

// drainStarted is the start of the drain in r: a room whose match has
// not begun sends its peers away now.
func (r *room) drainStarted(now time.Time) {
	if !r.match.live() {
		r.drainEnd(now)
	}
}

// drainEnd ends r for the drain: every player and spectator gets a Leave
// saying the server shuts down and loses its place, the bots go, and the
// match (its recording) ends. The room stays listed, closing, and steps
// no more.
func (r *room) drainEnd(now time.Time) {
	if r.ended {
		return
	}
	id := r.match.matchID()
	for i := 0; i < r.cfg.Players; i++ {
		st := r.seats.at(i)
		if !st.human() {
			continue
		}
		r.sayLeave(&st.link, i, proto.LeaveShutdown)
		r.h.departed(&st.link, id, uint8(i), now)
		r.log.left(&st.link, "server draining")
		r.h.remember(r.playerStats(st))
		r.seats.release(st)
	}
	var specs []*spectator
	r.seats.eachSpectator(func(sp *spectator) { specs = append(specs, sp) })
	for _, sp := range specs {
		r.sayLeave(&sp.link, -1, proto.LeaveShutdown)
		r.seats.dropSpectator(sp)
	}
	r.seats.clearSeats()
	r.match.reset(id) // the same id: late Leaves still route here
	r.ended = true
	r.h.logger().Info("room drained", "room", r.name, "match", id)
}

// drained reports whether r's drain is done.
func (r *room) drained() bool { return r.ended }
