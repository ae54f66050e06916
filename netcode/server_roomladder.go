package netcode

import (
	"net/netip"
	"slices"
	"time"

	"ttytanks/game"
	"ttytanks/internal/ladder"
	"ttytanks/proto"
)

// A ranked room and the ladder (PROTOCOL.md §4.15): its finished match
// goes to the ladder, and the ladder's ratings come back to its peers.

// forfeited is a rated player who left a running match (forfeit), the
// address their place counted against and when they took it.
type forfeited struct {
	ladder.MatchPlayer
	origin netip.Addr
	joined game.Tick
}

// ladderMatch returns r's match as the ladder records it: each seated
// slot's player (a bot, a guest: no key), round wins and figures, and the
// players who left it (forfeits). A seat whose tank never spawned (taken
// in the match's last round, it waited for a next round that never came)
// played no round: it is left out, neither rated nor a loser. Players of one address prefix (an IPv4
// address, an IPv6 /64) are not rated against each other: two keys of
// one machine are one player farming the other. A trusted range
// (ServerConfig.Trusted) is exempt. Nor is a key rated against itself,
// in two places. Of such places the one taken first is rated and the
// later ones play unrated, so that a player losing the match cannot void
// it by seating another place of theirs in it.
func (r *room) ladderMatch() ladder.Match {
	w := r.match.current().State()
	start, _ := r.match.origin()
	secs := max(int(r.h.clock().now()-start)/game.TickRate, 0)
	m := ladder.Match{Room: r.name, Rounds: int(w.Round.Number)}
	var origins []netip.Addr // of m.Players, for the prefix rule
	var joined []game.Tick   // of m.Players: when each took its place
	for i := 0; i < r.cfg.Players && i < len(w.Tanks); i++ {
		st, tk := r.seats.at(i), &w.Tanks[i]
		if st.state == seatFree || !tk.Spawned() {
			continue // a free seat, or one that played no round
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
		joined = append(joined, st.joined)
	}
	for _, f := range r.forfeits {
		back := -1 // left, then took a seat again: the seat counts, from when they first came
		for i, p := range m.Players {
			if p.Key == f.Key && back < 0 {
				back = i
			}
		}
		if back >= 0 {
			if f.joined.Before(joined[back]) {
				joined[back] = f.joined
			}
			continue
		}
		p := f.MatchPlayer
		p.Slot = game.MaxPlayers + len(m.Players) // slots are unique in a match; a forfeit's may be taken again
		m.Players = append(m.Players, p)
		origins = append(origins, f.origin)
		joined = append(joined, f.joined)
	}
	// The first place of each key and of each untrusted prefix is rated,
	// the later ones not.
	order := make([]int, len(m.Players))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(joined[a].Diff(joined[b])) })
	keys := map[ladder.Key]bool{}
	prefixes := map[netip.Addr]bool{}
	for _, i := range order {
		p := &m.Players[i]
		if p.Key.IsZero() {
			continue
		}
		o := origins[i]
		prefix, trusted := limitKey(o), r.h.trusted(o)
		if keys[p.Key] || (!trusted && prefixes[prefix]) {
			p.Key = ladder.Key{}
			continue
		}
		keys[p.Key] = true
		if !trusted {
			prefixes[prefix] = true
		}
	}
	return m
}

// maxForfeits bounds the forfeits a room keeps of its running match.
const maxForfeits = 2 * game.MaxPlayers

// forfeit notes st's player, leaving, as a forfeit of r's running match
// if it is ranked and they have a key: the match, when it ends, ranks
// them last. A player who leaves before the first tick, or after the
// end, or before their tank ever spawned (they played no round of it),
// forfeits nothing. Of more than maxForfeits, those of the players
// who took their place last give way, so that keys taking a free seat
// and quitting at once cannot fill the list and let a loser quit free.
func (r *room) forfeit(st *seat) {
	if !r.cfg.Ranked || st.who.IsZero() || !r.match.live() || r.match.counting() || r.match.over() || r.recorded == r.match.matchID() {
		return
	}
	w := r.match.current().State()
	if st.slot >= len(w.Tanks) || !w.Tanks[st.slot].Spawned() {
		return
	}
	tk := &w.Tanks[st.slot]
	start, _ := r.match.origin()
	f := forfeited{MatchPlayer: ladder.MatchPlayer{Key: st.who, Name: st.name, RoundWins: int(tk.Score),
		Kills: int(tk.Stats.Kills), Deaths: int(tk.Stats.Deaths), Shots: int(tk.Stats.Shots), Hits: int(min(tk.Stats.Hits, tk.Stats.Shots)),
		Seconds: max(int(r.h.clock().now()-start)/game.TickRate, 0), Forfeit: true}, origin: st.origin, joined: st.joined}
	if len(r.forfeits) < maxForfeits {
		r.forfeits = append(r.forfeits, f)
		return
	}
	last := 0
	for i := range r.forfeits {
		if r.forfeits[i].joined.After(r.forfeits[last].joined) {
			last = i
		}
	}
	if f.joined.Before(r.forfeits[last].joined) {
		r.forfeits[last] = f
	}
}

// settleForfeits records r's running match at once when its forfeits
// leave it one network player: a match left to one tank waits for
// another and might never end, and the one who stayed has won it. The
// match is then settled: the one who stayed is sent its rating changes
// on the waiting screen, and whoever takes a seat next starts a new match
// (see seat) rather than play on in one already rated. A match its
// players all left at once (they timed out in one sweep: the server's
// network was down, say) is not: the room empties, and a match that does
// not end is not rated (openLobby forgets its forfeits).
func (r *room) settleForfeits() {
	if len(r.forfeits) == 0 || r.seats.humans() != 1 || !r.match.live() || r.match.over() || r.recorded == r.match.matchID() {
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
