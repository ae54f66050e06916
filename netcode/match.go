package netcode

import (
	"ttytanks/game"
	"ttytanks/proto"
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
}

// begin builds the world for a match whose first tick is start.
func (m *match) begin(cfg *ServerConfig, seed uint64, start game.Tick) {
	w, err := game.NewWorld(game.Config{Slots: cfg.Players, Seed: seed,
		MazeW: cfg.MazeW, MazeH: cfg.MazeH, StartTick: start})
	if err != nil {
		panic(err) // the config was checked in NewServer
	}
	m.world, m.seed, m.start, m.played = w, seed, start, 0
	m.phase = phaseCountdown
	if m.inputs == nil {
		m.inputs = make([]game.Input, cfg.Players)
	}
}

// reset returns to the lobby with a new id.
func (m *match) reset(id uint32) {
	m.id, m.phase, m.world, m.played = id, phaseLobby, nil, 0
}

// live reports whether the match has a world (counting down or running).
func (m *match) live() bool { return m.phase != phaseLobby }

// due reports whether the world's next step is the server's tick clock.
func (m *match) due(clock game.Tick) bool {
	return m.live() && !clock.Before(m.world.Tick())
}
