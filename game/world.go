package game

import "fmt"

// World is a running simulation: a Snapshot plus the maze regenerated from
// it. The zero World is not usable; create one with NewWorld or
// NewWorldWithMaze. A World is not safe for concurrent use.
type World struct {
	s    Snapshot
	maze Maze
}

// Config describes a new world.
type Config struct {
	// Slots is the number of player slots, 1..MaxPlayers. Every slot starts
	// seated.
	Slots int
	// Seed seeds the world's RNG, which picks each round's maze and spawns.
	Seed uint64
	// MazeW and MazeH are the maze size in tiles (odd); zero means the
	// default size.
	MazeW, MazeH int
	// StartTick is the tick of the world's first Step.
	StartTick Tick
	// Rounds is the number of round wins that wins the match, 0..255; 0
	// means an endless match.
	Rounds int
}

// NewWorld creates a world at c.StartTick with every slot seated, in the
// countdown of round 1. The same Config always gives the same world.
func NewWorld(c Config) (*World, error) {
	if c.MazeW == 0 && c.MazeH == 0 {
		c.MazeW, c.MazeH = DefaultMazeW, DefaultMazeH
	}
	if c.Slots < 1 || c.Slots > MaxPlayers {
		return nil, fmt.Errorf("game: %d slots, want 1..%d", c.Slots, MaxPlayers)
	}
	if err := checkMazeFits(c.MazeW, c.MazeH, c.Slots); err != nil {
		return nil, err
	}
	if c.Rounds < 0 || c.Rounds > 255 {
		return nil, fmt.Errorf("game: %d rounds to win, want 0..255", c.Rounds)
	}
	w := &World{}
	w.s.Tick = c.StartTick
	w.s.Slots = uint8(c.Slots)
	w.s.RoundsToWin = uint8(c.Rounds)
	w.s.RNG = c.Seed
	w.s.Round.MazeW, w.s.Round.MazeH = uint8(c.MazeW), uint8(c.MazeH)
	w.s.Round.Winner = -1
	for i := 0; i < c.Slots; i++ {
		w.s.Tanks[i].Seated = true
	}
	w.startRound()
	return w, nil
}

// NewWorldWithMaze creates a world whose first round is played on the given
// literal maze (see ParseMaze), with tanks placed by the caller through
// SetTank. Later rounds generate mazes of the same size from the world's
// seed. Because the literal maze cannot be regenerated, such a world can
// only restore snapshots of its first round. Its first round starts
// playing at once, without a countdown, and the match is endless unless
// SetRoundsToWin says otherwise. Tests use it.
func NewWorldWithMaze(slots int, seed uint64, m Maze) (*World, error) {
	if slots < 1 || slots > MaxPlayers {
		return nil, fmt.Errorf("game: %d slots, want 1..%d", slots, MaxPlayers)
	}
	w := &World{maze: m}
	w.s.Slots = uint8(slots)
	w.s.RNG = seed
	w.s.Round = Round{Number: 1, Phase: PhasePlaying, Timer: RoundTicks, Winner: -1,
		MazeSeed: m.Seed, MazeW: uint8(m.W), MazeH: uint8(m.H)}
	for i := 0; i < slots; i++ {
		w.s.Tanks[i] = Tank{Seated: true, Alive: true, HP: TankHP, AimX: 1}
	}
	return w, nil
}

// Tick returns the tick whose inputs the next Step consumes.
func (w *World) Tick() Tick { return w.s.Tick }

// Slots returns the number of player slots.
func (w *World) Slots() int { return int(w.s.Slots) }

// Maze returns the current round's maze. The pointer is valid until the
// next Step or Restore.
func (w *World) Maze() *Maze { return &w.maze }

// State returns a read-only view of the current state; it is valid until the
// next Step or Restore. Use Save for a copy.
func (w *World) State() *Snapshot { return &w.s }

// Save copies the complete state into *dst. It does not allocate.
func (w *World) Save(dst *Snapshot) { *dst = w.s }

// Restore replaces the whole state of the world with *src, discarding
// everything before. It regenerates the maze only when src is on a
// different maze than the world's current one, so restoring within a round
// does not allocate or generate. It panics if src fails Validate; snapshots
// from the network must be validated when decoded.
func (w *World) Restore(src *Snapshot) {
	if err := src.Validate(); err != nil {
		panic(fmt.Sprintf("game: Restore of an invalid snapshot: %v", err))
	}
	w.s = *src
	r := &w.s.Round
	if w.maze.Seed != r.MazeSeed || w.maze.W != int(r.MazeW) || w.maze.H != int(r.MazeH) {
		w.maze.Generate(r.MazeSeed, int(r.MazeW), int(r.MazeH))
	}
}

// SetTank replaces the state of the tank in slot i. It is meant for tests
// and tools that set up a scene; it panics if i is not a slot.
func (w *World) SetTank(i int, t Tank) {
	if i < 0 || i >= int(w.s.Slots) {
		panic(fmt.Sprintf("game: SetTank slot %d of %d", i, w.s.Slots))
	}
	w.s.Tanks[i] = t
}

// SetRoundsToWin sets the number of round wins that wins the match (0:
// endless), like Config.Rounds. It is meant for tests and tools that set
// up a scene; it panics if n is not in 0..255.
func (w *World) SetRoundsToWin(n int) {
	if n < 0 || n > 255 {
		panic(fmt.Sprintf("game: SetRoundsToWin %d", n))
	}
	w.s.RoundsToWin = uint8(n)
}

// AddBullet puts a bullet into the world, for tests that set up a scene. It
// reports false when every bullet slot is taken.
func (w *World) AddBullet(b Bullet) bool {
	if w.s.NumBullets >= MaxBullets {
		return false
	}
	w.s.Bullets[w.s.NumBullets] = b
	w.s.NumBullets++
	return true
}

// Seat seats or unseats the player in slot i between steps. A newly seated
// tank waits, dead, for the next round; an unseated slot is cleared, score
// included. It panics if i is not a slot.
func (w *World) Seat(i int, seated bool) {
	if i < 0 || i >= int(w.s.Slots) {
		panic(fmt.Sprintf("game: Seat slot %d of %d", i, w.s.Slots))
	}
	t := &w.s.Tanks[i]
	if t.Seated == seated {
		return
	}
	if seated {
		*t = Tank{Seated: true, AimX: 1}
		return
	}
	*t = Tank{}
}

// Step advances the world by one tick. inputs must hold exactly one input
// per slot, each for the world's current tick; anything else is a
// programmer error and Step panics with a message saying what was wrong.
// Move values outside {-1,0,1} are clamped and unknown button bits ignored.
//
// A world of two slots or more left with at most one seated tank waits,
// whatever its phase but the match's end, before anything else: see
// checkAlone. In PhaseWaiting only a second seated tank counts: it starts
// the next round's countdown.
//
// What a tick does depends on the round's phase. In PhaseCountdown and
// PhaseOver only the phase's timer runs (every input is ignored); the
// countdown then starts play, and the pause after a round starts the next
// round's countdown on a new maze. In PhaseMatchOver nothing moves and
// only ButtonRematch counts: it sets the seated tank's Rematch flag. In
// PhasePlaying, in order: tanks in slot order (hitstun, aim, velocity,
// movement with walls and pushing, firing); bullets in firing order
// (movement with ricochets, hits); round end, and match end when the
// round's winner reaches RoundsToWin.
func (w *World) Step(inputs []Input) {
	if len(inputs) != int(w.s.Slots) {
		panic(fmt.Sprintf("game: Step got %d inputs for %d slots", len(inputs), w.s.Slots))
	}
	for i := range inputs {
		if inputs[i].Tick != w.s.Tick {
			panic(fmt.Sprintf("game: Step at tick %d got input for tick %d in slot %d",
				w.s.Tick, inputs[i].Tick, i))
		}
	}
	r := &w.s.Round
	if r.Phase != PhaseMatchOver && r.Phase != PhaseWaiting {
		w.checkAlone()
	}
	switch r.Phase {
	case PhaseWaiting:
		if w.seated() >= 2 {
			w.startRound()
		}
	case PhaseOver:
		r.Timer--
		if r.Timer == 0 {
			w.startRound()
		}
	case PhaseCountdown:
		r.Timer--
		if r.Timer == 0 {
			r.Phase = PhasePlaying
			r.Timer = RoundTicks
		}
	case PhaseMatchOver:
		for i := range inputs {
			if t := &w.s.Tanks[i]; t.Seated && inputs[i].Clamped().Rematch() {
				t.Rematch = true
			}
		}
	default:
		for i := range inputs {
			w.stepTank(i, inputs[i].Clamped())
		}
		w.stepBullets()
		w.checkRoundEnd()
	}
	w.s.Tick++
}
