package netcode

import (
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"time"
	"ttytanks/internal/ladder"

	"ttytanks/game"
	"ttytanks/proto"
)

// roomConfig is what makes one room's matches: its seats, bots, maze, the
// State interval and the win condition.
type roomConfig struct {
	Players, Bots, MazeW, MazeH, StateEvery, Rounds int
	// Ranked rooms' finished matches are recorded and rated (a server
	// with a ladder, no bots, not asked casual: PROTOCOL.md §4.15).
	Ranked bool
}

// roomRules are the server's settings every room plays by
// (ServerConfig's of the same names).
type roomRules struct {
	newBot                  func(slot int, seed uint64) InputSource
	maxSpectators           int
	idle                    time.Duration
	spectatorDelay          time.Duration
	startWait               time.Duration
	rematchWait, resultsFor time.Duration
	// chat says whether the room relays its peers' lines.
	chat bool
}

// host is what a room needs of the server that holds it: the outbox
// (every packet sealed for its peer's connection), the server's clock,
// the counters, admission (reconnect tokens, the memory of departures,
// the address a peer counts against), the routing of match ids, and the
// log. The Server is every room's host (host.go).
type host interface {
	// recordMatch queues a ranked room's finished match for the ladder;
	// trusted reports whether addr is in a trusted range.
	recordMatch(matchID uint32, m ladder.Match)
	trusted(addr netip.Addr) bool
	// send seals p for connection conn and queues it.
	send(conn uint32, p proto.Packet)
	// clock is the server's tick clock; tally its counters.
	clock() *serverClock
	tally() *tally
	// token mints a reconnect token.
	token() proto.Token
	// departed remembers that the peer of l left match as player at now,
	// so a repeated Leave is acknowledged again.
	departed(l *link, match uint32, player uint8, now time.Time)
	// remember keeps the figures of a player whose seat is freed.
	remember(ps PlayerStats)
	// freeMatch reports whether no room uses match id id; rerouted
	// routes r's datagrams by its new match id id (and, for a while,
	// by old).
	freeMatch(id uint32) bool
	rerouted(r *room, old, id uint32)
	// sshFrom is the address of an SSH player's client at addr ("" for
	// others).
	sshFrom(addr netip.AddrPort) string
	// drop counts a dropped datagram.
	drop(why DropReason)
	// chatMuted reports whether the operator muted the prefix of l's
	// peer; chatAllowed takes a line from that prefix's budget at now.
	chatMuted(l *link) bool
	chatAllowed(l *link, now time.Time) bool
	logger() *slog.Logger
	// draining reports whether the server drains (server_drain.go):
	// no new match starts, no rematch.
	draining() bool
}

// room is one match's place on the server: a name (and a join code if it
// is private), the seat table, the match and its clock-independent
// timers. Its methods run it; every call into a room goes through
// Server.inRoom, so a panic ends that room alone.
type room struct {
	h     host
	rules roomRules
	// roomSpec is what the room was opened as (its Recorder handed to
	// its match); it never changes.
	roomSpec
	rng   game.RNG
	seats seatTable
	match match
	chats roomChat
	log   roomLog
	// idleSince is when the room last had no network player (zero while it
	// has one).
	idleSince time.Time
	// fillSince is when the waiting room last reached two players (zero:
	// fewer), for ServerConfig.StartWait.
	fillSince time.Time
	// overAt is when the match ended (zero while it plays), firstVote
	// when the first human voted for a rematch.
	overAt, firstVote time.Time
	// stepDur holds the durations of the room's steps, in nanoseconds of
	// the driver's clock (measured by the Server around each step).
	stepDur *window
	// stepQ caches the step quantiles Stats reports, for a second.
	stepQ struct {
		at       time.Time
		p50, p99 time.Duration
	}
	// delay holds the States spectators see, SpectatorDelay behind.
	delay spectatorFeed
	// closed is set when the room has left the table.
	closed bool
	// ended is set when the room has ended for the server's drain: its
	// peers were told, it steps no more.
	ended bool
	// rated is the finished match's rating changes, once the ladder
	// rated it (nil before), told to its peers every ratedEvery while
	// the results show; ratedAt is when they were last told.
	rated   *proto.Rated
	ratedAt time.Time
	// forfeits are the rated players who left the running match: its
	// record ranks them last (a quit is no escape from a loss).
	forfeits []forfeited
	// recorded is the id of the last match given to the ladder, so that
	// none is recorded twice.
	recorded uint32
}

// roomSpec is what a room is opened as: its name, its join code (a
// private room's; "" for a public one), its matches' settings, whether
// it is permanent, and the Recorder of its matches (nil: none).
type roomSpec struct {
	name, code string
	cfg        roomConfig
	// permanent rooms are the ones ServerConfig.Rooms opened: they never
	// close for idleness and reopen after a fault.
	permanent bool
	rec       Recorder
	// owner is the prefix (a limitKey) a room opened on demand was opened
	// for: its bots are paid for from that prefix's budget. Zero for the
	// rooms the server opens on its own.
	owner netip.Addr
	// lobby marks the lobby's chat room (server_lobbychat.go): its peers
	// are the lobby's viewers, as spectators; it gives no seat, never
	// plays, and is in no room list.
	lobby bool
}

// newRoom returns a room of host h with its match's world seed drawn
// from seed, not yet open.
func newRoom(h host, rules roomRules, spec roomSpec, seed uint64, now time.Time) *room {
	rec := spec.rec
	spec.rec = nil // the match's
	r := &room{h: h, rules: rules, roomSpec: spec, rng: game.RNG{State: seed}, seats: newSeatTable(spec.cfg.Players, rules.maxSpectators),
		log: roomLog{h: h, room: logName(spec)}, stepDur: newWindow(600), idleSince: now}
	r.match.recordTo(rec)
	return r
}

// openLobby opens a new match in r: a new id, bots in their seats, and,
// when the bots fill every seat, a start at once (for spectators).
func (r *room) openLobby() {
	if r.h.draining() {
		r.drainEnd(time.Time{}) // no new match: the room's last one is over
		return
	}
	id := uint32(r.rng.Next()) | 1
	for !r.h.freeMatch(id) {
		id = uint32(r.rng.Next()) | 1
	}
	old := r.match.matchID()
	r.match.reset(id)
	r.h.rerouted(r, old, id)
	r.overAt, r.firstVote, r.fillSince = time.Time{}, time.Time{}, time.Time{}
	r.forfeits = r.forfeits[:0] // of a match that did not end: not rated
	for i := r.cfg.Players - r.cfg.Bots; i < r.cfg.Players; i++ {
		if r.seats.at(i).state == seatFree {
			r.seats.placeBot(i, fmt.Sprintf("bot%d", i+1), r.rules.newBot(i, r.rng.Next()))
		}
	}
	if r.seats.free() == 0 {
		r.schedule() // delayed spectators see the end of the last match first
	} else {
		r.delay.clear() // the room waits: spectators see that at once
	}
}

// schedule starts the countdown of a match whose seats are all taken: the
// world is built at a start tick far enough ahead for every player's first
// inputs to arrive in time, and everyone gets the Start.
func (r *room) schedule() {
	lead := startLeadMin
	for i := 0; i < r.cfg.Players; i++ {
		if st := r.seats.at(i); st.human() {
			lead = max(lead, int((st.rtt+TickDuration-1)/TickDuration)+startLeadMargin)
		}
	}
	lead = min(lead, startLeadMax)
	names := make([]string, r.cfg.Players)
	for i := range names {
		names[i] = r.seats.at(i).name
	}
	r.forfeits = r.forfeits[:0] // a match that never ended rates none of its quitters
	r.match.begin(&r.cfg, r.rng.Next()|1, r.h.clock().now().Add(int32(lead)), names)
	r.h.tally().matchStarted()
	r.h.logger().Info("match started", "room", r.name, "match", r.match.matchID(), "players", r.seats.humans(),
		"bots", r.cfg.Players-r.seats.free()-r.seats.humans(), "seats", r.cfg.Players)
	for i := 0; i < r.cfg.Players; i++ {
		r.seats.at(i).in.restart()
		if r.seats.at(i).state == seatFree {
			r.match.seat(i, "", false) // started early (StartWait): the seat waits for a player
		}
	}
	r.seats.each(func(l *link, slot int) {
		l.restart()
		r.sendStart(l, slot)
	})
}

// giveBack answers a Request for a place r holds, st's or sp's: on a
// new connection (l, the holder of the place's token) the place moves to
// it; on the same one (l nil: a repeated Request, our Start was lost) it
// starts over. Either way the peer gets its Start again.
func (r *room) giveBack(st *seat, sp *spectator, l *link, now time.Time) {
	switch {
	case st != nil && l != nil:
		r.seats.resume(st, *l, r.h.token(), now)
		r.h.tally().reconnect()
	case st != nil:
		if st.state == seatLost {
			r.h.tally().reconnect() // back from the same address
		}
		r.seats.hear(st, now)
		st.restart() // it starts over: full traffic until its next Input
	case l != nil:
		r.seats.resumeSpectator(sp, *l, r.h.token(), now)
	default:
		r.seats.hearSpectator(sp, now)
	}
	if st != nil {
		r.sendStart(&st.link, st.slot)
	} else {
		r.sendStart(&sp.link, -1)
	}
}

// seat gives l a seat (or a spectator's place) in r, or says why not.
func (r *room) seat(l link, spectate bool, now time.Time) {
	if !spectate {
		r.idleSince = time.Time{} // a spectator alone does not keep the room open
	}
	if spectate {
		r.makeLobbyRoom()
		sp := r.seats.addSpectator(l, r.h.token())
		if sp == nil {
			r.h.send(l.conn, &proto.Reject{Reason: proto.RejectFull})
			return
		}
		sp.chat.active = now
		r.log.joined(&sp.link, -1, r.match.matchID())
		r.sendStart(&sp.link, -1)
		return
	}
	st := r.seats.take(l, r.h.token())
	if st == nil {
		r.h.send(l.conn, &proto.Reject{Reason: proto.RejectRoomFull})
		return
	}
	r.log.joined(&st.link, st.slot, r.match.matchID())
	if r.settled() {
		r.openLobby() // its match is rated already: a new one, for everyone seated
		if !r.match.live() {
			r.sendStart(&st.link, st.slot) // the others learn of the roster from step
		}
		return
	}
	if r.match.live() {
		r.match.seat(st.slot, st.name, true) // plays from the next round
	} else if r.seats.free() == 0 {
		r.schedule() // sends every peer the Start
		return
	}
	r.sendStart(&st.link, st.slot)
}

// supersede frees the places of r held at exactly from by another
// connection than conn.
func (r *room) supersede(from netip.AddrPort, conn uint32, now time.Time) {
	for i := 0; i < r.cfg.Players; i++ {
		if st := r.seats.at(i); st.human() && st.addr == from && st.conn != conn {
			r.h.departed(&st.link, r.match.matchID(), uint8(i), now)
			r.release(st, now, "superseded by a new connection")
		}
	}
	r.seats.dropSpectatorsAt(from)
}

// sendStart sends a peer the Start of r's match; slot is its seat or -1
// for a spectator, who gets the match it watches, SpectatorDelay behind.
func (r *room) sendStart(l *link, slot int) {
	m := &r.match
	clock := r.h.clock().now()
	st := proto.Start{Header: proto.Header{Match: m.matchID()},
		Slots: uint8(r.cfg.Players), Need: uint8(r.seats.free()), MazeW: uint8(r.cfg.MazeW),
		MazeH: uint8(r.cfg.MazeH), StateEvery: uint8(r.cfg.StateEvery), Rounds: uint8(r.cfg.Rounds),
		StartTick: clock, ServerTick: clock, Room: r.name, Code: r.code}
	st.Slot = proto.SpectatorSlot
	if slot >= 0 {
		st.Slot = uint8(slot)
	}
	st.Token = l.token
	st.Player = st.Slot
	if m.live() {
		st.StartTick, st.WorldSeed = m.origin()
		st.Need = 0
	}
	if slot < 0 && r.rules.spectatorDelay > 0 {
		r.delay.startFor(&st, clock)
	}
	for i := 0; i < r.cfg.Players; i++ {
		q := r.seats.at(i)
		if q.state == seatFree {
			continue
		}
		st.Roster[i] = proto.Seat{Name: q.name, Connected: q.state != seatLost}
		st.Roster[i].Score = m.score(i)
	}
	r.h.send(l.conn, &st)
}

// input takes an Input routed to r, opened on connection conn at the
// address from.
func (r *room) input(now time.Time, from netip.AddrPort, conn uint32, in *proto.Input) {
	if in.Player == proto.SpectatorSlot {
		// A spectator's keep-alive: it carries no input that matters.
		_, sp := r.seats.byConn(from, conn)
		if sp == nil {
			r.h.drop(DropUnknownPlayer)
			return
		}
		if !sp.keptAlive(now, in.Seq, in.ClientTime) {
			r.h.drop(DropDuplicate)
		}
		return
	}
	if int(in.Player) >= r.cfg.Players || !r.seats.at(int(in.Player)).human() {
		r.h.drop(DropUnknownPlayer)
		return
	}
	st := r.seats.at(int(in.Player))
	switch {
	case in.Match != r.match.matchID():
		// The match before a rematch still routes here (for delayed
		// spectators and late Leaves), but its inputs are of no use to
		// this one: its ticks, its seat, its base are another match's.
		r.h.drop(DropWrongMatch)
		return
	case st.addr != from:
		r.h.drop(DropWrongAddr)
		return
	case st.conn != conn:
		r.h.drop(DropWrongSession)
		return
	case st.in.seen(in.Seq):
		r.h.drop(DropDuplicate) // a copy or a replay: not even a sign of life
		return
	}
	if !r.match.live() {
		if st.in.keepAlive(in.Seq) { // a keep-alive from the lobby
			r.seats.heardInput(st, now)
		}
		return
	}
	clk := r.h.clock()
	if reason, dropped := st.in.accept(in, now, clk.deadline(), clk.now()); dropped {
		r.h.drop(reason) // too late or too far ahead: no sign of life either
		return
	}
	r.seats.heardInput(st, now)
	st.begin()
	for _, x := range in.Inputs[:in.N] {
		if x.MoveX != 0 || x.MoveY != 0 || x.Buttons != 0 {
			r.seats.intent(st, now)
			break
		}
	}
}

// leave takes a quitting peer's Leave routed to r, opened on connection
// conn at from; it reports false when r holds no such peer (the Server
// then looks among recent departures).
func (r *room) leave(now time.Time, from netip.AddrPort, conn uint32, l *proto.Leave) bool {
	st, sp := r.seats.byConn(from, conn)
	if st == nil && sp == nil {
		return false
	}
	player := uint8(proto.SpectatorSlot)
	if st != nil {
		player = uint8(st.slot)
	}
	// The acknowledgement names the match the Leave named, one of this
	// room's (it was routed here) and one the peer holds: a delayed
	// spectator may still show the match before a rematch. The memory
	// of departures keeps the same pair, so repeats are answered alike.
	ack := proto.Leave{Header: proto.Header{Match: l.Match, Player: player}, Reason: proto.LeaveQuit}
	switch {
	case l.Player != player:
		r.h.drop(DropWrongMatch) // not this session's seat
	case st != nil:
		r.h.departed(&st.link, ack.Match, player, now)
		r.h.send(conn, &ack)
		r.release(st, now, "quit")
	default:
		r.h.departed(&sp.link, ack.Match, player, now)
		r.h.send(conn, &ack)
		r.log.spectatorLeft(&sp.link)
		r.seats.dropSpectator(sp)
	}
	return true
}

// release frees a human's seat, logging why: the tank leaves the world
// at the next round, and when no network player is left the match ends
// and a new lobby opens.
func (r *room) release(st *seat, now time.Time, why string) {
	r.forfeit(st)
	r.log.left(&st.link, why)
	r.match.seat(st.slot, st.name, false)
	r.h.remember(r.playerStats(st))
	r.seats.release(st)
	r.settleForfeits()
	if r.seats.humans() == 0 {
		r.seats.clearSeats()
		r.openLobby()
	}
}

// step is one tick's work in r at now.
func (r *room) step(now time.Time) {
	if r.ended {
		return // drained: nobody is left to play
	}
	clk := r.h.clock()
	r.expire(now)
	if clk.every(60) {
		r.rotateTokens(now)
	}
	m := &r.match
	if r.seats.rosterChanged() {
		r.seats.each(func(l *link, slot int) { r.sendStart(l, slot) })
	} else {
		every := uint64(startResendTicks)
		if m.counting() {
			every = countdownResendTicks
		}
		if clk.every(every) {
			r.seats.each(func(l *link, slot int) {
				if !m.live() || !l.started {
					r.sendStart(l, slot)
				}
			})
		}
	}
	if !m.live() {
		r.startEarly(now)
	}
	delay := r.rules.spectatorDelay
	if delay > 0 && r.seats.spectatorCount() > 0 {
		r.delay.want(int(delay/TickDuration), r.cfg.StateEvery)
	}
	if m.step(now, clk.now(), r.cfg.StateEvery, &r.seats, r.h, r.delay.active()) && r.delay.active() {
		r.delay.push(m, m.saved())
		r.feedSpectators(now)
	}
	r.results(now)
	r.tellRated(now, false)
	r.copyChat(now)
	if r.opened().lobby {
		r.freeIdleViewers(now)
	}
	// Spectators alone do not keep a room open: a room opened on demand
	// that no player is in closes after RoomIdle, watched or not.
	if r.seats.humans() == 0 {
		if r.idleSince.IsZero() {
			r.idleSince = now
		}
	} else {
		r.idleSince = time.Time{}
	}
}

// startEarly starts a waiting room's match with free seats, StartWait
// after two seats (one a network player's) are taken.
func (r *room) startEarly(now time.Time) {
	if r.rules.startWait <= 0 {
		return
	}
	if r.cfg.Players-r.seats.free() < 2 || r.seats.humans() == 0 {
		r.fillSince = time.Time{}
		return
	}
	if r.fillSince.IsZero() {
		r.fillSince = now
	}
	if now.Sub(r.fillSince) >= r.rules.startWait {
		r.schedule()
	}
}

// expire applies silence and idleness: lost players' tanks idle, the
// places of peers silent for FreeAfter are freed, and the seats of
// players who showed no intent for Idle, with a Leave that says so.
func (r *room) expire(now time.Time) {
	humans := r.seats.humans()
	timeouts, idled := r.seats.expire(now, r.rules.idle, func(st *seat, why proto.LeaveReason) {
		if why == proto.LeaveIdle {
			r.sayLeave(&st.link, st.slot, proto.LeaveIdle)
			r.h.departed(&st.link, r.match.matchID(), uint8(st.slot), now)
			r.log.left(&st.link, "idle")
		} else {
			r.log.left(&st.link, "timed out")
		}
		r.forfeit(st)
		r.match.seat(st.slot, st.name, false)
		r.h.remember(r.playerStats(st))
	})
	r.settleForfeits()
	r.h.tally().timeout(timeouts)
	r.h.tally().idle(idled)
	if humans > 0 && r.seats.humans() == 0 {
		r.seats.clearSeats()
		r.openLobby()
	}
}

// idleFor reports whether r, opened on demand, has had no network peer
// for d at now.
func (r *room) idleFor(now time.Time, d time.Duration) bool {
	return !r.permanent && !r.idleSince.IsZero() && now.Sub(r.idleSince) >= d
}

// abort tells r's peers, after a panic in r, that the room stopped: each
// gets a Leave saying "server error", and the figures of its players are
// kept. It is best effort: the seat table may be what failed.
func (r *room) abort() {
	func() {
		defer func() { _ = recover() }()
		for i := 0; i < r.cfg.Players; i++ {
			if st := r.seats.at(i); st.human() {
				r.h.remember(r.playerStats(st))
			}
		}
	}()
	func() {
		defer func() { _ = recover() }()
		r.seats.each(func(l *link, slot int) { r.sayLeave(l, slot, proto.LeaveServerError) })
	}()
}

// sendOffWatchers tells r's spectators the room is closing: its match
// is over for them.
func (r *room) sendOffWatchers() {
	r.seats.eachSpectator(func(sp *spectator) { r.sayLeave(&sp.link, -1, proto.LeaveMatchOver) })
}

// isClosed reports whether r has left the table.
func (r *room) isClosed() bool { return r.closed }

// close ends r's match once the room has left the table, and closes its
// Recorder if it is an io.Closer.
func (r *room) close() error {
	r.closed = true
	r.match.reset(0)
	if c, ok := r.match.recorder().(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// sayLeave sends a peer of r a Leave with reason why.
func (r *room) sayLeave(l *link, slot int, why proto.LeaveReason) {
	var p uint8 = proto.SpectatorSlot
	if slot >= 0 {
		p = uint8(slot)
	}
	r.h.send(l.conn, &proto.Leave{Header: proto.Header{Match: r.match.matchID(), Player: p}, Reason: why})
}

// shutdown tells every network peer of r the server is stopping.
func (r *room) shutdown() {
	r.seats.each(func(l *link, slot int) { r.sayLeave(l, slot, proto.LeaveShutdown) })
}

// rotateTokens gives every player whose reconnect token is older than
// tokenLife a new one, in a Start.
func (r *room) rotateTokens(now time.Time) {
	for _, st := range r.seats.rotateDue(now) {
		r.seats.rotate(st, r.h.token(), now)
		r.sendStart(&st.link, st.slot)
	}
}

// kick ends the session of the player in slot of r; it returns the
// prefix the player's place counted against, ok false when no network
// player held the seat.
func (r *room) kick(slot int) (origin netip.Addr, ok bool) {
	if slot < 0 || slot >= r.cfg.Players || !r.seats.at(slot).human() {
		return netip.Addr{}, false
	}
	st := r.seats.at(slot)
	origin = st.origin
	r.sayLeave(&st.link, slot, proto.LeaveKicked)
	r.release(st, time.Time{}, "kicked")
	return origin, true
}

// ban kicks the players and spectators of r whose address or origin is in
// the prefix key (a limitKey).
func (r *room) ban(key netip.Addr) {
	for i := 0; i < r.cfg.Players; i++ {
		if st := r.seats.at(i); st.human() && st.link.inPrefix(key) {
			r.sayLeave(&st.link, i, proto.LeaveKicked)
			r.release(st, time.Time{}, "banned")
		}
	}
	r.seats.dropSpectatorsFrom(key, func(sp *spectator) {
		r.sayLeave(&sp.link, -1, proto.LeaveKicked)
	})
}
