// Package replay re-simulates match recordings (package proto/recording):
// Verify checks a whole recording, every checkpoint of its hash chain and
// every result; Timeline loads one for playback with keyframes, so that a
// seek re-simulates at most KeyEvery ticks; Play shows a Timeline in the
// terminal with the renderer of a live match (package tui).
//
//	sum, err := replay.Verify(file) // err names the block or checkpoint that fails
//
//	tl, err := replay.Load(file)
//	p := replay.NewPlayer(tl)
//	err = replay.Play(ctx, screen, p, tui.Options{}, replay.Hooks{})
//
// The main loop of Play: one select over key events, a frame ticker and
// ctx; each frame advances the Player by the wall time since the last
// (Player.Advance, at its speed) and draws Timeline.View.
package replay
