package netcode

import (
	"fmt"
	"net/netip"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// roomConfig is what makes one room's matches: its seats, bots, maze, the
// State interval and the win condition.
type roomConfig struct {
	Players, Bots, MazeW, MazeH, StateEvery, Rounds int
}

// room is one match's place on the server: a name (and a join code if it
// is private), the seat table, the match and its clock-independent
// timers. The Server's methods in this file run a room; every call into
// a room goes through Server.inRoom, so a panic ends that room alone.
type room struct {
	name, code string
	private    bool
	// permanent rooms are the ones ServerConfig.Rooms opened: they never
	// close for idleness and reopen after a fault.
	permanent bool
	cfg       roomConfig
	rng       game.RNG
	seats     seatTable
	match     match
	// idleSince is when the room last had no network peer (zero while it
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
}

// openRoom opens a room and its lobby; the caller has checked the name is
// free and there is space.
func (s *Server) openRoom(name string, cfg roomConfig, private bool, now time.Time) *room {
	r := &room{name: name, private: private, cfg: cfg, rng: game.RNG{State: s.rng.Next() | 1},
		seats: newSeatTable(cfg.Players, s.cfg.MaxSpectators), stepDur: newWindow(600), idleSince: now}
	if private {
		r.code = s.rooms.newCode(s.adm.random)
	}
	if s.cfg.NewRecorder != nil {
		r.match.recordTo(s.cfg.NewRecorder(name))
	}
	s.rooms.add(r)
	s.openLobby(r)
	return r
}

// openLobby opens a new match in r: a new id, bots in their seats, and,
// when the bots fill every seat, a start at once (for spectators).
func (s *Server) openLobby(r *room) {
	s.rooms.rekey(r, s.newMatchID(r))
	r.overAt, r.firstVote, r.fillSince = time.Time{}, time.Time{}, time.Time{}
	for i := r.cfg.Players - r.cfg.Bots; i < r.cfg.Players; i++ {
		if r.seats.at(i).state == seatFree {
			r.seats.placeBot(i, fmt.Sprintf("bot%d", i+1), s.cfg.NewBot(i, r.rng.Next()))
		}
	}
	if r.seats.free() == 0 {
		s.schedule(r) // delayed spectators see the end of the last match first
	} else {
		r.delay.clear() // the room waits: spectators see that at once
	}
}

// newMatchID returns a match id no room uses: the key that routes a
// room's datagrams.
func (s *Server) newMatchID(r *room) uint32 {
	for {
		id := uint32(r.rng.Next()) | 1
		if s.rooms.byMatch(id) == nil {
			return id
		}
	}
}

// schedule starts the countdown of a match whose seats are all taken: the
// world is built at a start tick far enough ahead for every player's first
// inputs to arrive in time, and everyone gets the Start.
func (s *Server) schedule(r *room) {
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
	r.match.begin(&r.cfg, r.rng.Next()|1, s.clock.Add(int32(lead)), names)
	for i := 0; i < r.cfg.Players; i++ {
		r.seats.at(i).in.restart()
		if r.seats.at(i).state == seatFree {
			r.match.seat(i, "", false) // started early (StartWait): the seat waits for a player
		}
	}
	r.seats.each(func(l *link, slot int) {
		l.started = false
		s.sendStart(r, l, slot)
	})
}

// rejoin answers a repeated Join of a peer r holds: its Start again.
func (s *Server) rejoin(r *room, st *seat, sp *spectator, now time.Time) {
	if st != nil {
		if st.state == seatLost {
			s.stats.reconnects++ // back from the same address
		}
		r.seats.hear(st, now)
		st.started = false // it starts over: full traffic until its next Input
		s.sendStart(r, &st.link, st.slot)
		return
	}
	sp.heard = now
	s.sendStart(r, &sp.link, -1)
}

// resume gives a place back to the holder of its token, at from.
func (s *Server) resume(r *room, st *seat, sp *spectator, from netip.AddrPort, session uint64, rtt time.Duration, key [proto.KeyLen]byte, now time.Time) {
	if st != nil {
		r.seats.resume(st, from, session, rtt, key, s.adm.token(), now)
		st.origin = s.origin(from)
		s.stats.reconnects++
		s.sendStart(r, &st.link, st.slot)
		return
	}
	r.seats.resumeSpectator(sp, from, session, key, s.adm.token(), now)
	sp.origin = s.origin(from)
	s.sendStart(r, &sp.link, -1)
}

// seat gives l a seat (or a spectator's place) in r, or says why not.
func (s *Server) seat(r *room, l link, spectate bool, now time.Time) {
	r.idleSince = time.Time{}
	if spectate {
		if l.name == "" {
			l.name = "spectator"
		}
		l.token = s.adm.token()
		sp := r.seats.addSpectator(l)
		if sp == nil {
			s.reject(l.addr, l.session, proto.RejectFull)
			return
		}
		s.sendStart(r, &sp.link, -1)
		return
	}
	st := r.seats.take(l, s.adm.token())
	if st == nil {
		s.reject(l.addr, l.session, proto.RejectRoomFull)
		return
	}
	if st.name == "" {
		st.name = fmt.Sprintf("player%d", st.slot+1)
	}
	if r.match.live() {
		r.match.seat(st.slot, st.name, true) // plays from the next round
	} else if r.seats.free() == 0 {
		s.schedule(r) // sends every peer the Start
		return
	}
	s.sendStart(r, &st.link, st.slot)
}

// supersedeIn frees the places of r held at exactly from.
func (s *Server) supersedeIn(r *room, from netip.AddrPort, session uint64, now time.Time) {
	for i := 0; i < r.cfg.Players; i++ {
		if st := r.seats.at(i); st.human() && st.addr == from && st.session != session {
			s.adm.departed(from, st.session, r.match.matchID(), uint8(i), now)
			s.release(r, st, now)
		}
	}
	r.seats.dropSpectatorsAt(from)
}

// sendStart sends a peer the Start of r's match; slot is its seat or -1
// for a spectator, who gets the match it watches, SpectatorDelay behind.
func (s *Server) sendStart(r *room, l *link, slot int) {
	m := &r.match
	st := proto.Start{Header: proto.Header{Session: l.session, Match: m.matchID(), Seq: l.next()},
		Slots: uint8(r.cfg.Players), Need: uint8(r.seats.free()), MazeW: uint8(r.cfg.MazeW),
		MazeH: uint8(r.cfg.MazeH), StateEvery: uint8(r.cfg.StateEvery), Rounds: uint8(r.cfg.Rounds),
		StartTick: s.clock, ServerTick: s.clock, Room: r.name, Code: r.code}
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
	if slot < 0 && s.cfg.SpectatorDelay > 0 {
		r.delay.startFor(&st, s.clock)
	}
	for i := 0; i < r.cfg.Players; i++ {
		q := r.seats.at(i)
		if q.state == seatFree {
			continue
		}
		st.Roster[i] = proto.Seat{Name: q.name, Connected: q.state != seatLost}
		st.Roster[i].Score = m.score(i)
	}
	s.out.put(l.addr, &st)
}

// input takes an Input datagram routed to r.
func (s *Server) input(r *room, now time.Time, from netip.AddrPort, in *proto.Input) {
	if in.Player == proto.SpectatorSlot {
		// A spectator's keep-alive: it carries no input that matters.
		_, sp := r.seats.bySession(from, in.Session)
		if sp == nil {
			s.drop(DropUnknownPlayer)
			return
		}
		if !sp.keptAlive(now, in.Seq, in.ClientTime) {
			s.drop(DropDuplicate)
		}
		return
	}
	if int(in.Player) >= r.cfg.Players || !r.seats.at(int(in.Player)).human() {
		s.drop(DropUnknownPlayer)
		return
	}
	st := r.seats.at(int(in.Player))
	switch {
	case st.addr != from:
		s.drop(DropWrongAddr)
		return
	case st.session != in.Session:
		s.drop(DropWrongSession)
		return
	case st.in.seen(in.Seq):
		s.drop(DropDuplicate) // a copy or a replay: not even a sign of life
		return
	}
	if !r.match.live() {
		if st.in.keepAlive(in.Seq) { // a keep-alive from the lobby
			r.seats.hear(st, now)
		}
		return
	}
	if reason, dropped := st.in.accept(in, now, s.tickAt, s.clock); dropped {
		s.drop(reason) // too late or too far ahead: no sign of life either
		return
	}
	r.seats.hear(st, now)
	st.started = true
}

// leave takes a Leave routed to r; it reports false when r holds no such
// peer (the Server then looks among recent departures).
func (s *Server) leave(r *room, now time.Time, from netip.AddrPort, l *proto.Leave) bool {
	st, sp := r.seats.bySession(from, l.Session)
	if st == nil && sp == nil {
		return false
	}
	player := uint8(proto.SpectatorSlot)
	if st != nil {
		player = uint8(st.slot)
	}
	ack := proto.Leave{Header: proto.Header{Session: l.Session, Match: r.match.matchID(), Player: player}, Reason: proto.LeaveQuit}
	switch {
	case l.Player != player:
		s.drop(DropWrongMatch) // not this session's seat
	case st != nil:
		ack.Seq = st.next()
		s.adm.departed(from, l.Session, ack.Match, player, now)
		s.out.put(from, &ack)
		s.release(r, st, now)
	default:
		ack.Seq = sp.next()
		s.adm.departed(from, l.Session, ack.Match, player, now)
		s.out.put(from, &ack)
		r.seats.dropSpectator(sp)
	}
	return true
}

// release frees a human's seat: the tank leaves the world at the next
// round, and when no network player is left the match ends and a new
// lobby opens.
func (s *Server) release(r *room, st *seat, now time.Time) {
	r.match.seat(st.slot, st.name, false)
	s.remember(r, st)
	r.seats.release(st)
	if r.seats.humans() == 0 {
		r.seats.clearSeats()
		s.openLobby(r)
	}
}

// step is one tick's work in r.
func (s *Server) step(r *room, now time.Time) {
	s.expire(r, now)
	if s.ticks%60 == 0 {
		s.rotateTokens(r, now)
	}
	m := &r.match
	if r.seats.rosterChanged() {
		r.seats.each(func(l *link, slot int) { s.sendStart(r, l, slot) })
	} else {
		every := uint64(startResendTicks)
		if m.counting() {
			every = countdownResendTicks
		}
		if s.ticks%every == 0 {
			r.seats.each(func(l *link, slot int) {
				if !m.live() || !l.started {
					s.sendStart(r, l, slot)
				}
			})
		}
	}
	if !m.live() {
		s.startEarly(r, now)
	}
	delay := s.cfg.SpectatorDelay
	if delay > 0 && r.seats.spectatorCount() > 0 {
		r.delay.want(int(delay/TickDuration), r.cfg.StateEvery)
	}
	if m.step(now, s.clock, r.cfg.StateEvery, &r.seats, &s.stats, &s.out, r.delay.active()) && r.delay.active() {
		r.delay.push(m, m.saved())
		s.feedSpectators(r, now)
	}
	s.results(r, now)
	if r.seats.humans() == 0 && r.seats.spectatorCount() == 0 {
		if r.idleSince.IsZero() {
			r.idleSince = now
		}
	} else {
		r.idleSince = time.Time{}
	}
}

// startEarly starts a waiting room's match with free seats, StartWait
// after two seats (one a network player's) are taken.
func (s *Server) startEarly(r *room, now time.Time) {
	if s.cfg.StartWait <= 0 {
		return
	}
	if r.cfg.Players-r.seats.free() < 2 || r.seats.humans() == 0 {
		r.fillSince = time.Time{}
		return
	}
	if r.fillSince.IsZero() {
		r.fillSince = now
	}
	if now.Sub(r.fillSince) >= s.cfg.StartWait {
		s.schedule(r)
	}
}

// expire applies silence: lost players idle, and the places of peers
// silent for FreeAfter are freed.
func (s *Server) expire(r *room, now time.Time) {
	humans := r.seats.humans()
	freed := r.seats.expire(now, func(st *seat) {
		r.match.seat(st.slot, st.name, false)
		s.remember(r, st)
	})
	s.stats.timeouts += uint64(freed)
	if humans > 0 && r.seats.humans() == 0 {
		r.seats.clearSeats()
		s.openLobby(r)
	}
}

// fault ends r after a panic in it: the stack goes to the log, every peer
// gets a Leave saying "server error", and the room closes; a permanent
// room reopens empty under its name.
func (s *Server) fault(r *room, p any, stack []byte) {
	s.stats.faults++
	s.log.Error("room stopped after a server error", "room", r.name, "match", r.match.matchID(), "panic", fmt.Sprint(p), "stack", string(stack))
	// Whatever the failed step produced for this room is not to be
	// trusted; what it produced for other rooms is already out of the
	// way only if it came first, so the Leaves go out on top.
	func() {
		defer func() { _ = recover() }() // best effort: the seat table may be what failed
		for i := 0; i < r.cfg.Players; i++ {
			if st := r.seats.at(i); st.human() {
				s.remember(r, st)
			}
		}
	}()
	func() {
		defer func() { _ = recover() }()
		r.seats.each(func(l *link, slot int) { s.sayLeave(r, l, slot, proto.LeaveServerError) })
	}()
	s.rooms.remove(r) // first: it unroutes the match id reset clears
	func() {
		defer func() { _ = recover() }()
		r.match.reset(0)
	}()
	if r.permanent {
		// Should opening fail too, the server stays up with one room
		// fewer rather than fault again.
		func() {
			defer func() {
				if p := recover(); p != nil {
					s.log.Error("room failed to reopen after a server error", "room", r.name, "panic", fmt.Sprint(p))
				}
			}()
			s.openRoom(r.name, r.cfg, r.private, time.Time{}).permanent = true
		}()
	}
}

// sayLeave sends a peer of r a Leave with reason why.
func (s *Server) sayLeave(r *room, l *link, slot int, why proto.LeaveReason) {
	var p uint8 = proto.SpectatorSlot
	if slot >= 0 {
		p = uint8(slot)
	}
	s.out.put(l.addr, &proto.Leave{Header: proto.Header{Session: l.session, Match: r.match.matchID(), Player: p, Seq: l.next()},
		Reason: why})
}

// rotateTokens gives every player whose reconnect token is older than
// tokenLife a new one, in a Start.
func (s *Server) rotateTokens(r *room, now time.Time) {
	s.rotBuf = r.seats.rotateDue(now, s.rotBuf[:0])
	for _, st := range s.rotBuf {
		r.seats.rotate(st, s.adm.token(), now)
		s.sendStart(r, &st.link, st.slot)
	}
}

// kick ends the session of the player in slot of r.
func (s *Server) kick(r *room, slot int) {
	if slot < 0 || slot >= r.cfg.Players || !r.seats.at(slot).human() {
		return
	}
	st := r.seats.at(slot)
	s.sayLeave(r, &st.link, slot, proto.LeaveKicked)
	s.release(r, st, time.Time{})
}

// banIn kicks the players and spectators of r at addr.
func (s *Server) banIn(r *room, addr netip.Addr) {
	for i := 0; i < r.cfg.Players; i++ {
		if st := r.seats.at(i); st.human() && st.addr.Addr() == addr {
			s.sayLeave(r, &st.link, i, proto.LeaveKicked)
			s.release(r, st, time.Time{})
		}
	}
	r.seats.dropSpectatorsFrom(addr, func(sp *spectator) {
		s.sayLeave(r, &sp.link, -1, proto.LeaveKicked)
	})
}

// botResults is how long the results of a match among bots alone stay up
// (the bots vote at once), for the spectators.
const botResults = 5 * time.Second

// results runs the end of a match: the results show until every human
// voted for a rematch, or RematchWait after the first vote, or ResultsFor
// without one; then the rematch starts with those who voted, and the
// others go back to the lobby.
func (s *Server) results(r *room, now time.Time) {
	if !r.over() {
		return
	}
	if r.overAt.IsZero() {
		r.overAt = now
		s.log.Info("match over", "room", r.name, "match", r.match.matchID(), "winner", r.winnerName())
	}
	// Bots vote as soon as the match is over (game/bot), so "everyone
	// seated voted" is "every human voted", and a room of bots alone
	// rematches at once.
	w := r.match.current().State()
	seated, voted, humansVoted := 0, 0, 0
	for i := 0; i < r.cfg.Players; i++ {
		st := r.seats.at(i)
		if st.state == seatFree || !w.Tanks[i].Seated {
			continue
		}
		seated++
		if w.Tanks[i].Rematch {
			voted++
			if st.human() {
				humansVoted++
			}
		}
	}
	if humansVoted > 0 && r.firstVote.IsZero() {
		r.firstVote = now
	}
	switch {
	case seated > 0 && voted == seated && (r.seats.humans() > 0 || now.Sub(r.overAt) >= botResults):
	case humansVoted > 0 && now.Sub(r.firstVote) >= s.cfg.RematchWait:
	case now.Sub(r.overAt) >= s.cfg.ResultsFor:
	default:
		return // the results stay up
	}
	s.rematch(r, now)
}

// rematch ends a finished match: the humans who did not vote for a
// rematch get a "match over" Leave and their seats are freed; the bots
// and the voters stay, and a new match opens in the room (it starts when
// its seats are all taken again). With no voter the room returns to its
// lobby.
func (s *Server) rematch(r *room, now time.Time) {
	w := r.match.current().State()
	for i := 0; i < r.cfg.Players; i++ {
		st := r.seats.at(i)
		if !st.human() || w.Tanks[i].Rematch {
			continue
		}
		s.sayLeave(r, &st.link, i, proto.LeaveMatchOver)
		s.adm.departed(st.addr, st.session, r.match.matchID(), uint8(i), now)
		s.remember(r, st)
		r.seats.release(st)
	}
	if r.seats.humans() == 0 {
		r.seats.clearSeats()
	}
	s.log.Info("rematch", "room", r.name, "players", r.seats.humans())
	s.openLobby(r) // a new match id; full seats start it at once
	if r.match.live() {
		return // openLobby scheduled it: everyone has its Start
	}
	r.seats.each(func(l *link, slot int) {
		l.started = false
		s.sendStart(r, l, slot)
	})
}

// over reports whether r's match has ended and shows its results.
func (r *room) over() bool {
	w := r.match.current()
	return w != nil && w.State().Round.Phase == game.PhaseMatchOver
}

// winnerName names the winner of r's finished match ("" if none).
func (r *room) winnerName() string {
	if w := r.match.current(); w != nil {
		if win := int(w.State().Round.Winner); win >= 0 && win < r.cfg.Players {
			return r.seats.at(win).name
		}
	}
	return ""
}
