package netcode

import (
	"net/netip"
	"time"

	"ttytanks/game"
	"ttytanks/internal/ladder"
	"ttytanks/proto"
)

// A ranked room and the ladder (PROTOCOL.md §4.15): its finished match
// goes to the ladder, and the ladder's ratings come back to its peers.

// forfeited is a rated player who left a running match (forfeit), and
// the address their place counted against.
type forfeited struct {
	ladder.MatchPlayer
	origin netip.Addr
}

// ladderMatch returns r's match as the ladder records it: each seated
// slot's player (a bot, a guest: no key), round wins and figures, and the
// players who left it (forfeits). Players of one address prefix (an IPv4
// address, an IPv6 /64) are not rated against each other: two keys of
// one machine are one player farming the other. A trusted range
// (ServerConfig.Trusted) is exempt.
func (r *room) ladderMatch() ladder.Match {
	w := r.match.current().State()
	start, _ := r.match.origin()
	secs := max(int(r.h.clock().now()-start)/game.TickRate, 0)
	m := ladder.Match{Room: r.name, Rounds: int(w.Round.Number)}
	var origins []netip.Addr // of m.Players, for the prefix rule
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
		origins = append(origins, st.origin)
	}
	for _, f := range r.forfeits {
		back := false // left, then took a seat again: the seat counts
		for _, p := range m.Players {
			back = back || p.Key == f.Key
		}
		if !back {
			p := f.MatchPlayer
			p.Slot = game.MaxPlayers + len(m.Players) // slots are unique in a match; a forfeit's may be taken again
			m.Players = append(m.Players, p)
			origins = append(origins, f.origin)
		}
	}
	keyed := map[netip.Addr]int{}
	for i, p := range m.Players {
		if !p.Key.IsZero() {
			keyed[limitKey(origins[i])]++
		}
	}
	for i := range m.Players {
		if o := origins[i]; keyed[limitKey(o)] > 1 && !r.h.trusted(o) {
			m.Players[i].Key = ladder.Key{}
		}
	}
	return m
}

// forfeit notes st's player, leaving, as a forfeit of r's running match
// if it is ranked and they have a key: the match, when it ends, ranks
// them last. A player who leaves before the first tick, or after the
// end, forfeits nothing.
func (r *room) forfeit(st *seat) {
	if !r.cfg.Ranked || st.who.IsZero() || !r.match.live() || r.match.counting() || r.match.over() || r.recorded == r.match.matchID() {
		return
	}
	w := r.match.current().State()
	if st.slot >= len(w.Tanks) || !w.Tanks[st.slot].Seated || len(r.forfeits) >= 2*game.MaxPlayers {
		return
	}
	tk := &w.Tanks[st.slot]
	start, _ := r.match.origin()
	r.forfeits = append(r.forfeits, forfeited{MatchPlayer: ladder.MatchPlayer{Key: st.who, Name: st.name, RoundWins: int(tk.Score),
		Kills: int(tk.Stats.Kills), Deaths: int(tk.Stats.Deaths), Shots: int(tk.Stats.Shots), Hits: int(min(tk.Stats.Hits, tk.Stats.Shots)),
		Seconds: max(int(r.h.clock().now()-start)/game.TickRate, 0), Forfeit: true}, origin: st.origin})
}

// settleForfeits records r's running match at once when its forfeits
// leave it one network player or none: a match left to one tank waits
// for another and might never end, and the one who stayed has won it.
// The match is then settled: the one who stayed is sent its rating
// changes on the waiting screen, and whoever takes a seat next starts a
// new match (see seat) rather than play on in one already rated.
func (r *room) settleForfeits() {
	if len(r.forfeits) == 0 || r.seats.humans() > 1 || !r.match.live() || r.match.over() || r.recorded == r.match.matchID() {
		return
	}
	r.h.recordMatch(r.match.matchID(), r.ladderMatch())
	r.recorded = r.match.matchID()
	r.forfeits = r.forfeits[:0]
}

// matchOver records r's match, just finished, if r is ranked (and not
// settled already).
func (r *room) matchOver() {
	if r.cfg.Ranked && r.recorded != r.match.matchID() {
		r.h.recordMatch(r.match.matchID(), r.ladderMatch())
		r.recorded = r.match.matchID()
	}
	r.forfeits = r.forfeits[:0]
}

// settled reports whether r's live match was recorded before its end:
// its last opponents forfeited it (settleForfeits).
func (r *room) settled() bool {
	return r.match.live() && !r.match.over() && r.recorded == r.match.matchID()
}

// takeRated takes the ladder's rating changes of r's match, and tells
// them at once; a late answer for an earlier match is ignored.
func (r *room) takeRated(p *proto.Rated, now time.Time) {
	if p.Match != r.match.matchID() || r.recorded != p.Match {
		return
	}
	r.rated = p
	r.tellRated(now, true)
}

// tellRated sends every peer of r the rating changes of its recorded
// match, every ratedEvery (or now, with force), while its results show
// or, settled by forfeits, while it waits for someone to join.
func (r *room) tellRated(now time.Time, force bool) {
	if r.rated == nil || r.rated.Match != r.match.matchID() || !(r.match.over() || r.settled()) {
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
