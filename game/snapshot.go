package game

import "fmt"

// Snapshot is the complete state of a world: everything that affects its
// future. Two worlds restored from equal snapshots and stepped with equal
// inputs stay equal, bit for bit. It is a plain value (no pointers, slices or
// maps), so assignment is a deep copy and a saved Snapshot shares no memory
// with the world it came from.
//
// The maze grid itself is not stored: it is regenerated exactly from
// Round.MazeSeed, MazeW and MazeH.
//
// Canonical form: tanks at or above Slots, unseated tanks, and bullets at or
// above NumBullets are all zero. Step
// and Restore keep that form, and Hash relies on it.
type Snapshot struct {
	// Tick is the tick whose inputs the next Step consumes.
	Tick Tick
	// RNG is the state of the world's pseudo-random generator (spawns, maze
	// seeds of later rounds).
	RNG uint64
	// Slots is the number of player slots (1..MaxPlayers).
	Slots uint8
	// RoundsToWin is the number of round wins that wins the match; 0 means
	// an endless match (Config.Rounds).
	RoundsToWin uint8
	// Round is the state of the current round.
	Round Round
	// Tanks holds one tank per slot; only the first Slots entries are used.
	Tanks [MaxPlayers]Tank
	// NumBullets is the number of live bullets, stored in Bullets[:NumBullets].
	NumBullets uint8
	// Bullets holds the live bullets in firing order.
	Bullets [MaxBullets]Bullet
}

// Phase is the phase of a round.
type Phase uint8

const (
	// PhasePlaying is a round in progress.
	PhasePlaying Phase = iota
	// PhaseOver is the pause after a round, showing its result.
	PhaseOver
	// PhaseCountdown is the 3-2-1 before every round (CountdownTicks):
	// the tanks are in the maze but every input is ignored.
	PhaseCountdown
	// PhaseMatchOver follows the round that gave a tank RoundsToWin round
	// wins: the world is frozen, Round.Winner is the match winner, and the
	// only input that counts is ButtonRematch, which sets Tank.Rematch. It
	// lasts until the world is replaced; its Timer stays 0.
	PhaseMatchOver
	// PhaseWaiting is a match of two slots or more left with one seated
	// tank (or none): the others left, so no round can be played. Nothing
	// moves, there are no bullets, its Timer stays 0 and every input is
	// ignored; the scores are kept. It lasts until a second tank is
	// seated, when the next round's countdown starts. (Rules version 4.)
	PhaseWaiting

	// numPhases is the number of phases; a Phase at or above it is invalid.
	numPhases
)

// String returns the phase's name, for logs and test messages.
func (p Phase) String() string {
	switch p {
	case PhasePlaying:
		return "playing"
	case PhaseOver:
		return "over"
	case PhaseCountdown:
		return "countdown"
	case PhaseMatchOver:
		return "match over"
	case PhaseWaiting:
		return "waiting"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// Round is the state of the current round.
type Round struct {
	// Number counts rounds from 1.
	Number uint16
	// Phase says whether the round is counting down, being played or
	// over, or the match is over.
	Phase Phase
	// Timer is the number of ticks left in the current phase (0 in
	// PhaseMatchOver, which has no end of its own).
	Timer uint16
	// Winner is the slot that won the last finished round, or -1 for a draw
	// or when no round has finished yet. In PhaseMatchOver it is the slot
	// that won the match.
	Winner int8
	// MazeSeed, MazeW and MazeH regenerate this round's maze exactly.
	MazeSeed     uint64
	MazeW, MazeH uint8
}

// Tank is one player's tank. Positions are the centre of the tank's square
// hit box in sub-tile units; velocities are in sub-tiles per tick.
type Tank struct {
	X, Y   int32
	VX, VY int32
	// AimX, AimY is the direction the tank faces and fires in, each in
	// {-1,0,1} and never both zero. It keeps the last movement direction, so
	// a stopped tank fires where it last faced.
	AimX, AimY int8
	// HP is the remaining hit points; the tank dies at zero.
	HP int8
	// Cooldown is the number of ticks until the tank may fire again.
	Cooldown uint8
	// Hitstun is the number of ticks the tank still ignores its input after
	// being hit.
	Hitstun uint8
	// Alive is false once the tank is destroyed, until the next round.
	Alive bool
	// Seated is true when a player occupies the slot. Unseated tanks are not
	// in play.
	Seated bool
	// Score counts rounds this slot has won.
	Score uint16
	// Rematch is set when the tank's player pressed ButtonRematch in
	// PhaseMatchOver; it stays set, and is false in every other phase.
	Rematch bool
	// Stats counts what the tank did over the whole match.
	Stats Stats
}

// Stats are one slot's figures for the match so far, for the results
// screen. They start at zero when the slot is seated, carry over from
// round to round, and saturate at 65535. Score (round wins) is not among
// them: it is Tank.Score.
type Stats struct {
	// Kills counts the other tanks this one's bullets destroyed; destroying
	// itself with its own ricochet is not a kill.
	Kills uint16
	// Deaths counts the times this tank was destroyed, by any bullet.
	Deaths uint16
	// Shots counts the bullets it fired.
	Shots uint16
	// Hits counts its bullets that hit another tank (not itself).
	Hits uint16
}

// inc adds one to a stats counter, saturating at its maximum.
func inc(c *uint16) {
	if *c < 0xffff {
		*c++
	}
}

// Spawned reports whether the tank takes part in the current round: it is
// seated and was placed in the maze at the round's start (alive, or
// destroyed where it fell). A tank seated during a round waits, dead, at
// (0, 0) and spawns at the next round; it is not in the maze until then.
func (t *Tank) Spawned() bool { return t.Seated && (t.Alive || t.X != 0 || t.Y != 0) }

// Bullet is a bullet in flight.
type Bullet struct {
	X, Y   int32
	VX, VY int32
	// Owner is the slot of the tank that fired it.
	Owner uint8
	// Bounces counts the ricochets so far.
	Bounces uint8
	// Life is the number of ticks the bullet still flies.
	Life uint8
}

// Validate reports whether s is a snapshot the game can restore: counts and
// sizes in range, positions inside the maze, directions and timers within
// the rules. Decoders of untrusted data call it; Restore panics on a
// snapshot that fails it.
func (s *Snapshot) Validate() error {
	if s.Slots < 1 || s.Slots > MaxPlayers {
		return fmt.Errorf("game: snapshot has %d slots, want 1..%d", s.Slots, MaxPlayers)
	}
	if s.NumBullets > MaxBullets {
		return fmt.Errorf("game: snapshot has %d bullets, max %d", s.NumBullets, MaxBullets)
	}
	r := &s.Round
	if err := checkMazeFits(int(r.MazeW), int(r.MazeH), int(s.Slots)); err != nil {
		return err
	}
	if r.Phase >= numPhases || r.Winner < -1 || int(r.Winner) >= int(s.Slots) ||
		r.Timer > RoundTicks {
		return fmt.Errorf("game: snapshot round state out of range")
	}
	switch r.Phase {
	case PhaseCountdown:
		if r.Timer < 1 || r.Timer > CountdownTicks || s.NumBullets != 0 {
			return fmt.Errorf("game: snapshot countdown with timer %d and %d bullets", r.Timer, s.NumBullets)
		}
	case PhaseWaiting:
		if r.Timer != 0 || s.NumBullets != 0 {
			return fmt.Errorf("game: snapshot waiting with timer %d and %d bullets", r.Timer, s.NumBullets)
		}
	case PhaseMatchOver:
		if s.RoundsToWin == 0 || r.Winner < 0 || r.Timer != 0 || s.NumBullets != 0 {
			return fmt.Errorf("game: snapshot match over with %d rounds to win, winner %d, timer %d, %d bullets",
				s.RoundsToWin, r.Winner, r.Timer, s.NumBullets)
		}
	}
	maxX, maxY := int32(r.MazeW)*SubTile, int32(r.MazeH)*SubTile
	for i := range s.Tanks {
		t := &s.Tanks[i]
		if i >= int(s.Slots) || !t.Seated {
			if *t != (Tank{}) {
				return fmt.Errorf("game: snapshot tank %d is unseated or beyond %d slots but not empty", i, s.Slots)
			}
			continue
		}
		if t.X < 0 || t.Y < 0 || t.X >= maxX || t.Y >= maxY ||
			abs32(t.VX) > KnockbackSpeed || abs32(t.VY) > KnockbackSpeed ||
			t.AimX < -1 || t.AimX > 1 || t.AimY < -1 || t.AimY > 1 || (t.AimX == 0 && t.AimY == 0) ||
			t.HP < 0 || t.HP > TankHP || t.Cooldown > FireCooldown || t.Hitstun > HitstunTicks {
			return fmt.Errorf("game: snapshot tank %d out of range", i)
		}
		if s.RoundsToWin > 0 && t.Score > uint16(s.RoundsToWin) {
			return fmt.Errorf("game: snapshot tank %d has %d round wins of %d to win", i, t.Score, s.RoundsToWin)
		}
		if t.Rematch && r.Phase != PhaseMatchOver {
			return fmt.Errorf("game: snapshot tank %d voted for a rematch in phase %v", i, r.Phase)
		}
	}
	for i := range s.Bullets {
		b := &s.Bullets[i]
		if i >= int(s.NumBullets) {
			if *b != (Bullet{}) {
				return fmt.Errorf("game: snapshot bullet slot %d beyond %d bullets is not empty", i, s.NumBullets)
			}
			continue
		}
		if b.X < 0 || b.Y < 0 || b.X >= maxX || b.Y >= maxY ||
			abs32(b.VX) > BulletSpeed || abs32(b.VY) > BulletSpeed ||
			b.Owner >= s.Slots || b.Bounces > BulletBounces || b.Life > BulletLife {
			return fmt.Errorf("game: snapshot bullet %d out of range", i)
		}
	}
	return nil
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
