// Package replay is the replay screen of "ttytanks replay": Play shows a
// recording, loaded as a resim.Timeline (package proto/recording/resim),
// in the terminal with the renderer of a live match (package tui), and a
// Player holds what the keys change: pause, speed, seek, the seat
// followed.
//
//	tl, err := resim.Load(file)
//	p := replay.NewPlayer(tl)
//	err = replay.Play(ctx, screen, p, tui.Options{}, replay.Hooks{})
//
// The main loop of Play: one select over key events, a frame ticker and
// ctx; each frame advances the Player by the wall time since the last
// (Player.Advance, at its speed) and draws the timeline's position.
//
// # Files
//
//	player.go  Player and its keys, the status line, Play's loop, the view of a timeline's position
package replay
