package netcode

import "ttytanks/game"

// Recorder is told, as it happens, everything a recording of a match
// needs to reproduce it exactly: how the match began, every tick's inputs
// and resulting hash, and the seats taken and freed between ticks. The
// server core calls it synchronously (never concurrently); a Recorder
// must not keep the slices it is given. ServerConfig.Recorder sets one.
type Recorder interface {
	// MatchStarted: the world was built with game.NewWorld(game.Config{
	// Slots: Slots, Seed: Seed, MazeW, MazeH, StartTick: Start, Rounds:
	// Rounds}); Names are the seats' players at that moment ("" for a
	// free seat).
	MatchStarted(m MatchInfo)
	// Seated: before the step of tick t, the player named name took seat
	// slot (seated) or left it (game.World.Seat).
	Seated(t game.Tick, slot int, name string, seated bool)
	// Stepped: the world stepped tick t with inputs (one per seat) and
	// its hash at t+1 is hash.
	Stepped(t game.Tick, inputs []game.Input, hash uint64)
	// MatchEnded: the match ended at tick t (its last step was t−1).
	MatchEnded(t game.Tick)
}

// MatchInfo describes a match as it begins.
type MatchInfo struct {
	ID           uint32
	Slots        int
	Seed         uint64
	MazeW, MazeH int
	Start        game.Tick
	// Rounds is the world's game.Config.Rounds: the round wins that win
	// the match (0: endless).
	Rounds     int
	StateEvery int
	Names      []string
}
