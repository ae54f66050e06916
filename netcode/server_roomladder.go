package netcode

import (
	"time"

	"ttytanks/game"
	"ttytanks/internal/ladder"
	"ttytanks/proto"
)

// A ranked room and the ladder (PROTOCOL.md §4.15): its finished match
// goes to the ladder, and the ladder's ratings come back to its peers.

// ladderMatch returns r's finished match as the ladder records it: each
// seated slot's player (a bot, a guest: no key), round wins and figures.
func (r *room) ladderMatch() ladder.Match {
	w := r.match.current().State()
	start, _ := r.match.origin()
	secs := max(int(r.h.clock().now()-start)/game.TickRate, 0)
	m := ladder.Match{Room: r.name, Rounds: int(w.Round.Number)}
	for i := 0; i < r.cfg.Players && i < len(w.Tanks); i++ {
		st, tk := r.seats.at(i), &w.Tanks[i]
		if st.state == seatFree || !tk.Seated {
			continue
		}
		p := ladder.MatchPlayer{Name: st.name, Slot: i, RoundWins: int(tk.Score), Kills: int(tk.Stats.Kills),
			Deaths: int(tk.Stats.Deaths), Shots: int(tk.Stats.Shots), Hits: int(min(tk.Stats.Hits, tk.Stats.Shots)), Seconds: secs}
		if st.human() {
			p.Key = st.who
		}
		if p.Name == "" {
			p.Name = "player " + string(rune('1'+i))
		}
		m.Players = append(m.Players, p)
	}
	return m
}

// matchOver records r's match, just finished, if r is ranked.
func (r *room) matchOver() {
	if r.cfg.Ranked {
		r.h.recordMatch(r.match.matchID(), r.ladderMatch())
	}
}

// takeRated takes the ladder's rating changes of r's match, and tells
// them at once; a late answer for an earlier match is ignored.
func (r *room) takeRated(p *proto.Rated, now time.Time) {
	if p.Match != r.match.matchID() || !r.match.over() {
		return
	}
	r.rated = p
	r.tellRated(now, true)
}

// tellRated sends every peer of r the match's rating changes, every
// ratedEvery (or now, with force) while the results show.
func (r *room) tellRated(now time.Time, force bool) {
	if r.rated == nil || !r.match.over() {
		r.rated = nil
		return
	}
	if !force && now.Sub(r.ratedAt) < ratedEvery {
		return
	}
	r.ratedAt = now
	r.seats.each(func(l *link, slot int) {
		p := *r.rated
		p.Player = proto.SpectatorSlot
		if slot >= 0 {
			p.Player = uint8(slot)
		}
		r.h.send(l.conn, &p)
	})
}
