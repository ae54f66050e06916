// Package sshfront is the SSH front end of "ttytanks serve --ssh :2222":
// the listener, the admission of connections, bans, authorized keys and
// the checks of each session, so that "ssh -p 2222 host" plays with
// nothing to install. It plays no game itself: each session it admits
// (a PTY, a shell request, a seat) is handed to Config.Play, a Handler,
// which the serve command wires to the game's terminal adapter
// (tui/sshterm); this package imports nothing of the game's.
//
// # Limits
//
// A session needs a PTY ("ssh -t"); a command ("ssh host cmd"), a
// subsystem, port forwarding (local or remote), agent and X11 forwarding
// are refused, with a message where the protocol can carry one. Every
// per-address limit counts a prefix (prefixOf: an IPv4 address, an IPv6
// /64), as the game server does. Beyond Config.MaxSessions a session is
// told the server is busy, beyond MaxSessionsPerPrefix that its address
// has its share. Connections are bounded (Config.MaxConns, MaxConnsPerIP,
// idle ones included), each to MaxChannelsPerConn sessions, to
// Config.HandshakeTimeout to authenticate and open one, and to
// Config.Unused without one. A connection's key exchange is rationed
// when its client first speaks (Config.Kex: per prefix, overall, and a
// reserve for quiet prefixes). With Config.AuthorizedKeys only those
// public keys get in; without it any key does (so that bans know it) and
// a client with none by keyboard-interactive with no question; "none"
// fails, so that OpenSSH offers its keys. The session's window-change
// requests are answered and kept for the game (Session.Window,
// Session.Resized), WinchRate a second; past WinchFloodRate the
// connection is closed. Its env requests are bounded. Refusals, drops
// and closes are logged as one line per TallyEvery with their counts.
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
// refuse a prefix or a public key for the server's life (Config.Bans):
// its sessions are told so (Session.Closing's cause, an *Evicted) and
// end, their terminals restored, then its connections close; one
// connection a BanNoticeEvery from a banned prefix is let through to be
// told. KickPlayer ends one player's session, telling it, and holds its
// prefix and key out for the hold.
//
// Under a flood the penalties soon refuse the flooding addresses at
// accept; from more addresses than they catch, the early drop alone
// keeps a handshaking player's connection while silent and stalled ones
// churn. What a flood costs an honest neighbour: one behind the same IP
// shares its per-address limit and its penalties.
//
// # A session's life
//
// handle (session.go) refuses what is not a game session, takes a seat,
// calls Config.Play with a *Session, frees the seat, and says goodbye:
// the exit status and last line Play returned, unless the player is gone.
// A panic anywhere in it is recovered there, logged with its stack, and
// drops that session's connection only. The game's clients are enlisted
// by their address on the game's in-memory network (Session.Enlist), so
// that BanPlayer bans the SSH client behind a seat and Origin gives the
// game server the client's real address.
//
// # Use
//
//	priv, _, _ := known.LoadOrCreateKey(path)
//	key, _ := gossh.NewSignerFromKey(priv)
//	game, _ := sshterm.NewGame(sshterm.Config{Net: mux.Network(), Game: mux.MemAddr()})
//	ssh, _ := sshfront.NewServer(sshfront.Config{HostKey: key,
//		Play: func(ctx context.Context, s *sshfront.Session) (int, string, bool) { return game.Play(ctx, s) }})
//	ln, _ := net.Listen("tcp", ":2222")
//	go ssh.Serve(ln)
//	<-ctx.Done()
//	ssh.Close() // each player is told, leaves the game, and is disconnected
//
// # Files
//
//	server.go       Config, Server: NewServer, Serve, Close, Sessions
//	admission.go    the gate: stages, MaxStartups' early drop, per-prefix penalties, ban notices
//	kexlimit.go     prefixOf; KexLimits and the key-exchange rationing
//	tally.go        the refusals' one log line per TallyEvery
//	conn.go         trackedConn, a connection in the gate: deadlines, its keys, unused
//	evict.go        Ban, BanKey, BanPlayer, KickPlayer, Origin: ending sessions with a reason
//	bans.go         BanList
//	auth.go         AuthorizedKeys
//	auth_config.go  the authentication: any key or keyboard-interactive, or AuthorizedKeys
//	channel.go      the session channel's request filter: window changes (and their storms), env, refused requests, setup deadline
//	session.go      handle: one session's checks (bans, kicks), seats, game and goodbye; refusals
//	handler.go      Handler and Session, what Config.Play is given
package sshfront
