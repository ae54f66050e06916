// Package replay is the replay screen of "ttytanks replay": Play shows a
// recording, loaded as a resim.Timeline (package proto/recording/resim),
// in the terminal with the renderer of a live match (package tui), and a
// Player holds what the keys change: pause, speed, seek, the seat
// followed, the help. Its sidebar, help and event feed are its own
// (tui.Panel): the position and the followed player's figures, its keys,
// and the recording's events up to the tick shown (Feed).
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
//	panel.go   the sidebar of the replay: its position and the followed player's figures
//	feed.go    Feed: a recording's events, each at its tick
package replay
