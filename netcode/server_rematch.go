package netcode

import (
	"time"

	"ttytanks/proto"
)

// botResults is how long the results of a match among bots alone stay up
// (the bots vote at once), for the spectators.
const botResults = 5 * time.Second

// results runs the end of r's match: the results show until every human
// voted for a rematch, or RematchWait after the first vote, or ResultsFor
// without one; then the rematch starts with those who voted, and the
// others go back to the lobby.
func (r *room) results(now time.Time) {
	if !r.match.over() {
		return
	}
	if r.overAt.IsZero() {
		r.overAt = now
		winner := ""
		if win := int(r.match.current().State().Round.Winner); win >= 0 && win < r.cfg.Players {
			winner = r.seats.at(win).name
		}
		r.h.tally().matchFinished()
		start, _ := r.match.origin()
		r.h.logger().Info("match over", "room", r.name, "match", r.match.matchID(), "winner", winner,
			"duration", r.log.since(start), "rounds", int(r.match.current().State().Round.Number))
		r.matchOver()
	}
	if r.h.draining() {
		// No rematch: the results show a while, then everyone goes.
		if now.Sub(r.overAt) >= drainResults {
			r.drainEnd(now)
		}
		return
	}
	// Bots vote as soon as the match is over (game/bot), so "everyone
	// seated voted" is "every human voted", and a room of bots alone
	// rematches at once.
	w := r.match.current().State()
	seated, voted, humansVoted := 0, 0, 0
	for i := 0; i < r.cfg.Players; i++ {
		st := r.seats.at(i)
		if st.state == seatFree || !w.Tanks[i].Seated {
			continue
		}
		seated++
		if w.Tanks[i].Rematch {
			voted++
			if st.human() {
				humansVoted++
			}
		}
	}
	if humansVoted > 0 && r.firstVote.IsZero() {
		r.firstVote = now
	}
	switch {
	case seated > 0 && voted == seated && (r.seats.humans() > 0 || now.Sub(r.overAt) >= botResults):
	case humansVoted > 0 && now.Sub(r.firstVote) >= r.rules.rematchWait:
	case r.rules.resultsFor > 0 && now.Sub(r.overAt) >= r.rules.resultsFor:
	default:
		return // the results stay up
	}
	r.rematch(now)
}

// rematch ends r's finished match: the humans who did not vote for a
// rematch get a "match over" Leave and their seats are freed; the bots
// and the voters stay, and a new match opens in the room (it starts when
// its seats are all taken again). With no voter the room returns to its
// lobby.
func (r *room) rematch(now time.Time) {
	w := r.match.current().State()
	for i := 0; i < r.cfg.Players; i++ {
		st := r.seats.at(i)
		if !st.human() || w.Tanks[i].Rematch {
			continue
		}
		r.sayLeave(&st.link, i, proto.LeaveMatchOver)
		r.h.departed(&st.link, r.match.matchID(), uint8(i), now)
		r.log.left(&st.link, "match over")
		r.h.remember(r.playerStats(st))
		r.seats.release(st)
	}
	if r.seats.humans() == 0 {
		r.seats.clearSeats()
	}
	r.h.logger().Info("rematch", "room", r.name, "players", r.seats.humans())
	r.openLobby() // a new match id; full seats start it at once
	if r.match.live() {
		return // openLobby scheduled it: everyone has its Start
	}
	r.seats.each(func(l *link, slot int) {
		l.restart()
		r.sendStart(l, slot)
	})
}
