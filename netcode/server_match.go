package netcode

import (
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// Back-off for quiet peers: after quietAfter of silence a peer gets Acks
// instead of States, and after LostAfter one Ack every quietEvery ticks.
const (
	quietAfter = time.Second
	quietEvery = 15
)

// matchPhase is where the match is: waiting for players, counting down to
// a start tick the server has announced, or running.
type matchPhase uint8

const (
	// phaseLobby: seats are still free; no world.
	phaseLobby matchPhase = iota
	// phaseCountdown: every seat is taken and the world is built at its
	// start tick, which the server's clock has not reached: Start has
	// gone out, and inputs for the first ticks are arriving.
	phaseCountdown
	// phaseRunning: the world is stepped once per server tick.
	phaseRunning
)

// match is the authoritative game: its id, its world and when it starts,
// and the per-tick step and broadcast. It owns the world; the seats it
// reads through the seatTable.
type match struct {
	id     uint32
	phase  matchPhase
	world  *game.World
	start  game.Tick // the world's first tick
	seed   uint64    // its world seed
	played uint64    // ticks stepped
	inputs []game.Input
	state  proto.State // the tick's State: one Save for every peer
	ack    proto.Ack
	rec    Recorder // nil: none
	log    deltaLog // the steps a State may be sent as, against a player's baseline
}

// begin builds the world for a match whose first tick is start; names are
// the seats' players.
func (m *match) begin(cfg *roomConfig, seed uint64, start game.Tick, names []string) {
	w, err := game.NewWorld(game.Config{Slots: cfg.Players, Seed: seed,
		MazeW: cfg.MazeW, MazeH: cfg.MazeH, StartTick: start, Rounds: cfg.Rounds})
	if err != nil {
		panic(err) // the config was checked in NewServer
	}
	m.world, m.seed, m.start, m.played = w, seed, start, 0
	m.log.reset(start)
	m.phase = phaseCountdown
	if m.inputs == nil {
		m.inputs = make([]game.Input, cfg.Players)
	}
	if m.rec != nil {
		m.rec.MatchStarted(MatchInfo{ID: m.id, Slots: cfg.Players, Seed: seed, MazeW: cfg.MazeW, MazeH: cfg.MazeH,
			Start: start, StateEvery: cfg.StateEvery, Rounds: cfg.Rounds, Names: names})
	}
}

// reset returns to the lobby with a new id.
func (m *match) reset(id uint32) {
	if m.rec != nil && m.world != nil {
		m.rec.MatchEnded(m.world.Tick())
	}
	m.id, m.phase, m.world, m.played = id, phaseLobby, nil, 0
}

// live reports whether the match has a world (counting down or running).
func (m *match) live() bool { return m.phase != phaseLobby }

// due reports whether the world's next step is the server's tick clock.
func (m *match) due(clock game.Tick) bool {
	return m.live() && !clock.Before(m.world.Tick())
}

// recorder returns the match's Recorder (nil: none).
func (m *match) recorder() Recorder { return m.rec }

// recordTo makes r the match's Recorder (nil: none).
func (m *match) recordTo(r Recorder) { m.rec = r }

// matchID returns the match id.
func (m *match) matchID() uint32 { return m.id }

// current returns the world, or nil in the lobby.
func (m *match) current() *game.World { return m.world }

// origin returns the first tick and the world seed of a live match.
func (m *match) origin() (game.Tick, uint64) { return m.start, m.seed }

// over reports whether m has ended and shows its results.
func (m *match) over() bool {
	w := m.current()
	return w != nil && w.State().Round.Phase == game.PhaseMatchOver
}

// counting reports whether the match counts down to its first tick.
func (m *match) counting() bool { return m.phase == phaseCountdown }

// seat seats or unseats slot in a live match's world: a tank that comes
// plays from the next round, one that goes leaves the world at once.
func (m *match) seat(slot int, name string, on bool) {
	if !m.live() {
		return
	}
	m.world.Seat(slot, on)
	m.log.edited(m.world.Tick())
	if m.rec != nil {
		m.rec.Seated(m.world.Tick(), slot, name, on)
	}
}

// score returns slot's score, or 0 in the lobby.
func (m *match) score(slot int) uint16 {
	if m.world == nil {
		return 0
	}
	return m.world.State().Tanks[slot].Score
}

// step runs the match's tick at now when the server's clock has reached
// the world: one input per seat from the seat table, Step, Hash, and each
// peer's Ack or (every stateEvery ticks) State, all encoded from one Save,
// into out; spectators too, unless delayed (they are fed from the
// spectatorFeed instead). It counts the kinds of input used in h's tally
// and reports whether the tick saved a State (in m.state).
func (m *match) step(now time.Time, clock game.Tick, stateEvery int, seats *seatTable, h host, delayed bool) (isState bool) {
	if !m.due(clock) {
		return false
	}
	m.phase = phaseRunning
	w := m.world
	t := w.Tick()
	counts := h.tally()
	for i := range m.inputs {
		in, kind := seats.input(i, t, w)
		// As Step takes it: a bot (an InputSource) may say a move beyond
		// ±1 or a button the game does not define, and the delta log and
		// the recorder must hold what was stepped, in a form the wire
		// carries (PackInput).
		m.inputs[i] = in.Clamped()
		counts.input(kind)
	}
	w.Step(m.inputs)
	m.log.stepped(t, m.inputs)
	hash := w.Hash()
	if m.rec != nil {
		m.rec.Stepped(t, m.inputs, hash)
	}
	m.played++
	isState = m.played%uint64(stateEvery) == 0
	if isState {
		w.Save(&m.state.Snapshot) // once, for every peer
		m.state.Hash = hash
	}
	// Between States a peer gets an Ack every second tick: a State
	// carries an Ack's report, so at the default of a State every 2
	// ticks there is none, and a peer hears from the server 30 times a
	// second, in 30 datagrams.
	isAck := !isState && m.played%uint64(stateEvery)%2 == 0
	m.ack.Hash = hash
	// A player's State is a delta against the newest State it holds when
	// that is smaller; a spectator's is whole (it acknowledges none).
	send := func(l *link, player uint8, ai proto.AckInfo, base game.Tick, hasBase bool) {
		full, due := isState, isState || isAck
		if silent := now.Sub(l.heard); l.started && silent > quietAfter {
			// A peer gone quiet costs little: Acks only, and once it is
			// lost, a few a second; it gets everything again the moment
			// it speaks.
			full = false
			if silent > LostAfter {
				due = m.played%quietEvery == 0
			}
		}
		if !due {
			return
		}
		hdr := proto.Header{Match: m.id, Player: player}
		if full {
			m.state.Header, m.state.AckInfo = hdr, ai
			m.log.delta(&m.state, base, hasBase)
			h.send(l.conn, &m.state)
		} else {
			m.ack.Header, m.ack.AckInfo = hdr, ai
			h.send(l.conn, &m.ack)
		}
	}
	seats.each(func(l *link, slot int) {
		if slot >= 0 {
			base, ok := seats.baseline(slot)
			send(l, uint8(slot), seats.report(slot, now, w.Tick()), base, ok)
		}
	})
	if !delayed {
		seats.eachSpectator(func(sp *spectator) {
			send(&sp.link, proto.SpectatorSlot, sp.ackInfo(now, w.Tick()), 0, false)
		})
	}
	m.state.Back = 0 // saved() is the whole State
	return isState
}

// saved returns the State the last step saved: its snapshot and hash.
func (m *match) saved() *proto.State { return &m.state }
