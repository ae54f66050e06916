package netcode

import (
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// spectatorFeed holds a room's recent States so its spectators watch the
// match ServerConfig.SpectatorDelay behind, as a broadcaster's delay does:
// what a spectator sees, the players have long acted on. It is allocated
// when the room first has a spectator.
type spectatorFeed struct {
	ring  []feedEntry
	n     int // entries between a State saved and the same State sent
	head  int // the next entry to write
	count int
	delay int         // in ticks
	sent  uint32      // the match of the last State sent
	st    proto.State // the State being sent: one buffer, not one per tick
}

// feedEntry is one saved State and what a Start for its match needs.
type feedEntry struct {
	match uint32
	start game.Tick
	seed  uint64
	hash  uint64
	snap  game.Snapshot
}

// want turns the feed on for a delay of delay ticks at one State every
// stateEvery ticks.
func (f *spectatorFeed) want(delay, stateEvery int) {
	if f.ring != nil {
		return
	}
	f.delay = delay
	f.n = max(1, delay/stateEvery)
	f.ring = make([]feedEntry, f.n+1)
}

// clear forgets the saved States: the match they belong to is over, and
// spectators see the room as it is now.
func (f *spectatorFeed) clear() { f.head, f.count, f.sent = 0, 0, 0 }

// active reports whether the feed runs.
func (f *spectatorFeed) active() bool { return f.ring != nil }

// push saves the State the match just made.
func (f *spectatorFeed) push(m *match, st *proto.State) {
	e := &f.ring[f.head]
	e.match = m.matchID()
	e.start, e.seed = m.origin()
	e.hash, e.snap = st.Hash, st.Snapshot
	f.head = (f.head + 1) % len(f.ring)
	f.count = min(f.count+1, len(f.ring))
}

// due returns the State to send now: the one saved n States ago, or nil
// while the feed fills.
func (f *spectatorFeed) due() *feedEntry {
	if f.count <= f.n {
		return nil
	}
	return &f.ring[(f.head-f.n-1+len(f.ring))%len(f.ring)]
}

// startFor makes a spectator's Start describe the delayed match: its id,
// origin, and the server's clock as the spectator's view has it.
func (f *spectatorFeed) startFor(st *proto.Start, clock game.Tick) {
	st.ServerTick = clock.Add(int32(-f.delay))
	if e := f.newest(); e != nil {
		st.Match, st.StartTick, st.WorldSeed, st.Need = e.match, e.start, e.seed, 0
	}
}

// state returns the feed's State buffer holding e's snapshot and hash.
func (f *spectatorFeed) state(e *feedEntry) *proto.State {
	f.st.Snapshot, f.st.Hash = e.snap, e.hash
	return &f.st
}

// moved reports, once, that the State due is of another match than the
// last one sent: spectators need that match's Start first.
func (f *spectatorFeed) moved(match uint32) bool {
	if match == f.sent {
		return false
	}
	f.sent = match
	return true
}

// newest returns the entry spectators last got (or will get first).
func (f *spectatorFeed) newest() *feedEntry {
	if e := f.due(); e != nil {
		return e
	}
	if f.count > 0 {
		return &f.ring[(f.head-f.count+len(f.ring))%len(f.ring)]
	}
	return nil
}

// feedSpectators sends r's spectators the delayed State, and a Start first
// when the delayed view has moved on to a new match.
func (r *room) feedSpectators(now time.Time) {
	e := r.delay.due()
	if e == nil {
		return
	}
	if r.delay.moved(e.match) {
		r.seats.eachSpectator(func(sp *spectator) { r.sendStart(&sp.link, -1) })
	}
	st := r.delay.state(e)
	clk := r.h.clock()
	r.seats.eachSpectator(func(sp *spectator) {
		if silent := now.Sub(sp.heard); sp.started && silent > LostAfter && !clk.every(quietEvery) {
			return
		}
		st.Header = proto.Header{Match: e.match, Player: proto.SpectatorSlot}
		st.AckInfo = sp.ackInfo(now, e.snap.Tick)
		r.h.send(sp.conn, st)
	})
}
