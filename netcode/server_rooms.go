package netcode

import (
	"net/netip"
	"strings"
	"time"
	"ttytanks/game"
	"ttytanks/internal/skill"

	"ttytanks/proto"
)

// maxRooms bounds ServerConfig.MaxRooms, the rooms of one server: 1024
// rooms of 2 seats hold 2048 players. (The room list pages further, to
// maxListed: a fleet's list holds the rooms of several servers. A
// server's record in the fleet holds at most maxFleetRooms of its rooms.)
const maxRooms = 1024

// maxFleetRooms bounds the rooms of one server that the fleet publishes
// and takes from another's record (about 50 KB of it).
const maxFleetRooms = 255

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
	guesses *prefixLimiter   // join-code tries
	opens   *prefixLimiter   // rooms opened on demand
	lobby   *room            // the lobby's chat room, once a viewer asked for it
	// skill holds the candidates of a quick match by skill, and their
	// players' ratings, reused from one to the next.
	skill struct {
		rooms   []skill.Room
		of      []*room
		ratings []float64
		// seen holds the times of the last quick-match arrivals, oldest
		// first (at most maxArrivals), for quickTraffic.
		seen []time.Time
	}
}

// maxArrivals is how many quick-match arrivals quickTraffic remembers.
const maxArrivals = 64

func newRoomTable() roomTable {
	return roomTable{names: map[string]*room{}, codes: map[string]*room{}, matches: map[uint32]*room{},
		prev: map[*room]uint32{}, guesses: newPrefixLimiter(codeTries, codeRefill), opens: newPrefixLimiter(openBurst, openRefill)}
}

// add puts r in the table; its match id is routed by rerouted.
func (t *roomTable) add(r *room) {
	t.list = append(t.list, r)
	o := r.opened()
	if o.lobby {
		t.lobby = r // known by no name
		return
	}
	t.names[foldName(o.name)] = r
	if o.private() {
		t.codes[o.code] = r
	}
}

// remove takes r out of the table: no datagram routes to it any more.
func (t *roomTable) remove(r *room) {
	for i, q := range t.list {
		if q == r {
			t.list = append(t.list[:i], t.list[i+1:]...)
			break
		}
	}
	o := r.opened()
	if o.lobby {
		t.lobby = nil
	} else {
		delete(t.names, foldName(o.name))
	}
	if o.private() {
		delete(t.codes, o.code)
	}
	if id := r.game().matchID(); t.matches[id] == r {
		delete(t.matches, id)
	}
	if id, ok := t.prev[r]; ok && t.matches[id] == r {
		delete(t.matches, id)
	}
	delete(t.prev, r)
}

// rerouted routes match id id to r, which had old: datagrams with id
// (and, until the next change, with old, which delayed spectators and
// late Leaves still carry) route to r.
func (t *roomTable) rerouted(r *room, old, id uint32) {
	if prev, ok := t.prev[r]; ok && t.matches[prev] == r {
		delete(t.matches, prev)
	}
	if old != 0 && t.matches[old] == r {
		t.prev[r] = old
	}
	t.matches[id] = r
}

// byMatch returns the room of a match id, or nil.
func (t *roomTable) byMatch(id uint32) *room { return t.matches[id] }

// byName returns the room of that name (case-insensitive), or nil.
func (t *roomTable) byName(name string) *room { return t.names[foldName(name)] }

// lobbyRoom returns the lobby's chat room, nil until a viewer asked for it.
func (t *roomTable) lobbyRoom() *room { return t.lobby }

// first returns the oldest room (the lobby's chat room aside), or nil.
func (t *roomTable) first() *room {
	for _, r := range t.list {
		if r != t.lobby {
			return r
		}
	}
	return nil
}

// each calls f for every room, oldest first, on a copy of the list (f
// may close rooms).
func (t *roomTable) each(f func(r *room)) {
	for _, r := range append([]*room(nil), t.list...) {
		if !r.isClosed() {
			f(r)
		}
	}
}

// appendAll appends the open rooms to dst.
func (t *roomTable) appendAll(dst []*room) []*room { return append(dst, t.list...) }

// count returns the number of open rooms, the lobby's chat room aside.
func (t *roomTable) count() int {
	if t.lobby != nil {
		return len(t.list) - 1
	}
	return len(t.list)
}

// byConn finds the place of connection conn at addr, in any room.
func (t *roomTable) byConn(addr netip.AddrPort, conn uint32) (*room, *seat, *spectator) {
	for _, r := range t.list {
		if st, sp := r.places().byConn(addr, conn); st != nil || sp != nil {
			return r, st, sp
		}
	}
	return nil, nil, nil
}

// holds reports whether a room holds a place for connection conn at
// addr.
func (t *roomTable) holds(addr netip.AddrPort, conn uint32) bool {
	r, _, _ := t.byConn(addr, conn)
	return r != nil
}

// byToken finds the place a reconnect token holds (a spectator's when
// spectate), in any room.
func (t *roomTable) byToken(tok *proto.Token, spectate bool, now time.Time) (*room, *seat, *spectator) {
	for _, r := range t.list {
		if st, sp := r.places().byTokenOf(tok, spectate, now); st != nil || sp != nil {
			return r, st, sp
		}
	}
	return nil, nil, nil
}

// countFrom counts the seats and spectator places held in all rooms by
// peers whose origin is ip.
func (t *roomTable) countFrom(ip netip.Addr, origin func(netip.AddrPort) netip.Addr) (seats, specs int) {
	for _, r := range t.list {
		if r == t.lobby {
			continue // the lobby's places have their own share (spectatorShare)
		}
		a, b := r.places().countFrom(ip, origin)
		seats, specs = seats+a, specs+b
	}
	return seats, specs
}

// moveLink moves the place of connection conn from the address from to
// to, in whichever room holds it.
func (t *roomTable) moveLink(from, to netip.AddrPort, conn uint32) {
	if r, _, _ := t.byConn(from, conn); r != nil {
		r.places().moveLink(from, to, conn)
	}
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

// mayGuess reports whether ip has a try at a join code left; missed
// spends one. A right code costs nothing, so players who type their
// friends' codes are never slowed down; only wrong guesses are counted.
func (t *roomTable) mayGuess(ip netip.Addr, now time.Time) bool { return t.guesses.has(ip, now) }

// missed spends one of ip's tries after a wrong join code.
func (t *roomTable) missed(ip netip.Addr, now time.Time) { t.guesses.allow(ip, now) }

// open takes one of ip's room openings on demand; false when it has
// opened its share lately.
func (t *roomTable) open(ip netip.Addr, now time.Time) bool { return t.opens.allow(ip, now) }

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

// freeName returns the first of a, b, … no room has, here or, by
// taken, elsewhere in the fleet (so a room the lobby lists is found by
// its name from every server).
func (t *roomTable) freeName(taken func(name string) bool) string {
	for i := 0; ; i++ {
		if n := roomName(i); t.byName(n) == nil && !taken(n) {
			return n
		}
	}
}

// quick returns the room a quick match places a player in: the fullest
// public room with a free seat that is not showing results; for a
// spectator, the public room with the most players. nil: none.
func (t *roomTable) quick(spectate bool) *room {
	var best *room
	for _, r := range t.list {
		if r.opened().private() || r == t.lobby {
			continue // private (or the lobby's chat): not listed
		}
		p := r.places()
		if spectate {
			if best == nil || p.humans() > best.places().humans() {
				best = r
			}
		} else if p.free() > 0 && !r.game().over() && (best == nil || p.taken() > best.places().taken()) {
			best = r
		}
	}
	return best
}

// quickBySkill returns the room a quick match seats a player of rating
// in (rated false: a guest) by rule (package skill): the fullest public
// room with a free seat, whose match is not over, and whose rated
// players are within the window its wait has widened to; nil for a new
// room. On a server that is not busy (skill.Busy), a room where the
// player would wait alone — an empty one, such as the rooms of
// ServerConfig.Rooms, or a new one — gives way to the fullest room
// where someone waits (skill.Quiet). clock is the server's tick, for
// how long a waiting room's first player has waited.
func (t *roomTable) quickBySkill(rule skill.Rule, rating float64, rated, busy bool, now time.Time, clock game.Tick) *room {
	sk := &t.skill
	sk.rooms, sk.of, sk.ratings = sk.rooms[:0], sk.of[:0], sk.ratings[:0]
	for _, r := range t.list {
		p := r.places()
		if r.opened().private() || r == t.lobby || p.free() == 0 || r.game().over() {
			continue
		}
		from := len(sk.ratings)
		first := game.Tick(0)
		waiting := !r.game().live()
		p.each(func(l *link, slot int) {
			if slot < 0 {
				return
			}
			if !l.who.IsZero() {
				sk.ratings = append(sk.ratings, l.rating)
			}
			if waiting && (first == 0 || l.joined < first) {
				first = l.joined
			}
		})
		c := skill.Room{Free: p.free(), Taken: p.taken(), Ratings: sk.ratings[from:len(sk.ratings):len(sk.ratings)], Ranked: r.opened().cfg.Ranked}
		if waiting && first != 0 && clock >= first {
			c.Since = now.Add(-time.Duration(clock-first) * TickDuration)
		}
		sk.rooms = append(sk.rooms, c)
		sk.of = append(sk.of, r)
	}
	i := rule.Pick(sk.rooms, rating, rated, now)
	if !busy {
		i = skill.Quiet(sk.rooms, i)
	}
	if i >= 0 {
		return sk.of[i]
	}
	return nil
}

// quickTraffic notes a quick-match arrival at now and returns how many
// others came in the last within: a quick match by skill seats a player
// no room fits in a room of their own, new or empty, only on a server
// busy enough (skill.Busy: twice a room's seats in the last
// skill.Rule.MaxWait) that one who fits is likely to come soon; on a
// quiet one two players would wait apart in rooms of their own, for
// nobody.
func (t *roomTable) quickTraffic(now time.Time, within time.Duration) int {
	sk := &t.skill
	for len(sk.seen) > 0 && now.Sub(sk.seen[0]) > within {
		sk.seen = sk.seen[1:]
	}
	n := len(sk.seen)
	if len(sk.seen) == maxArrivals {
		sk.seen = sk.seen[1:]
	}
	sk.seen = append(sk.seen, now)
	return n
}

// spending returns what the rooms opened on demand spend of the budgets:
// those owned by the prefix key (a limitKey) and their bots, and the bots
// of all of them.
func (t *roomTable) spending(key netip.Addr) (rooms, bots, allBots int) {
	for _, r := range t.list {
		o := r.opened()
		owner, b := o.owner, o.cfg.Bots
		if !owner.IsValid() {
			continue
		}
		allBots += b
		if owner == key {
			rooms, bots = rooms+1, bots+b
		}
	}
	return rooms, bots, allBots
}

// byCode returns the private room of a join code, or nil.
func (t *roomTable) byCode(code string) *room { return t.codes[strings.ToUpper(code)] }

// idle returns the rooms that have had no network peer for d at now and
// may close for it, newest first.
func (t *roomTable) idle(now time.Time, d time.Duration, dst []*room) []*room {
	for i := len(t.list) - 1; i >= 0; i-- {
		if r := t.list[i]; r.idleFor(now, d) {
			dst = append(dst, r)
		}
	}
	return dst
}

// page fills p with the public rooms from its offset on, as many as fit,
// and the count of them all; a room whose name hidden says is another
// server's in the fleet is left out (a join by that name goes there).
func (t *roomTable) page(p *proto.RoomList, hidden func(name string) bool) {
	n, full := 0, false
	for _, r := range t.list {
		if r.opened().private() || r == t.lobby {
			continue // private (or the lobby's chat): not listed
		}
		if hidden(r.opened().name) {
			continue
		}
		if n >= int(p.Offset) && !full {
			// A page is consecutive rooms from its offset: at the first
			// that does not fit, the page ends (the rest are counted).
			if e := entryOf(r.info()); p.Fits(&e) {
				p.Rooms = append(p.Rooms, e)
			} else {
				full = true
			}
		}
		n++
	}
	p.Total = uint16(n)
}
