// Package sshplay serves ttytanks to any ssh client: "ttytanks serve --ssh
// :2222" on the host, "ssh -p 2222 host" to play, nothing to install.
//
// # How a session plays
//
// The game server runs in the same process. netcode.MuxTransport lets its one
// netcode.ServerDriver listen on the UDP socket and on an in-memory
// netcode.MemNetwork at once. Each SSH session with a PTY starts the same
// predicting netcode.Client as "ttytanks join", on a fresh in-memory
// transport, and runs the same tui.Run on a tcell screen bound to the
// session channel by a ChannelTty: the same client code and protocol,
// only the datagrams never leave the process. The SSH user name, through
// proto.SanitizeName, is the player name.
//
// The game therefore runs beside the server, and what the player feels is
// the SSH round trip: each key press and each redrawn frame cross it. The
// netcode sidebar shows the in-process RTT, close to zero.
//
// # Limits
//
// A session needs a PTY ("ssh -t"); a command ("ssh host cmd"), a
// subsystem, port forwarding (local or remote), agent and X11 forwarding
// are refused, with a message where the protocol can carry one. A session
// with no key press for Config.Idle while the match runs (the lobby does
// not count) ends with a message; beyond Config.MaxSessions a session is
// told the server is busy. A session whose channel closes, or whose input
// ends, leaves the game at once. The game is drawn in at most MaxWidth x
// MaxHeight cells (256x100) of a larger window. Connections are bounded
// (Config.MaxConns, MaxConnsPerIP), each to MaxChannelsPerConn sessions
// and to Config.HandshakeTimeout to authenticate and open one. With
// Config.AuthorizedKeys only those public keys get in; without it no
// authentication is asked.
//
// # Use
//
//	udp, _ := netcode.ListenUDP(":7777")
//	mux := netcode.NewMuxTransport(udp)
//	driver := netcode.NewServerDriver(server, mux)
//	go driver.Run(ctx)
//
//	key, _, _ := sshplay.LoadOrCreateHostKey(path)
//	ssh, _ := sshplay.NewServer(sshplay.Config{Net: mux.Network(), Game: mux.MemAddr(), HostKey: key})
//	ln, _ := net.Listen("tcp", ":2222")
//	go ssh.Serve(ln)
//	<-ctx.Done()
//	ssh.Close() // each player is told, leaves the game, and is disconnected
package sshplay
