// Package netcode is ttytanks' server-authoritative rollback netcode: the
// server core, the predicting client core, and the drivers and transports
// that run them.
//
// # The contract
//
// Both cores are sans-IO state machines, like etcd raft's RawNode: they
// read no clock and touch no socket. A driver feeds them time and
// datagrams and sends what they hand back:
//
//	out := srv.Receive(now, from, datagram) // validate, admit, buffer
//	out  = srv.Advance(now)                 // the 60 Hz ticks due by now
//	next := srv.Deadline()                  // when to call Advance again
//
//	out  = cli.Advance(now, heldInput)      // predict the ticks the clock says
//	out  = cli.Receive(now, from, datagram) // validate, restore, replay
//	next  = cli.Deadline()
//	cli.View(&view)                         // what the renderer draws
//
// Returned datagrams are valid until the next call. Time comes in as now;
// the cost of a replay is measured through ClientConfig.Clock; random
// bytes (seeds, secrets, tokens, session ids) come from an injected
// io.Reader. So a test drives either core on a virtual clock with no
// sockets (harness_test.go), and ServerDriver and ClientDriver
// (driver.go) are loops that own no game logic. Why a session ended is a
// typed error (errors.go): test it with errors.Is and errors.As.
//
// # The parts
//
// Server (server.go) is a host of rooms, and a composition:
//
//   - admission (admission.go): stateless cookies, the per-source rate
//     limit (ratelimit.go), reconnect tokens, the memory of recent
//     departures that lets a repeated Leave be acknowledged again;
//   - the room table (rooms.go): the open rooms by name, join code and
//     match id; placement of a Join (quick, named, code, create); the room
//     list; the per-address limit on join-code guesses;
//   - in each room (room.go): the seat table (seats.go): seats and
//     spectators, and the seat state machine below, every transition
//     checked; one input buffer per seat (inputbuf.go): inputs by tick,
//     hold and neutral, arrival margins, distinct receive counts
//     (seqwindow.go); the match (match.go): lobby, countdown and running
//     phases, the world, one Save per tick for every State; and the
//     spectators' delayed feed (feed.go).
//
// # Rooms, and one loop for all of them
//
// A room is one match's place: a name, seats, bots, a maze size, a win
// condition, public or private (with a join code). ServerConfig.Rooms of
// them open at start and stay; more open on demand (a quick match with no
// free seat, a named room that does not exist, a create) up to MaxRooms,
// and close after RoomIdle without a network peer. Every datagram after
// the handshake carries its match id, and the room table maps match ids
// to rooms: the receive path routes a datagram with one map lookup, and
// nothing on it takes a lock, because one goroutine owns the Server. The
// ServerDriver's loop takes datagrams from the receiving goroutine over a
// channel and runs Advance at each deadline; Do runs inspections between
// the two.
//
// All rooms are stepped by that one loop, one after the other, each
// inside its own recover (Server.inRoom): a panic ends that room alone —
// its peers get a "server error" Leave and go back to the lobby — and the
// next room steps on time. One loop was chosen over a goroutine per room
// or a worker pool by measurement: BenchmarkServerCapacity steps 64 rooms
// of 8 players (512 clients) in 170 µs a tick on one core, 1% of the
// 16.7 ms budget, with 0 allocations, so a core carries several thousand
// clients before the tick needs a second one — and long before that the
// socket system calls (7–11 µs per datagram, BenchmarkUDPLoopback) cost
// more than all the rooms' steps. Parallel rooms would add locks on the
// shared admission and outbox for no gain at that size.
//
// Client (client.go) is a composition:
//
//   - the session (session.go): handshake, seat and roster, silence and
//     reconnect, the repeated Leave, the end reason;
//   - the timeline (timeline.go): the predicted world, input and snapshot
//     rings (ring.go), restore and replay;
//   - clock sync (clocksync.go, clock.go): the tick clock, its rate, the
//     jumps, and the redundancy and margin that loss calls for;
//   - link statistics (linkstats.go): RTT, loss both ways, bandwidth.
//
// LobbyClient (lobby.go) is the lobby's own small core: it gets a cookie,
// asks for the room list page by page every second, and keeps the newest
// list with its ping; Lobby (driver.go) drives it for the lobby screen.
// A Client then joins the room the player picked (ClientConfig.Room).
//
// A part's fields are its own: other parts and the drivers call its
// methods. Transports (transport.go, mux.go) move datagrams; netsim.go
// impairs them, seeded.
//
// # The data path of one input
//
// The TUI maps keys to a held game.Input → ClientDriver.SetInput →
// Client.Advance: the timeline stores it for tick T, predicts the remote
// players, steps and saves the snapshot; the session's header and the
// newest k inputs go into an Input datagram (linkstats remembers it by
// ClientTime) → transport → Server.Receive: header parsed once, identity
// (seat, address, session, match), sequence number not seen, tick window
// → the seat's input buffer → Server.Advance at tick T: the match takes
// each seat's input (its own, the last held for HoldTicks, or neutral),
// steps, hashes, and sends each peer an Ack or a State with the seat's
// arrival margin and receive count → Client.Receive: identity, freshness,
// hash, then the timeline restores and replays from T+1 to the present;
// clock sync takes the margin, link statistics the RTT and loss.
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
// (free → bot), hear (lost → held), resume (held or lost → held, from a
// new address), expire (held → lost → free), release (held or lost →
// free), clearSeats (any → free). seat.to panics on any other, and the
// panic is caught at the match's boundary (Server.guard): a fault ends
// that match with a "server error" Leave to its peers and a log line with
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
// lobby. A room with no network player left returns to its lobby.
package netcode
