package netcode

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// The rooms walk's invariants, per room. Unlike the single-room walk,
// which uses the cores' exported API only, these look at the room table
// (the rooms, their seats, the routing maps): what they check is how the
// table keeps its rooms apart, which the exported API does not show.
// observe runs after every call into the server, check after every event
// and every 250 ms of virtual time, checkEnd when a client's session
// ends.

// tickSlack is how late, in server ticks, a timer of a room may act.
const tickSlack = 3 * TickDuration

// peerAt is where a peer was before a tick: its room.
type peerAt struct {
	addr netip.AddrPort
	conn uint32
	r    *room
}

// routeAt is a match id the room table routed before a tick.
type routeAt struct {
	id uint32
	r  *room
}

// runningAt is a room that was running before a tick, and where.
type runningAt struct {
	r    *room
	id   uint32
	tick game.Tick
}

// tickMemo is what beforeTick saw, for afterTick and the datagrams of the
// tick.
type tickMemo struct {
	peers   []peerAt
	routes  []routeAt
	running []runningAt
	// faulty: the peers of the room given a fault.
	faulty []netip.AddrPort
	// voters: the players who voted for a rematch in rooms showing
	// their results.
	voters []voterAt
}

// voterAt is a player whose vote for a rematch the server has.
type voterAt struct {
	r    *room
	id   uint32
	slot int
	addr netip.AddrPort
	conn uint32
}

// beforeTick notes, before a server tick, every peer's room, every
// routed match id, the running rooms, and the peers of a room given a
// fault.
func (w *walk) beforeTick(m *tickMemo) {
	t := &w.n.server.rooms
	m.peers, m.routes, m.running, m.faulty, m.voters = m.peers[:0], m.routes[:0], m.running[:0], m.faulty[:0], m.voters[:0]
	for _, r := range t.list {
		if r.match.over() {
			tanks := &r.match.current().State().Tanks
			for i := 0; i < r.cfg.Players; i++ {
				if st := r.seats.at(i); st.human() && tanks[i].Rematch && w.now.Sub(st.heard) < FreeAfter-time.Second {
					m.voters = append(m.voters, voterAt{r, r.match.matchID(), i, st.addr, st.conn})
				}
			}
		}
		r.seats.each(func(l *link, _ int) { m.peers = append(m.peers, peerAt{l.addr, l.conn, r}) })
		m.routes = append(m.routes, routeAt{r.match.matchID(), r})
		if id, ok := t.prev[r]; ok {
			m.routes = append(m.routes, routeAt{id, r})
		}
		if r.match.phase == phaseRunning {
			m.running = append(m.running, runningAt{r, r.match.matchID(), r.match.current().Tick()})
		}
		if r == w.rc.pending {
			r.seats.each(func(l *link, _ int) { m.faulty = append(m.faulty, l.addr) })
		}
	}
}

// afterTick checks a tick against what beforeTick saw: the room given a
// fault stopped (if it stepped), the others stepped on; and records each
// room's world for the quiet checks and the oracle.
func (w *walk) afterTick(m *tickMemo) {
	rc := w.rc
	if p := rc.pending; p != nil {
		rc.pending = nil
		switch {
		case p.closed:
			rc.faults++
			rc.stats.faulted++
			rc.faultedRoom = p
			for _, a := range m.faulty {
				for _, c := range w.owners(a.String()) {
					c.faulted = true
				}
			}
			w.logf("room %s stopped after its fault: %d peers told", p.name, len(m.faulty))
			for _, q := range m.running {
				if q.r == p {
					continue
				}
				switch {
				case q.r.closed:
					w.fail(fmt.Sprintf("room %s closed in the tick room %s failed", q.r.name, p.name))
				case q.r.match.matchID() == q.id && q.r.match.current().Tick() != q.tick+1:
					w.fail(fmt.Sprintf("room %s went from tick %d to %d in the tick room %s failed", q.r.name, q.tick, q.r.match.current().Tick(), p.name))
				}
			}
			if p.permanent {
				if nr := w.n.server.rooms.byName(p.name); nr == nil || !nr.permanent || nr.match.live() || nr.seats.humans() != 0 || nr.seats.spectatorCount() != 0 {
					w.fail(fmt.Sprintf("the permanent room %s did not reopen empty after its fault", p.name))
				}
			}
		case p.match.inputs == nil && p.match.phase == phaseRunning:
			w.fail(fmt.Sprintf("room %s stepped without inputs and did not stop", p.name))
		default:
			w.logf("room %s left its match before its next step: no fault", p.name)
		}
	}
	for _, v := range m.voters {
		if v.r.closed || v.r.match.matchID() == v.id {
			continue
		}
		if st := v.r.seats.at(v.slot); !st.human() || st.addr != v.addr || st.conn != v.conn {
			w.fail(fmt.Sprintf("room %s's rematch (match %08x) did not keep seat %d of %v, who voted for it", v.r.name, v.r.match.matchID(), v.slot, v.addr))
		}
	}
	for _, r := range w.n.server.rooms.list {
		if gw := r.match.current(); gw != nil {
			if n := gw.State().Round.Number; n > rc.rounds[r] {
				w.stats.rounds += int(n - rc.rounds[r])
			}
			rc.rounds[r] = gw.State().Round.Number
			rc.hash[matchTick{r.match.matchID(), gw.Tick()}] = gw.Hash()
			rc.maxTick = gw.Tick()
		}
	}
	if len(rc.hash) > 16384 {
		for k := range rc.hash {
			if rc.maxTick.Diff(k.tick) > 2048 {
				delete(rc.hash, k)
			}
		}
	}
}

// checkSent checks a datagram of a tick: a State or an Ack goes to a peer
// of the room its match id routes to (before or after the tick: a tick
// may release a peer, or start a rematch, after its State went out).
func (w *walk) checkSent(m *tickMemo, d transport.Datagram) {
	h, _, ok := w.tap.of(d.Data) // the session and match the server's core wrote
	if !ok || (h.Type != proto.TypeState && h.Type != proto.TypeAck) {
		return
	}
	t := &w.n.server.rooms
	var rooms [2]*room
	for _, p := range m.peers {
		if p.addr == d.Addr && uint64(p.conn) == h.Session {
			rooms[0] = p.r
		}
	}
	rooms[1], _, _ = t.byConn(d.Addr, uint32(h.Session))
	var routed [2]*room
	for _, rt := range m.routes {
		if rt.id == h.Match {
			routed[0] = rt.r
		}
	}
	routed[1] = t.byMatch(h.Match)
	for _, r := range rooms {
		if r != nil && (r == routed[0] || r == routed[1]) {
			return
		}
	}
	name := func(r *room) string {
		if r == nil {
			return "none"
		}
		return r.name
	}
	w.fail(fmt.Sprintf("a %v of match %08x (room %s) went to %v (session %x), a peer of room %s",
		h.Type, h.Match, name(routed[0]), d.Addr, h.Session, name(rooms[0])))
}

// observe checks the room table after a call into the server: MaxRooms,
// the routing maps (no closed room routed, sizes bounded by the open
// rooms), the per-address caps, rooms that close (idle for RoomIdle, or
// after a fault), results that end, and the count of faults.
func (w *walk) observe() {
	s, rc := w.n.server, w.rc
	t := &s.rooms
	if w.failure != "" {
		return
	}
	n := t.count()
	rc.stats.maxOpen = max(rc.stats.maxOpen, n)
	switch {
	case n > rc.cfg.maxRooms:
		w.fail(fmt.Sprintf("%d rooms open, MaxRooms is %d", n, rc.cfg.maxRooms))
		return
	case n == rc.cfg.maxRooms:
		rc.lastFullAt = w.now
	}
	private := 0
	for _, r := range t.list {
		if r.closed {
			w.fail(fmt.Sprintf("the closed room %s is still in the table", r.name))
			return
		}
		if r.private() {
			private++
		}
	}
	if len(t.names) != n || len(t.codes) != private || len(t.prev) > n || len(t.matches) > 2*n {
		w.fail(fmt.Sprintf("the room table's maps grow: %d rooms (%d private), %d names, %d codes, %d previous ids, %d routed ids",
			n, private, len(t.names), len(t.codes), len(t.prev), len(t.matches)))
		return
	}
	for id, r := range t.matches { // looked at, not acted on: order does not matter
		if r.closed || t.byName(r.name) != r {
			w.fail(fmt.Sprintf("match id %08x still routes to the closed room %s", id, r.name))
			return
		}
	}
	if f := s.tl.faults; f != rc.faults {
		w.fail(fmt.Sprintf("Stats().Faults is %d, %d faults were injected: a panic the walk did not cause", f, rc.faults))
		return
	}
	if d := s.drops[DropFault]; d != 0 {
		w.fail(fmt.Sprintf("%d datagrams dropped for a fault outside a room", d))
		return
	}
	// Rooms that closed since the last look.
	for _, r := range rc.open {
		if !r.closed {
			continue
		}
		since, empty := rc.emptySince[r]
		switch {
		case r == rc.faultedRoom:
		case r.permanent:
			w.fail(fmt.Sprintf("the permanent room %s closed", r.name))
		case !empty || w.now.Sub(since) < rc.cfg.idle-tickSlack:
			w.fail(fmt.Sprintf("room %s closed, empty since %v (RoomIdle %v, empty %v)", r.name, since.Sub(simEpoch), rc.cfg.idle, empty))
		default:
			rc.stats.idleClosed++
			w.logf("room %s closes, idle for %v", r.name, w.now.Sub(since))
			r.seats.eachSpectator(func(sp *spectator) {
				for _, c := range w.owners(sp.addr.String()) {
					c.watchClosed = true // told its match is over
				}
			})
		}
		delete(rc.emptySince, r)
		delete(rc.overSince, r)
		delete(rc.rounds, r)
	}
	if w.failure != "" {
		return
	}
	for _, r := range t.list {
		if !w.opened(r) {
			rc.stats.opened++
			w.logf("room %s opens (match %08x, %d seats, %d bots, private %v)", r.name, r.match.matchID(), r.cfg.Players, r.cfg.Bots, r.private())
		}
	}
	rc.open = append(rc.open[:0], t.list...)
	// Idle rooms (no player in them: spectators alone do not keep a room
	// open) close after RoomIdle; results end after ResultsFor.
	for _, r := range t.list {
		if !r.permanent && r.seats.humans() == 0 {
			since, ok := rc.emptySince[r]
			if !ok {
				rc.emptySince[r] = w.now
			} else if w.now.Sub(since) > rc.cfg.idle+tickSlack {
				w.fail(fmt.Sprintf("room %s has been empty for %v and is still open (RoomIdle %v)", r.name, w.now.Sub(since), rc.cfg.idle))
				return
			}
		} else {
			delete(rc.emptySince, r)
		}
		if r.match.over() {
			since, ok := rc.overSince[r]
			if !ok {
				rc.overSince[r] = w.now
				rc.stats.over++
				w.logf("room %s: match %08x is over, winner seat %d", r.name, r.match.matchID(), r.match.current().State().Round.Winner)
			} else if w.now.Sub(since) > rc.cfg.resultsFor+tickSlack {
				w.fail(fmt.Sprintf("room %s has shown its results for %v (ResultsFor %v)", r.name, w.now.Sub(since), rc.cfg.resultsFor))
				return
			}
			for i := 0; i < r.cfg.Players; i++ {
				if st := r.seats.at(i); st.human() {
					for _, c := range w.owners(st.addr.String()) {
						c.overSeen = true
					}
				}
			}
		} else if _, ok := rc.overSince[r]; ok {
			delete(rc.overSince, r)
			rc.stats.rematches++
			w.logf("room %s: results end, match %08x, %d players stay", r.name, r.match.matchID(), r.seats.humans())
		}
	}
	// The per-address caps hold across rooms.
	for h := 0; h < rc.cfg.households; h++ {
		ip := householdAddr(h, 0).Addr()
		seats, specs := t.countFrom(ip, w.n.server.adm.origin)
		if seats > rc.cfg.seatsPerAddr || specs > rc.cfg.specsPer {
			w.fail(fmt.Sprintf("%v holds %d seats and %d spectator places in all rooms, the caps are %d and %d", ip, seats, specs, rc.cfg.seatsPerAddr, rc.cfg.specsPer))
			return
		}
		if seats == rc.cfg.seatsPerAddr {
			rc.capAt[ip] = w.now
		}
		// The spectators' caps, keyed apart: across rooms, and in one room.
		specsCapped := specs == rc.cfg.specsPer
		t.each(func(r *room) {
			_, in := r.places().countFrom(ip, w.n.server.adm.origin)
			if in > w.n.server.spectatorsPerRoom() {
				w.fail(fmt.Sprintf("%v holds %d spectator places in room %s, the cap is %d", ip, in, r.name, w.n.server.spectatorsPerRoom()))
			}
			specsCapped = specsCapped || in == w.n.server.spectatorsPerRoom()
		})
		if specsCapped {
			rc.capAt[netip.AddrFrom4([4]byte{11, 0, 0, byte(1 + h)})] = w.now
		}
	}
}

// opened reports whether r was open at the last look.
func (w *walk) opened(r *room) bool {
	for _, q := range w.rc.open {
		if q == r {
			return true
		}
	}
	return false
}

// checkRooms is check for the rooms walk: every room's seats, bots and
// spectators, the places of the clients, each seated client in the room
// it believes it is in.
func (w *walk) checkRooms() string {
	s, rc := w.n.server, w.rc
	if v := rc.recs.check(); v != "" {
		return v
	}
	st := s.Stats()
	if len(st.Rooms) > rc.cfg.maxRooms {
		return fmt.Sprintf("%d rooms, MaxRooms is %d", len(st.Rooms), rc.cfg.maxRooms)
	}
	if st.Faults != rc.faults {
		return fmt.Sprintf("Stats().Faults is %d, %d faults were injected", st.Faults, rc.faults)
	}
	names, codes := map[string]bool{}, map[string]bool{}
	for i := 0; i < rc.cfg.rooms; i++ {
		names[roomName(i)] = false
	}
	addrs := map[string]string{}
	for _, rs := range st.Rooms {
		if seen, ok := names[rs.Name]; ok && seen {
			return fmt.Sprintf("two rooms are named %s", rs.Name)
		}
		names[rs.Name] = true
		if rs.Private != (rs.Code != "") || codes[rs.Code] {
			return fmt.Sprintf("room %s: private %v with code %q (codes seen %v)", rs.Name, rs.Private, rs.Code, codes)
		}
		if rs.Code != "" {
			codes[rs.Code] = true
		}
		if len(rs.Players) != rs.RoomInfo.Players || rs.RoomInfo.Players > rs.Seats {
			return fmt.Sprintf("room %s: %d players listed, %d counted, %d seats", rs.Name, len(rs.Players), rs.RoomInfo.Players, rs.Seats)
		}
		if rs.Spectators > w.cfg.maxSpec {
			return fmt.Sprintf("room %s: %d spectators, the limit is %d", rs.Name, rs.Spectators, w.cfg.maxSpec)
		}
		allowed := append([][2]int{{w.cfg.players, w.cfg.bots}}, rc.specs[rs.Name]...)
		allowed = append(allowed, rc.specs[""]...)
		ok := false
		for _, a := range allowed {
			ok = ok || a == [2]int{rs.Seats, rs.Bots}
		}
		if !ok {
			return fmt.Sprintf("room %s has %d seats and %d bots, asked for: %v", rs.Name, rs.Seats, rs.Bots, allowed)
		}
		seen, bots := map[int]bool{}, 0
		for _, p := range rs.Players {
			if p.Room != rs.Name || p.Slot < 0 || p.Slot >= rs.Seats || seen[p.Slot] {
				return fmt.Sprintf("room %s: seat %d (of room %q) is out of range or listed twice", rs.Name, p.Slot, p.Room)
			}
			seen[p.Slot] = true
			if p.Bot {
				bots++
				if p.Slot < rs.Seats-rs.Bots {
					return fmt.Sprintf("room %s: a bot in seat %d, bots sit in the last %d", rs.Name, p.Slot, rs.Bots)
				}
				continue
			}
			where := fmt.Sprintf("seat %d of room %s", p.Slot, rs.Name)
			if q, dup := addrs[p.Addr]; dup {
				return fmt.Sprintf("%s and %s are both held from %s", q, where, p.Addr)
			}
			addrs[p.Addr] = where
			cs := w.owners(p.Addr)
			if len(cs) == 0 {
				return fmt.Sprintf("%s is held from %s, an address no client used", where, p.Addr)
			}
			var c *walkClient
			for _, o := range cs {
				if o.spectate {
					return fmt.Sprintf("%s is held by spectator %v", where, o.describe())
				}
				if w.mayHold(o) {
					c = o
				}
			}
			if c == nil {
				o := cs[len(cs)-1]
				return fmt.Sprintf("%s is still held by %v, which ended %v ago (FreeAfter is %v)", where, o.describe(), w.now.Sub(w.endOf(o)), FreeAfter)
			}
		}
		if bots != rs.Bots {
			return fmt.Sprintf("room %s: %d bots listed, %d counted", rs.Name, bots, rs.Bots)
		}
	}
	for name, open := range names {
		if !open {
			return fmt.Sprintf("the permanent room %s is not open", name)
		}
	}
	// Spectators, as in the single-room walk, summed over the rooms.
	if msg := w.checkSpectators(st.Spectators); msg != "" {
		return msg
	}
	// Every client: a known status, a message when closed, never stuck,
	// and, settled, in the room it believes it is in.
	for _, c := range w.clients {
		cs, msg, open := w.checkClient(c)
		if msg != "" {
			return msg
		}
		if !open {
			continue
		}
		if name, _, _ := c.sc.c.Room(); name != "" {
			if c.rooms == nil {
				c.rooms = map[string]bool{}
			}
			c.rooms[name] = true
		}
		// A chat line reaches only the peers of the room it was said in
		// (checked once the client knows its room: a line may come just
		// before its Start).
		var v View
		c.sc.c.View(&v)
		for _, e := range v.Chat[:v.ChatN] {
			if e.From == -2 || len(c.rooms) == 0 {
				continue // the server's notice to this client, or no Start yet
			}
			if _, room, ok := strings.Cut(e.Text, " in "); !ok || !c.rooms[room] {
				return fmt.Sprintf("%v shows the line %q, said in a room it was never in (its rooms: %v)", c, e.Text, c.rooms)
			}
		}
		if (cs == StatusWaiting || cs == StatusPlaying) && w.stable(c, SilenceReconnecting+2*time.Second) {
			name, code, _ := c.sc.c.Room()
			r, seat, sp := s.rooms.byConn(c.sc.addr, serverConn(c.sc.c))
			sl := c.sc.c.Slot()
			switch {
			case r == nil:
				return fmt.Sprintf("%v believes it is in room %q (slot %d), the server holds no place for it", c.describe(), name, sl)
			case r.name != name || r.code != code:
				return fmt.Sprintf("%v believes it is in room %q (code %q), the server has it in room %s (code %q)", c.describe(), name, code, r.name, r.code)
			case sl >= 0 && (seat == nil || seat.slot != sl):
				return fmt.Sprintf("%v believes it holds seat %d of room %s, the server disagrees", c.describe(), sl, name)
			case sl < 0 && sp == nil:
				return fmt.Sprintf("%v believes it watches room %s, the server has it in a seat", c.describe(), name)
			}
		}
	}
	return ""
}

// checkEnd checks why a client's session ended against what happened to
// it: a fault of its room, a kick, the end of its match, a server full
// or a cap reached, a silence long enough to give up.
func (w *walk) checkEnd(c *walkClient) string {
	rc := w.rc
	err := c.sc.c.Err()
	name, _, _ := c.sc.c.Room()
	started := name != ""
	var ended *EndedError
	var refused *RefusedError
	var gone *GoneError
	var noAnswer *NoAnswerError
	switch {
	case errors.Is(err, ErrQuit):
		if !c.gone {
			return fmt.Sprintf("%v ended with %v without quitting", c, err)
		}
	case errors.Is(err, ErrServerFull):
		rc.stats.full++
		if c.spectate || w.now.Sub(rc.lastFullAt) > 2*time.Second {
			return fmt.Sprintf("%v was told the server is full; it last had %d rooms open %v ago", c, rc.cfg.maxRooms, w.now.Sub(rc.lastFullAt))
		}
	case errors.Is(err, ErrSpectatorsFull):
		rc.stats.refused++
		if !c.spectate {
			return fmt.Sprintf("player %v was told the spectators are full", c)
		}
	case errors.As(err, &ended):
		switch ended.Reason {
		case proto.LeaveServerError:
			if !c.faulted {
				return fmt.Sprintf("%v was told its room stopped after a server error; no room of its failed", c)
			}
		case proto.LeaveKicked:
			if !c.kicked {
				return fmt.Sprintf("%v was kicked; the operator did not kick it", c)
			}
		case proto.LeaveMatchOver:
			if (c.spectate && !c.watchClosed) || (!c.spectate && !c.overSeen) {
				return fmt.Sprintf("%v was told its match is over; it sat in no room whose match ended", c)
			}
		case proto.LeaveIdle:
			// Its seat was freed without intent: no sooner than the idle
			// time after the client was given it (taking a seat is intent).
			if idle := rc.cfg.seatIdle; c.spectate || idle < 0 || !c.placed || w.now.Sub(c.placedAt) < idle-time.Second {
				return fmt.Sprintf("%v was freed for idleness (idle %v) %v after it was placed", c, rc.cfg.seatIdle, w.now.Sub(c.placedAt))
			}
		default:
			return fmt.Sprintf("%v was ended with %v", c, ended.Reason)
		}
	case errors.As(err, &refused):
		rc.stats.refused++
		kind := c.req.Kind
		switch refused.Reason {
		case proto.RejectAddrLimit:
			key := householdAddr(c.household, 0).Addr()
			if c.spectate {
				key = netip.AddrFrom4([4]byte{11, 0, 0, byte(1 + c.household)})
			}
			if at, ok := rc.capAt[key]; !ok || w.now.Sub(at) > 2*time.Second {
				return fmt.Sprintf("%v was refused for its address's cap; its household last held its share %v ago", c, w.now.Sub(at))
			}
		case proto.RejectRoomFull:
			if !started && (kind == RoomQuick || kind == RoomCreate) {
				return fmt.Sprintf("%v of %s was refused: room full", c, describeRequest(c.req))
			}
		case proto.RejectNoRoom:
			if !started && (kind == RoomQuick || kind == RoomCreate) {
				return fmt.Sprintf("%v of %s was refused: no room", c, describeRequest(c.req))
			}
		case proto.RejectRoomTaken:
			if started || kind != RoomCreate {
				return fmt.Sprintf("%v of %s was refused: room taken", c, describeRequest(c.req))
			}
		case proto.RejectSlowDown:
		case proto.RejectKicked:
			if at, ok := rc.kickedAt[householdAddr(c.household, 0).Addr()]; !ok || w.now.Sub(at) > rc.cfg.kickHold+time.Second {
				return fmt.Sprintf("%v was refused as kicked; its household was last kicked %v ago (the hold is %v)", c, w.now.Sub(at), rc.cfg.kickHold)
			}
		default:
			return fmt.Sprintf("%v of %s was refused: %v", c, describeRequest(c.req), refused.Reason)
		}
	case errors.As(err, &gone):
		if c.longestSilent < SilenceGone-3*time.Second {
			return fmt.Sprintf("%v gave the server up for gone; its longest silence was %v", c, c.longestSilent)
		}
	case errors.As(err, &noAnswer):
		if c.longestSilent < 2*time.Second {
			return fmt.Sprintf("%v had no answer to its handshake; its longest silence was %v", c, c.longestSilent)
		}
	default:
		return fmt.Sprintf("%v ended with %v", c, err)
	}
	return ""
}

// roomOracle predicts a seat of its client's room exactly while the
// network is quiet, as walkOracle does for the single room.
type roomOracle struct {
	w *walk
	c *walkClient
}

func (o roomOracle) Update(*game.Snapshot, game.Tick) {}
func (o roomOracle) Predict(slot int, t game.Tick) game.Input {
	name, _, _ := o.c.sc.c.Room()
	if live := o.w.rc.live[name]; live != nil {
		switch live[slot] {
		case playScripted:
			return scripted(o.w.inputSeed, slot, t)
		case playVoting:
			in := scripted(o.w.inputSeed, slot, t)
			in.Buttons |= game.ButtonRematch
			return in
		}
	}
	return game.Neutral(t)
}

// updateRoomOracle recomputes how each seat of each room plays: bots
// and seats whose owner is a live, playing client in that seat play the
// scripted input, and the voters among them vote.
func (w *walk) updateRoomOracle() {
	for _, live := range w.rc.live {
		*live = [game.MaxPlayers]seatPlay{}
	}
	for _, r := range w.n.server.rooms.list {
		live := w.rc.live[r.name]
		if live == nil {
			live = new([game.MaxPlayers]seatPlay)
			w.rc.live[r.name] = live
		}
		for i := 0; i < r.cfg.Players; i++ {
			st := r.seats.at(i)
			if st.state == seatBot {
				live[i] = playVoting
				continue
			}
			if !st.human() {
				continue
			}
			for _, c := range w.clients {
				if !c.live(w.now) || c.sc.addr != st.addr || c.sc.c.Status() != StatusPlaying || c.sc.c.Slot() != i {
					continue
				}
				if name, _, _ := c.sc.c.Room(); name != r.name {
					continue
				}
				live[i] = playScripted
				if c.voter {
					live[i] = playVoting
				}
			}
		}
	}
}

// convergedRooms is converged for the rooms walk: every eligible client
// agrees with its own room's server world.
func (w *walk) convergedRooms() string {
	for _, c := range w.clients {
		if !w.stable(c, time.Second) || c.sc.c.Status() != StatusPlaying {
			continue
		}
		name, _, _ := c.sc.c.Room()
		r := w.n.server.rooms.byName(name)
		if r == nil || !r.match.live() {
			return fmt.Sprintf("%v plays in room %q, which is closed or in its lobby", c.describe(), name)
		}
		cw := c.sc.c.World()
		if cw == nil {
			return fmt.Sprintf("%v plays without a world", c.describe())
		}
		id := c.sc.c.sess.matchID()
		if c.sc.c.Slot() < 0 {
			if h, ok := w.rc.hash[matchTick{id, cw.Tick()}]; !ok || h != cw.Hash() {
				return fmt.Sprintf("spectator %v: its world of match %08x at tick %d differs from room %s's (at %d)", c, id, cw.Tick(), name, r.match.current().Tick())
			}
			continue
		}
		if id != r.match.matchID() {
			return fmt.Sprintf("%v plays match %08x, room %s plays %08x", c.describe(), id, name, r.match.matchID())
		}
		sw := r.match.current()
		if snap, ok := c.sc.c.SnapshotAt(sw.Tick()); ok {
			if game.Hash(&snap) != sw.Hash() {
				return fmt.Sprintf("%v: its snapshot at tick %d differs from room %s's", c.describe(), sw.Tick(), name)
			}
			continue
		}
		if h, ok := w.rc.hash[matchTick{id, cw.Tick()}]; !ok || h != cw.Hash() {
			return fmt.Sprintf("%v: no snapshot at room %s's tick %d, world at %d", c.describe(), name, sw.Tick(), cw.Tick())
		}
	}
	return ""
}
