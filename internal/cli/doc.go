// Package cli holds the commands of the ttytanks binary: each parses its
// flags (github.com/spf13/pflag), checks them, and wires the packages
// that do the work (netcode, tui, internal/sshfront, internal/admin, tui/sshterm, tui/replay, proto/recording/resim, internal/loadtest).
// The binary's main package holds only the command table and dispatches
// to Play, Serve, Join, Replay, Verify, Loadtest and Version.
//
// A command is func(args, stdout, stderr) int (Serve and Version also
// take the binary's version) and returns the process's exit code: 0 on
// success, 1 on a runtime failure, 2 on a usage error, with the error
// on stderr and --help on stdout. Nothing a command parses goes into a
// package variable: flags land in the command's own flags struct and
// travel from there as arguments.
//
// # Files
//
//	file                   what it holds
//	play.go                Play: an embedded server on a loopback port, bots and you
//	serve.go               Serve: serve's flags, and the run that brings the server up
//	server_flags.go        serverFlags: the server's flags (serve's; play sets them)
//	serve_ssh.go           sshFlags: serve --ssh, the SSH front and its players' origin
//	serve_record.go        recordFlags: serve --record, one recordings.Store, a Dir of it per room
//	serve_key.go           loadServerKey: the server's key, created on first start
//	serve_profile.go       startCPUProfile: serve --cpuprofile
//	serve_dashboard.go     the operator's loop: dashboard or status lines, shutdown
//	serve_operator.go      the dashboard's operator keys: kick, ban, stop
//	serve_stats.go         statsSampler: the server's figures for the loop and
//	                       --stats-json (package statsfile)
//	serve_status.go        logStatus: the status line of a server with no terminal
//	serve_service.go       serviceFlags: --config, --print-config, --admin, --drain-timeout,
//	                       --log-format
//	serve_config.go        the TOML file and TTYTANKS_* environment of a command's flags,
//	                       and --print-config's file
//	serve_admin.go         startAdmin: serve --admin (package internal/admin)
//	serve_drain.go         the drain on SIGTERM: its signals, its clock, its end
//	serve_agones.go        agonesFlags, startAgones: serve --agones (package internal/agones)
//	serve_fleet.go         fleetFlags, the fleet's membership: serve --fleet (package internal/fleet)
//	serve_ladder.go        ladderFlags: serve --ladder, --db, --db-backup, --tau; the fleet's ladder in Redis
//	serve_notify.go        sdNotify: READY and STOPPING for systemd (Type=notify)
//	join.go                Join: join's flags and run, roomRequest
//	join_headless.go       join --headless: a session watched without a screen
//	join_headless_stats.go headlessStats: what join --headless reports
//	join_trust.go          keyTrust: the server's key against known_servers or
//	                       --server-key
//	join_desync.go         join --desync-dir: the client's desync hook
//	client.go              clientSetup, startClient, runClientUI: a client session
//	                       on the terminal (join, play, serve --play)
//	lobby.go               runLobbyUI: the lobby screen over UDP
//	ui.go                  uiFlags: the terminal client's flags
//	replay.go              Replay: watch a recording
//	verify.go              Verify: re-simulate a recording and summarise it
//	rooms.go               Rooms: a server's (or fleet's) room list, once, as a table or JSON
//	top.go                 Top and Me: a server's leaderboard, your record, --forget
//	identity.go            identityFlags: the player key (made on first use) or --guest; its signer
//	verify_desync.go       verify --desync: explain desync evidence
//	loadtest.go            Loadtest: the load test's flags, its UDP run, the report
//	loadtest_ssh.go        loadtest --ssh: its flags and run
//	version.go             Version: print the version
//	usage.go               newFlagSet, parseFlags, usageError: flag sets and usage
//	                       errors, exit code 2
//	flags.go               flag values: percent, mazeSize, --bot-level
//	sim.go                 simFlags: the network simulator's --sim-* flags
//	names.go               player names: the defaults, sanitising --name
//	address.go             server addresses: parsed, resolved, shared with others
//	screen.go              opening the terminal for tcell
//	signals.go             signalContext: SIGINT and SIGTERM end a command's context
//	                       (serve takes them itself: SIGTERM drains)
package cli
