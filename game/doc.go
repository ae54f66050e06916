// Package game is the deterministic maze-tank simulation: the world, its
// rules, the maze generator, snapshots and the state hash.
//
// It is pure: no clocks, no IO, no goroutines, no maps, no floating point.
// Time is a Tick counter, positions are integers in sub-tile units
// (SubTile per tile), and randomness comes from the world's own RNG whose
// state is part of the Snapshot. Two machines of any architecture that start
// from the same Snapshot and step the same inputs compute bit-identical
// states; Hash proves it cheaply.
//
// A caller (the server, a predicting client, a test) runs this loop:
//
//	w, err := game.NewWorld(game.Config{Slots: 2, Seed: seed})
//	if err != nil { ... }
//	var saved game.Snapshot
//	in := make([]game.Input, w.Slots())
//	for {
//		for i := range in {
//			in[i] = inputFor(i, w.Tick()) // exactly one per slot, for w.Tick()
//		}
//		w.Save(&saved)   // keep the state before the step (no allocation)
//		w.Step(in)       // advance one tick
//		h := w.Hash()    // compare with a peer's hash for the same tick
//		_ = h
//		// Roll back: w.Restore(&saved) replaces all state, and stepping the
//		// same inputs again gives the same hash.
//	}
//
// A match is a sequence of rounds, each in its own maze. Every round opens
// with a countdown (PhaseCountdown, CountdownTicks) in which the tanks
// stand placed and every input is ignored, is played (PhasePlaying) until
// at most one of its tanks is left or its time runs out, and pauses on its
// result (PhaseOver). With Config.Rounds set, the round that brings a tank
// to that many round wins ends the match instead: PhaseMatchOver freezes
// the world, Round.Winner names the match's winner, and ButtonRematch sets
// the voter's Tank.Rematch, which the server reads to start a rematch.
// Tank.Stats count kills, deaths, shots and hits for the results screen.
//
// A World is not safe for concurrent use. Snapshot is a plain value: a
// copy shares nothing with the world it came from.
package game
