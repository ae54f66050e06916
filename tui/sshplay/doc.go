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
// authentication is asked. A session's input reaches the game at most at
// InputRate bytes a second (bursts of InputBurst): a paste beyond that
// is read and discarded, so it costs little and never stalls the channel.
//
// # SSH admission
//
// A connection is a startup from TCP accept until one of its sessions
// with a PTY has its shell and a game seat; then it is admitted (the
// stages, accepted → greeted → authed → channel → pty → admitted, are
// connStage in admission.go). A startup has Config.SetupTimeout (20 s)
// in all, which opening a channel does not stop, and each of its session
// channels has ChannelSetupTimeout (5 s) to ask for a shell; past either
// it is closed. Startups are shed as OpenSSH's MaxStartups start:rate:full
// does (Config.Startups, by default MaxConns/8:30:MaxConns*3/4, so a
// quarter of the connections are always a player's): past Start each new
// connection drops a startup with a probability from Rate% to 100% at
// Full (Config.Rand makes it reproducible). The one dropped is not the
// newcomer but the startup longest without progress, a silent one
// (no version line 2 ms after accept) first; the first reads of the key
// exchange count as progress, so a client mid-handshake is the last to
// go, and an admitted player is never dropped for room. A source address
// whose connections waste a slot (the setup deadline reached, or dropped
// after a second without progress) is refused from the second time for
// Config.Penalty (the setup timeout), doubling each time up to PenaltyMax
// (10 min), as OpenSSH's PerSourcePenalties do. Server.Ban and BanKey
// refuse an address or a public key for the server's life (Config.Bans)
// and drop its connections; a key can be refused only when keys are asked
// for (AuthorizedKeys).
//
// Under a flood the penalties soon refuse the flooding addresses at
// accept; from more addresses than they catch, the early drop alone
// keeps a handshaking player's connection while silent and stalled ones
// churn. What a flood costs an honest neighbour: one behind the same IP
// shares its per-address limit and its penalties.
//
// # Use
//
//	udp, _ := netcode.ListenUDP(":7777")
//	mux := netcode.NewMuxTransport(udp)
//	driver := netcode.NewServerDriver(server, mux)
//	go driver.Run(ctx)
//
//	priv, _, _ := known.LoadOrCreateKey(path)
//	key, _ := gossh.NewSignerFromKey(priv)
//	ssh, _ := sshplay.NewServer(sshplay.Config{Net: mux.Network(), Game: mux.MemAddr(), HostKey: key})
//	ln, _ := net.Listen("tcp", ":2222")
//	go ssh.Serve(ln)
//	<-ctx.Done()
//	ssh.Close() // each player is told, leaves the game, and is disconnected
package sshplay
