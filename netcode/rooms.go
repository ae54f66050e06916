package netcode

import (
	"hash/maphash"
	"io"
	"net/netip"
	"strings"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// maxRooms bounds ServerConfig.MaxRooms: a RoomList offset is a byte.
const maxRooms = 255

// maxSpectatorDelay bounds ServerConfig.SpectatorDelay.
const maxSpectatorDelay = 10 * time.Second

// Join codes: codeLen characters of codeAlphabet (Crockford's base 32:
// no I, L, O or U to misread), 40 bits. A wrong code costs the address
// one of codeTries tries, which come back one every codeRefill.
const (
	codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	codeLen      = 8
	codeTries    = 5
	codeRefill   = 12 * time.Second
)

// Rooms opened on demand: each source IP address may open openBurst at
// once, and one more every openRefill, so one address cannot fill the
// server with empty rooms (they close after RoomIdle).
const (
	openBurst  = 4
	openRefill = 15 * time.Second
)

// roomTable holds the open rooms: in opening order for the list and the
// ticks, and by name, join code and match id (current and previous) for
// the receive path. The maps are only looked up, never iterated, so the
// server stays deterministic.
type roomTable struct {
	list    []*room
	names   map[string]*room
	codes   map[string]*room
	matches map[uint32]*room
	prev    map[*room]uint32 // each room's previous match id, still routed
	guesses *guessLimiter    // join-code tries
	opens   *guessLimiter    // rooms opened on demand
}

func newRoomTable() roomTable {
	return roomTable{names: map[string]*room{}, codes: map[string]*room{}, matches: map[uint32]*room{},
		prev: map[*room]uint32{}, guesses: newGuessLimiter(codeTries, codeRefill), opens: newGuessLimiter(openBurst, openRefill)}
}

// add puts r in the table; its match id is set by rekey.
func (t *roomTable) add(r *room) {
	t.list = append(t.list, r)
	t.names[foldName(r.name)] = r
	if r.code != "" {
		t.codes[r.code] = r
	}
}

// remove takes r out of the table.
func (t *roomTable) remove(r *room) {
	for i, q := range t.list {
		if q == r {
			t.list = append(t.list[:i], t.list[i+1:]...)
			break
		}
	}
	delete(t.names, foldName(r.name))
	if r.code != "" {
		delete(t.codes, r.code)
	}
	if t.matches[r.match.matchID()] == r {
		delete(t.matches, r.match.matchID())
	}
	if id, ok := t.prev[r]; ok && t.matches[id] == r {
		delete(t.matches, id)
	}
	delete(t.prev, r)
	r.closed = true
}

// rekey gives r's match the id id: datagrams with it (and, until the next
// change, with the previous one, which delayed spectators and late
// Leaves still carry) route to r.
func (t *roomTable) rekey(r *room, id uint32) {
	if old, ok := t.prev[r]; ok && t.matches[old] == r {
		delete(t.matches, old)
	}
	if cur := r.match.matchID(); cur != 0 && t.matches[cur] == r {
		t.prev[r] = cur
	}
	r.match.reset(id)
	t.matches[id] = r
}

// byMatch returns the room of a match id, or nil.
func (t *roomTable) byMatch(id uint32) *room { return t.matches[id] }

// byName returns the room of that name (case-insensitive), or nil.
func (t *roomTable) byName(name string) *room { return t.names[foldName(name)] }

// first returns the oldest room, or nil.
func (t *roomTable) first() *room {
	if len(t.list) == 0 {
		return nil
	}
	return t.list[0]
}

// each calls f for every room, oldest first, on a copy of the list (f
// may close rooms).
func (t *roomTable) each(f func(r *room)) {
	for _, r := range append([]*room(nil), t.list...) {
		if !r.closed {
			f(r)
		}
	}
}

// appendAll appends the open rooms to dst.
func (t *roomTable) appendAll(dst []*room) []*room { return append(dst, t.list...) }

// count returns the number of open rooms.
func (t *roomTable) count() int { return len(t.list) }

// bySession finds the peer with that address and session in any room.
func (t *roomTable) bySession(addr netip.AddrPort, session uint64) (*room, *seat, *spectator) {
	for _, r := range t.list {
		if st, sp := r.seats.bySession(addr, session); st != nil || sp != nil {
			return r, st, sp
		}
	}
	return nil, nil, nil
}

// byToken finds the place a reconnect token holds (a spectator's when
// spectate), in any room.
func (t *roomTable) byToken(tok *proto.Token, spectate bool, now time.Time) (*room, *seat, *spectator) {
	for _, r := range t.list {
		if spectate {
			if sp := r.seats.spectatorByToken(tok); sp != nil {
				return r, nil, sp
			}
		} else if st := r.seats.byToken(tok, now); st != nil {
			return r, st, nil
		}
	}
	return nil, nil, nil
}

// countFrom counts the seats and spectator places held in all rooms by
// peers whose origin is ip.
func (t *roomTable) countFrom(ip netip.Addr, origin func(netip.AddrPort) netip.Addr) (seats, specs int) {
	for _, r := range t.list {
		a, b := r.seats.countFrom(ip, origin)
		seats, specs = seats+a, specs+b
	}
	return seats, specs
}

// newCode returns a join code no room has.
func (t *roomTable) newCode(random func([]byte)) string {
	var b [codeLen]byte
	for {
		random(b[:])
		for i := range b {
			b[i] = codeAlphabet[b[i]%byte(len(codeAlphabet))]
		}
		if t.codes[string(b[:])] == nil {
			return string(b[:])
		}
	}
}

// guess takes one of ip's tries at a join code; false when it has none
// left.
func (t *roomTable) guess(ip netip.Addr, now time.Time) bool { return t.guesses.allow(ip, now) }

// guessLimiter is a hashed table of token buckets, one per source IP (as
// far as the hash tells them apart): fixed in size, whatever the number
// of addresses. It bounds join-code tries and rooms opened.
type guessLimiter struct {
	seed        maphash.Seed
	burst, rate float64
	buckets     [4096]bucket
}

func newGuessLimiter(burst int, refill time.Duration) *guessLimiter {
	return &guessLimiter{seed: maphash.MakeSeed(), burst: float64(burst), rate: 1 / refill.Seconds()}
}

func (g *guessLimiter) allow(ip netip.Addr, now time.Time) bool {
	a := ip.Unmap().As16()
	b := &g.buckets[maphash.Bytes(g.seed, a[:])%uint64(len(g.buckets))]
	return take(b, now, g.rate, g.burst)
}

// foldName is the key of a room name: case does not make two rooms.
func foldName(name string) string { return strings.ToLower(name) }

// roomName names the i-th room the server opens on its own: a … z, then
// aa, ab, ….
func roomName(i int) string {
	if i < 26 {
		return string(rune('a' + i))
	}
	return roomName(i/26-1) + string(rune('a'+i%26))
}

// freeName returns the first of a, b, … no room has.
func (t *roomTable) freeName() string {
	for i := 0; ; i++ {
		if n := roomName(i); t.byName(n) == nil {
			return n
		}
	}
}

// place finds the room a Join asks for, opening one when it should; nil
// and the reason to refuse when there is none.
func (s *Server) place(j *proto.Request, from netip.AddrPort, now time.Time) (*room, proto.RejectReason) {
	t := &s.rooms
	name := proto.SanitizeName(j.Room)
	switch j.Kind {
	case proto.RoomQuick:
		if j.Spectate {
			var best *room
			for _, r := range t.list {
				if !r.private && (best == nil || r.seats.humans() > best.seats.humans()) {
					best = r
				}
			}
			if best == nil {
				return nil, proto.RejectNoRoom
			}
			return best, 0
		}
		var best *room
		for _, r := range t.list {
			if r.private || r.seats.free() == 0 || r.over() {
				continue
			}
			if best == nil || r.cfg.Players-r.seats.free() > best.cfg.Players-best.seats.free() {
				best = r
			}
		}
		if best != nil {
			return best, 0
		}
		if s.cfg.Bots >= s.cfg.Players {
			return nil, proto.RejectFull // a new room would have no seat for a player either
		}
		return s.newRoom(from, t.freeName(), s.defaultRoom(), false, now)
	case proto.RoomNamed:
		if name == "" {
			return nil, proto.RejectNoRoom
		}
		if r := t.byName(name); r != nil {
			if r.private {
				return nil, proto.RejectNoRoom // a private room is joined by its code
			}
			if !j.Spectate && r.seats.free() == 0 {
				return nil, proto.RejectRoomFull
			}
			return r, 0
		}
		if j.Spectate {
			return nil, proto.RejectNoRoom
		}
		if s.cfg.Bots >= s.cfg.Players {
			return nil, proto.RejectRoomFull // its seats would all be bots'
		}
		return s.newRoom(from, name, s.defaultRoom(), false, now)
	case proto.RoomCode:
		if !s.adm.isTrusted(from.Addr()) && !t.guess(s.origin(from), now) {
			s.drop(DropRateLimited)
			return nil, proto.RejectSlowDown
		}
		r := t.codes[strings.ToUpper(name)]
		if r == nil {
			return nil, proto.RejectNoRoom
		}
		if !j.Spectate && r.seats.free() == 0 {
			return nil, proto.RejectRoomFull
		}
		return r, 0
	default: // RoomCreate
		if name == "" {
			name = t.freeName()
		}
		if t.byName(name) != nil {
			return nil, proto.RejectRoomTaken
		}
		cfg := s.defaultRoom()
		if j.Seats != 0 {
			cfg.Players, cfg.Bots = int(j.Seats), int(j.Bots)
		}
		if cfg.Bots > 0 && s.cfg.NewBot == nil {
			cfg.Bots = 0
		}
		if _, err := game.NewWorld(game.Config{Slots: cfg.Players, MazeW: cfg.MazeW, MazeH: cfg.MazeH}); err != nil {
			return nil, proto.RejectNoMatch // the maze has no cell for so many seats
		}
		return s.newRoom(from, name, cfg, j.Private, now)
	}
}

// newRoom opens a room on demand for a player at from, if the server may
// open one more and from has not opened its share lately.
func (s *Server) newRoom(from netip.AddrPort, name string, cfg roomConfig, private bool, now time.Time) (*room, proto.RejectReason) {
	if s.rooms.count() >= s.cfg.MaxRooms {
		return nil, proto.RejectFull
	}
	if !s.adm.isTrusted(from.Addr()) && !s.rooms.opens.allow(s.origin(from), now) {
		s.drop(DropRateLimited)
		return nil, proto.RejectSlowDown
	}
	var r *room
	if !s.inRoomOpen(func() { r = s.openRoom(name, cfg, private, now) }) || r == nil {
		return nil, proto.RejectNoMatch
	}
	s.log.Info("room opened", "room", name, "seats", cfg.Players, "bots", cfg.Bots, "private", private)
	return r, 0
}

// inRoomOpen runs the opening of a room, which may panic in the bot
// policy or the world; such a room never opens.
func (s *Server) inRoomOpen(f func()) bool { return s.guard(f) }

// closeIdle closes the rooms opened on demand that have had no network
// peer for RoomIdle.
func (s *Server) closeIdle(now time.Time) {
	for i := len(s.rooms.list) - 1; i >= 0; i-- { // backwards: closing removes
		if r := s.rooms.list[i]; !r.permanent && !r.idleSince.IsZero() && now.Sub(r.idleSince) >= s.cfg.RoomIdle {
			s.closeRoom(r)
		}
	}
}

// closeRoom takes an empty room out.
func (s *Server) closeRoom(r *room) {
	s.rooms.remove(r) // first: it unroutes the match id reset clears
	r.match.reset(0)
	if c, ok := r.match.recorder().(io.Closer); ok {
		if err := c.Close(); err != nil {
			s.log.Error("closing a room's recorder", "room", r.name, "err", err)
		}
	}
	s.log.Info("room closed", "room", r.name)
}

// onListRooms answers a ListRooms whose cookie is good with one page of
// the public rooms.
func (s *Server) onListRooms(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	q, err := proto.ParseListRoomsBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if _, err := s.adm.verify(q.Cookie, from, q.Session, now); err != nil {
		s.drop(DropBadCookie)
		s.rejectClear(from, q.Session, proto.RejectBadCookie) // no connection: a sealed Reject would be dropped unsent
		return
	}
	page := proto.RoomList{Header: proto.Header{Session: q.Session}, ClientTime: q.ClientTime, Offset: q.Offset}
	n, full := 0, false
	for _, r := range s.rooms.list {
		if r.private {
			continue
		}
		if n >= int(q.Offset) && !full {
			// A page is consecutive rooms from its offset: at the first
			// that does not fit, the page ends (the rest are counted).
			if e := r.entry(); page.Fits(&e) {
				page.Rooms = append(page.Rooms, e)
			} else {
				full = true
			}
		}
		n++
	}
	page.Total = uint16(n)
	s.out.put(from, &page)
}

// info returns r's line in the lobby.
func (r *room) info() RoomInfo {
	in := RoomInfo{Name: r.name, Private: r.private, Seats: r.cfg.Players, Spectators: r.seats.spectatorCount(),
		Players: r.cfg.Players - r.seats.free(), RoundsToWin: r.cfg.Rounds}
	for i := 0; i < r.cfg.Players; i++ {
		if r.seats.at(i).state == seatBot {
			in.Bots++
		}
	}
	switch {
	case !r.match.live():
		in.State = RoomWaiting
	case r.match.counting():
		in.State = RoomCountdown
	case r.over():
		in.State = RoomResults
	default:
		in.State = RoomPlaying
	}
	if w := r.match.current(); w != nil {
		snap := w.State()
		in.Round = int(snap.Round.Number)
		for i := 0; i < int(snap.Slots); i++ {
			if sc := int(snap.Tanks[i].Score); sc > in.LeaderScore {
				in.Leader, in.LeaderScore = r.seats.at(i).name, sc
			}
		}
	}
	return in
}

// entry returns r's line in a RoomList.
func (r *room) entry() proto.RoomEntry {
	in := r.info()
	return proto.RoomEntry{Name: in.Name, Private: in.Private, Players: uint8(in.Players), Seats: uint8(in.Seats),
		Bots: uint8(in.Bots), Spectators: uint8(min(in.Spectators, 255)), State: uint8(in.State), Round: uint16(in.Round),
		RoundsToWin: uint8(in.RoundsToWin), Leader: proto.SanitizeName(in.Leader), LeaderScore: uint16(in.LeaderScore)}
}
