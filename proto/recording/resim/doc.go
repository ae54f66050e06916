// Package resim re-simulates match recordings (package proto/recording)
// with the game's own rules (package game): Verify checks a whole
// recording, every checkpoint of its hash chain and every result;
// Timeline loads one for playback with keyframes, so that a seek
// re-simulates at most KeyEvery ticks. It does no IO of its own and
// draws nothing: "ttytanks verify" prints a Summary, and the replay
// screen (tui/replay) shows a Timeline.
//
//	sum, err := resim.Verify(file) // err names the block or checkpoint that fails
//
//	tl, err := resim.Load(file)
//	tl.Seek(tl.RoundStart(1)) // the next round
//	for tl.Step() {           // one tick: tl.State(), tl.Maze(), tl.Names()
//	}
//
// A recording made under other game rules (Header.Rules) cannot be
// re-simulated: both fail with ErrRules.
//
// # Files
//
//	resim.go     the re-simulator both share: each block's events, steps and checkpoints; ErrRules, ErrResult
//	verify.go    Verify and its Summary
//	timeline.go  Timeline: Load, Step, Seek, RoundStart and the position's world
package resim
