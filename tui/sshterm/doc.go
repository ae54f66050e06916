// Package sshterm plays ttytanks in an SSH session: a ChannelTty turns
// the session channel into a tcell.Tty, so that a tcell screen draws into
// it and reads keys from it, and Game.Play runs the game on that screen.
// It knows nothing of the SSH server (internal/sshfront admits the
// sessions); a Session is what it needs of one, and "ttytanks serve"
// wires the front end's sessions to Game.Play.
//
// # How a session plays
//
// The game server runs in the same process. netcode.MuxTransport lets its one
// netcode.ServerDriver listen on the UDP socket and on an in-memory
// netcode.MemNetwork at once. Each SSH session starts the same
// predicting netcode.Client as "ttytanks join", on a fresh in-memory
// transport, and runs the same tui.Run (or, with Config.Lobby, tui.Play:
// the room list and the games picked from it) on a screen bound to the
// session channel by a ChannelTty: the same client code and protocol,
// only the datagrams never leave the process. The screen is a
// streamScreen: tcell sets the terminal up and reads its keys, and the
// cells the Renderer changes are written straight to the channel, with
// no cell buffers of tcell's. The SSH user name, through
// proto.SanitizeName, is the player name.
//
// The game therefore runs beside the server, and what the player feels is
// the SSH round trip: each key press and each redrawn frame cross it. The
// netcode sidebar shows the in-process RTT, close to zero.
//
// # Limits
//
// A session whose player shows no intent for Session.Idle ends with a
// message: the game server's rule (a non-neutral input in a match, a room
// joined; waiting in a room is no intent; watching, any key is). A
// session joins a room at most SwitchBurst times at once, then once every
// SwitchEvery; past that it is told to slow down and its keys are dropped
// until then (ChannelTty.Hold). Its game clients keep a history of
// clientHistory ticks, and its in-memory transports queue clientQueue
// datagrams. Once the sessions in play have fallen to half their peak
// (by releaseLeft at least), the Game returns the free heap to the
// operating system (heapRelease). When the SSH server ends a session (it closes, or
// a ban or kick) the player is told the cause of Session.Closing; when
// the game server removes the player (its operator's kick or ban, a
// Leave "kicked", netcode.ErrRemoved) the session ends the same way, in
// the lobby as in a match, rather than going back to the room list: the
// terminal restored, the reason printed, exit status 1. A session whose channel
// closes, or whose input ends, leaves the game at once. The game is drawn
// in at most MaxWidth x MaxHeight cells (256x100) of a larger window. A
// session's input reaches the game at most at InputRate bytes a second
// (bursts of InputBurst): a paste beyond that is read and discarded, so
// it costs little and never stalls the channel. A write blocked for
// WriteStall drops the connection. The terminal type is looked up in
// tcell's built-in set (FallbackTerm if unknown); a client whose locale
// is not UTF-8 gets ASCII, and one that sends NO_COLOR no colour.
//
// # Use
//
//	game, err := sshterm.NewGame(sshterm.Config{Net: mux.Network(), Game: mux.MemAddr(), Lobby: true})
//	...
//	code, msg, gone := game.Play(ctx, session) // one call per session, each in its own goroutine
//
// # Files
//
//	game.go    Config, Game, Session: one session's game from its first frame to how it ended
//	lobby.go   the room list over the in-memory network, the seat taken from it, the joins' budget
//	idle.go    the idle timeout: no sign of intent
//	release.go the memory of ended sessions returned to the operating system
//	tty.go     ChannelTty: the session channel as a tcell.Tty, input budget, resize coalescing
//	screen.go  streamScreen: the session's screen, cells written straight to the channel
//	term.go    the client's TERM and locale: terminfo lookup, UTF-8 or ASCII
package sshterm
