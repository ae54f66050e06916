// Package netcode is ttytanks' server-authoritative rollback netcode: the
// server core, the predicting client core, and the drivers that run them
// on a transport (netcode/transport).
//
// # The contract
//
// Both cores are sans-IO state machines, like etcd raft's RawNode: they
// read no clock and touch no socket. A driver feeds them time and
// datagrams and sends what they hand back:
//
//	out := srv.Receive(now, from, datagram) // open, admit, buffer
//	out  = srv.Advance(now)                 // the 60 Hz ticks due by now
//	next := srv.Deadline()                  // when to call Advance again
//
//	out  = cli.Advance(now, heldInput)      // predict the ticks the clock says
//	out  = cli.Receive(now, from, datagram) // open, validate, restore, replay
//	next  = cli.Deadline()
//	cli.View(&view)                         // what the renderer draws
//
// Returned datagrams are valid until the next call. Time comes in as now;
// the cost of a replay is measured through ClientConfig.Clock; random
// bytes (seeds, secrets, tokens, keys) come from an injected io.Reader.
// So a test drives either core on a virtual clock with no sockets
// (harness_test.go), and the drivers (driver_*.go) are loops that own no
// game logic. Why a session ended is a typed error (client_errors.go):
// test it with errors.Is and errors.As. TestCoresDoNoIO checks that only
// the driver files touch the clock, the network or a random source.
//
// # The map
//
// A file's name says its side: server_*.go is the server core,
// client_*.go the client core, driver_*.go the loops, and the rest is what
// both sides use. Each part is one type with its own methods, and its
// fields are its own (TestPartsOwnTheirFields enforces it):
//
//	server.go               Server: the composition; Receive, Advance, Tick; the guard of each room
//	server_config.go        ServerConfig and its defaults
//	server_handshake.go     clearDesk, the clear side: Hello → Challenge, Join → Accept, ListRooms → RoomList
//	server_sealed.go        the sealed side: a datagram opened once, its packet routed (Request, Input, Leave, PathResponse)
//	server_admission.go     admission: cookies, tokens, bans, the address a peer counts against, recent departures
//	server_ratelimit.go     the per-source rate limit of unauthenticated requests
//	server_conns.go         connTable: the key exchange, opening and sealing, the sweep of idle connections
//	server_conn.go          conn: one sealed connection, its epochs, its moves
//	server_pathcheck.go     pathCheck: the check of a moved connection's new address (the 1x rule)
//	server_rooms.go         roomTable: rooms by name, code and match id; quick match; the room list's pages
//	server_placement.go     where a Request lands: quick, named, by code, a new room
//	server_room.go          room: one match's place; seating, inputs, leaves, the step, faults, kicks and bans
//	server_rematch.go       the end of a match: results, votes, the rematch
//	server_drain.go         the drain before a restart: Drain, Draining, Drained
//	server_fleet.go         fleetDesk: the fleet's other servers, where a Request belongs, their rooms in the list; SetFleet
//	server_ladder.go        ladderDesk: the ladder's jobs for the driver, names claimed before a seat, LadderQuery, guests as ~name
//	server_roomladder.go    a ranked room's finished match for the ladder, and its ratings told (Rated)
//	server_roomdrain.go     a room in the drain: its last match, then its peers sent away
//	server_roomlog.go       roomLog: the log lines of who came and went: transport, address, after how long
//	server_chat.go          a room's chat: chatter (a peer's lines, budget, mute), roomChat (lines relayed until acknowledged)
//	server_chatguard.go     chatGuard: the chat across rooms: muted prefixes, each prefix's budget
//	server_lobbychat.go     the lobby's chat: its room of viewers, their share and their idling out
//	server_feed.go          spectatorFeed: the spectators' delayed view
//	server_roomview.go      what a room shows: to the table, the lobby and the operator
//	server_host.go          roomHost: what a room sees of the server
//	server_seats.go         seatTable and its rows (seat, spectator, link): the seat state machine
//	server_inputs.go        inputBuffer: one seat's inputs by tick, hold and neutral, arrival margins
//	server_seqwindow.go     seqWindow: new sequence numbers from repeats
//	server_match.go         match: lobby, countdown, running; one step and its Acks and States
//	server_clock.go         serverClock and tally: the tick the rooms see, and their counters
//	server_stats.go         ServerStats, RoomStats, PlayerStats
//	server_tickhist.go      TickHistogram: the driver's tick durations by bucket, for the metrics
//	server_drops.go         DropReason: why a datagram was dropped
//	server_recorder.go      Recorder: what a match recording is told
//
//	client.go               Client: the composition; Advance, Receive, the State's checks in order
//	client_session.go       session: status, seat, roster, silence, the repeated Leave, the end
//	client_handshake.go     handshake: one connection attempt, its repeats and stalls
//	client_conn.go          clientConn: the client's side of the sealed connection
//	client_timeline.go      timeline: the predicted world, its histories, restore and replay
//	client_clocksync.go     clockSync: input lead, the clock's rate and jumps, redundancy under loss
//	client_servertime.go    serverTime: the estimate of the server's clock; msClock, ours for RTT echoes
//	client_wake.go          wakeWatch: a freeze of the client noticed; the clock's jump, or a check with the server, on waking
//	client_linkstats.go     linkStats: RTT, loss both ways, bandwidth
//	client_chat.go          chatBox: our lines repeated until received back, the room's lines shown once
//	client_redirect.go      handover: the fleet's Redirects followed, the vouched key, the way back to the first server
//	client_ladder.go        ladderBox: a LadderQuery repeated until answered, the page, the Rated of the match shown
//	client_predict.go       RemotePredictor, VelocityPredictor: the other players' inputs guessed
//	client_lobby.go         LobbyClient: the room list, page by page
//	client_view.go          View, Metrics, Status: what a renderer draws
//	client_metrics.go       the figures put together
//	client_errors.go        why a session ended
//
//	driver.go               the wall clock and the system's entropy
//	driver_server.go        ServerDriver: one loop owns the Server
//	driver_ladder.go        the ladder's jobs run against a ladder.Board on a goroutine of the driver's (RunLadderJob)
//	driver_client.go        ClientDriver: a ticker and a receiver around a Client
//	driver_lobby.go         Lobby: the lobby screen's loop around a LobbyClient
//	driver_pauseclock.go    PauseClock: a clock that stops, shared by play's server and client
//
//	tick.go                 TickDuration, TickClock: the 60 Hz accumulator
//	outbox.go               outbox: the datagrams a call returns, sealed or clear, in one arena
//	epochs.go               epochs: what a connection's match epochs stand for, on either side
//	ring.go                 Ring: a history indexed by tick that checks the tick on read
//	window.go               window, ewma, rate, spark: the figures' sliding windows
//	roominfo.go             RoomInfo, RoomList, RoomRequest: the lobby's words on both sides
//
// netcode/transport moves datagrams (UDP with batched system calls, an
// in-memory network, a multiplexer, the seeded network simulator);
// netcode/recordings keeps serve's recording directory; netcode/desync
// writes the evidence of a client-side desync.
//
// # The path of one sealed Input
//
// The TUI maps keys to a held game.Input → ClientDriver.SetInput →
// Client.Advance: the timeline stores it for tick T, predicts the remote
// players, steps and saves the snapshot; the newest k inputs go into an
// Input under the session's header → outbox.sealed → clientConn.sealed:
// proto's Sealer.AppendPacket writes the sealed header (connection id,
// packet number), the epoch of the match and seat, and the body, and
// seals them in place → transport → Server.Receive: the sealed header is
// read once (proto.ParseSealedHeader) → server_sealed.go onSealed: the
// connection by its id, bans, then connTable.open: the replay window, the
// tag, the prefix, and the header the epoch stands for (match, seat,
// packet number); the connection notes the datagram (a move, a path
// check owed) → onInput: the body parsed (proto.ParseInputBody), the room
// by the match id, one map lookup → room.input: seat, address and
// connection, a sequence number not seen, the tick window → the seat's
// inputBuffer → Server.Advance at tick T: the match takes each seat's
// input (its own, the last held for HoldTicks, or neutral), steps,
// hashes, and sends each peer an Ack or a State with the seat's arrival
// margin and receive count, sealed for the peer's connection →
// Client.Receive: the connection opens it, then identity, freshness,
// hash; the timeline restores and replays from T+1 to the present; clock
// sync takes the margin, link statistics the RTT and loss.
//
// # Rooms, and one loop for all of them
//
// A room is one match's place: a name, seats, bots, a maze size, a win
// condition, public or private (with a join code). ServerConfig.Rooms of
// them open at start and stay; more open on demand (a quick match with no
// free seat, a named room that does not exist, a create) up to MaxRooms,
// and close after RoomIdle without a network peer. The room table maps
// match ids to rooms, so the receive path routes a datagram with one map
// lookup, and nothing on it takes a lock, because one goroutine owns the
// Server: the ServerDriver's loop takes datagrams from the receiving
// goroutine over a channel and runs Advance at each deadline; Do runs
// inspections between the two.
//
// All rooms are stepped by that one loop, one after the other, each
// inside its own recover (Server.inRoom): a panic ends that room alone —
// its peers get a "server error" Leave and go back to the lobby — and the
// next room steps on time. One loop was chosen over a goroutine per room
// by measurement: BenchmarkServerCapacity steps 64 rooms of 8 players
// (512 clients), with every datagram opened and sealed, in 0.65–0.84 ms
// a tick on one core (under 5% of the 16.7 ms budget) with 0
// allocations, and the socket system calls (2 µs a datagram batched, BenchmarkUDPBatch) cost
// more than the rooms' steps. Parallel rooms would add locks on the shared
// admission, connections and outbox for no gain at that size.
//
// # The connection
//
//	Hello ──► Challenge (cookie, no state kept) ──► Join ──► Accept: conn made, keys agreed
//	conn ── Request ──► Start (placed) or Reject ── … ── sweep: forgotten
//	             unplaced for a cookie's life, silent FreeAfter+5 s, or placeless and quiet
//
// A datagram of a connection that opens from another address, and is the
// newest it has had, moves it there (at most every moveEvery); until the
// new address answers a PathChallenge, the server sends it no more bytes
// than it received from it and takes no Request on it (server_pathcheck.go).
//
// # The seat state machine
//
//	            join (cookie, free seat)
//	┌──────┐ ───────────────────────────► ┌──────┐   silence ≥ LostAfter   ┌──────┐
//	│ free │                              │ held │ ──────────────────────► │ lost │
//	└──────┘ ◄─────────────────────────── └──────┘ ◄────────────────────── └──────┘
//	 ▲   │     leave, close                  │ ▲     heard, reconnect        │
//	 │   │                                   └─┘ reconnect (token)           │
//	 │   ▼ placeBot (lobby opens)                                            │
//	┌──────┐                                                                 │
//	│ bot  │      free ◄─── silence ≥ FreeAfter, leave, close ───────────────┘
//	└──────┘ ──► free (close: the lobby reopens, or a fault)
//
// The transitions are seatTable's methods: take (free → held), placeBot
// (free → bot), hear (lost → held), resume (held or lost → held, on a new
// connection), expire (held → lost → free), release (held or lost →
// free), clearSeats (any → free). seat.to panics on any other, and the
// panic is caught at the room's boundary (Server.inRoom): a fault ends
// that room with a "server error" Leave to its peers and a log line with
// the stack, and the server goes on. When the last network player's seat
// is freed, the match closes and a new lobby opens.
//
// The match: lobby (seats free) → countdown (the last seat taken: the
// world is built at a start tick one round trip plus a margin ahead, and
// Start announces it with the server's clock) → running (one step per
// server tick; the rounds, their 3-2-1 countdowns and the win condition
// are the simulation's) → results (a player reached the rounds to win:
// the world is frozen and shows who votes for a rematch) → a new match in
// the same room with those who voted, once every human voted or
// RematchWait after the first vote; the others, and everyone after
// ResultsFor without a vote, get a "match over" Leave and go back to the
// lobby (server_rematch.go). A room with no network player left returns
// to its lobby.
//
// While the server drains (server_drain.go) the arrows into a match end:
// a waiting room sends its peers away at once (a shutdown Leave), a
// running match goes on to its results, shows them for 5 s with no
// rematch, and then its peers get the same Leave; the room is then ended
// (closing in the room list) and steps no more.
//
// # The client's session
//
//	connecting ──Start (need > 0)──► waiting ──Start (need 0)──► playing
//	     │                              │  ▲                       │
//	     │ refused, no answer           │  └─ silence ≥ SilenceReconnecting: reconnecting ─┘
//	     ▼                              ▼        (a new handshake; its token takes the seat back)
//	   closed ◄── Leave, Close, silence ≥ SilenceGone, a refused key ──
//
// A wake from a freeze of the client's own (client_wake.go: WakeGap or
// more between two calls) is no silence of the server's: silence counts
// from the wake. After a freeze shorter than FreeAfter a playing client
// jumps its clock to the server's and keeps its seat; after a longer one
// it goes to reconnecting (its token takes the seat back if the server
// still holds it, else it is placed anew and View.Notice says so).
package netcode
