package netcode

import (
	"crypto/ed25519"
	"crypto/sha256"
	"net/netip"
	"strings"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// FleetView is what a server knows of the other servers of its fleet:
// the driver reads it from the fleet's store and hands it to SetFleet.
// The zero value is a server on its own.
type FleetView struct {
	// Self is this server's public address, its ID in the fleet: where
	// the others redirect to it, and how collisions of room names and
	// codes are settled (the lowest ID's room wins).
	Self netip.AddrPort
	// Lost says the fleet's store cannot be reached: the server lists and
	// places only its own rooms until it can again.
	Lost bool
	// Servers are the others, each with its rooms.
	Servers []FleetServer
}

// FleetServer is another server of the fleet.
type FleetServer struct {
	// Addr is its public UDP address; Key its long-term key, which the
	// Redirect vouches for.
	Addr netip.AddrPort
	Key  ed25519.PublicKey
	Name string
	// Players counts its players and spectators, of Capacity.
	Players, Capacity int
	// Draining: it takes no new rooms.
	Draining bool
	Rooms    []FleetRoom
}

// FleetRoom is a room of the fleet: its line in the lobby, and for a
// private room the hash of its join code (FleetCodeHash) instead of a
// listed line.
type FleetRoom struct {
	RoomInfo
	CodeHash [16]byte
}

// FleetCodeHash is how a private room's join code is published to the
// fleet: never the code itself.
func FleetCodeHash(code string) [16]byte {
	sum := sha256.Sum256([]byte("ttytanks join code\x00" + strings.ToUpper(code)))
	var h [16]byte
	copy(h[:], sum[:])
	return h
}

// fleetDesk is the server's part of the fleet: the newest view of the
// other servers, where a Request is sent when it belongs elsewhere, and
// the other servers' rooms in the room list. A server with no fleet has
// an empty view and every answer is "here".
type fleetDesk struct {
	view FleetView
	// names and codes index the view: the server a name or code joins.
	names     map[string]*FleetServer
	codes     map[[16]byte]*FleetServer
	redirects uint64
}

// set takes a new view of the fleet (the others only: an entry with our
// own address is dropped).
//
// The view comes from a store other servers write, so it is checked as a
// datagram would be: a server whose address a client could not dial or
// whose key is not a key is left out, as is a room that could not be
// listed (a name not in SanitizeName form, counts out of range); at most
// maxFleetServers servers and maxFleetRooms rooms each are kept.
func (f *fleetDesk) set(v FleetView) {
	var kept []FleetServer
	for _, o := range v.Servers {
		o.Addr = netip.AddrPortFrom(o.Addr.Addr().Unmap(), o.Addr.Port())
		a := o.Addr.Addr()
		if o.Addr == v.Self || !a.IsValid() || a.IsUnspecified() || a.IsMulticast() || o.Addr.Port() == 0 ||
			len(o.Key) != ed25519.PublicKeySize || o.Players < 0 || o.Capacity < 0 || len(kept) == maxFleetServers {
			continue
		}
		rooms := make([]FleetRoom, 0, min(len(o.Rooms), maxFleetRooms))
		for _, r := range o.Rooms {
			if validFleetRoom(&r) && len(rooms) < maxFleetRooms {
				r.Server = o.Addr.String()
				rooms = append(rooms, r)
			}
		}
		o.Rooms = rooms
		kept = append(kept, o)
	}
	v.Servers = kept
	if v.Lost {
		v.Servers = nil
	}
	f.view = v
	f.index()
}

// maxFleetServers bounds the other servers a view holds.
const maxFleetServers = 256

// validFleetRoom reports whether r could be a room's line: a listed
// room's name in SanitizeName form (a private room has none), a leader's
// too, and counts a RoomEntry carries (seats 1..8, players ≤ seats,
// bots ≤ players, a known state, rounds and scores in range).
func validFleetRoom(r *FleetRoom) bool {
	name := r.Name != "" && proto.SanitizeName(r.Name) == r.Name
	if r.Private == name || proto.SanitizeName(r.Leader) != r.Leader {
		return false
	}
	return r.Seats >= 1 && r.Seats <= game.MaxPlayers && r.Players >= 0 && r.Players <= r.Seats && r.Bots >= 0 && r.Bots <= r.Players &&
		r.Spectators >= 0 && r.State >= RoomWaiting && r.State <= RoomResults && r.Round >= 0 && r.Round <= 0xffff &&
		r.RoundsToWin >= 0 && r.RoundsToWin <= 0xff && r.LeaderScore >= 0 && r.LeaderScore <= 0xffff
}

// others reports whether the server knows other servers to send players to.
func (f *fleetDesk) others() bool { return len(f.view.Servers) > 0 }

// lost reports whether the fleet's store is out of reach.
func (f *fleetDesk) lost() bool { return f.view.Lost }

// redirected counts a Redirect sent.
func (f *fleetDesk) redirected() { f.redirects++ }

// sent returns the Redirects sent.
func (f *fleetDesk) sent() uint64 { return f.redirects }

// size returns the other servers' players and capacity.
func (f *fleetDesk) size() (servers, players, capacity int) {
	for i := range f.view.Servers {
		players += f.view.Servers[i].Players
		capacity += f.view.Servers[i].Capacity
	}
	return len(f.view.Servers), players, capacity
}

// local is what the server tells the desk of itself for a placement:
// its load and whether it takes new rooms, and the room a quick match
// or a name would find here.
type local struct {
	players, capacity int
	takesRooms        bool
	// quick is the local room a quick match would take (taken seats, or
	// humans for a spectator), -1 for none.
	quick int
	// named: a room of the asked name (or code) is here.
	named bool
}

// where returns the Redirect for a Request that belongs on another
// server, or nil to place it here. A Redirected Request always stays.
func (f *fleetDesk) where(q *proto.Request, here local) *proto.Redirect {
	if !f.others() || q.Redirected || q.Kind == proto.RoomLobby {
		return nil
	}
	name := proto.SanitizeName(q.Room)
	switch q.Kind {
	case proto.RoomQuick:
		if o, r := f.quick(q.Spectate); o != nil && r.count(q.Spectate) > here.quick {
			return f.to(o, proto.RoomNamed, r.Name)
		}
		if here.quick >= 0 || q.Spectate {
			return nil
		}
		if o := f.leastLoaded(here); o != nil {
			return f.to(o, proto.RoomQuick, "")
		}
	case proto.RoomNamed:
		if name == "" {
			return nil
		}
		if o := f.owner(name, here.named); o != nil {
			return f.to(o, proto.RoomNamed, name)
		}
		if here.named || q.Spectate {
			return nil
		}
		if o := f.leastLoaded(here); o != nil {
			return f.to(o, proto.RoomNamed, name)
		}
	case proto.RoomCode:
		if o := f.codeOwner(q.Room, here.named); o != nil {
			return f.to(o, proto.RoomCode, strings.ToUpper(q.Room))
		}
	case proto.RoomCreate:
		if name != "" && f.owner(name, false) != nil {
			return nil // taken elsewhere: the local placement refuses it (nameTaken)
		}
		if o := f.leastLoaded(here); o != nil {
			r := f.to(o, proto.RoomCreate, name)
			r.Seats, r.Bots, r.Private, r.Casual = q.Seats, q.Bots, q.Private, q.Casual
			return r
		}
	}
	return nil
}

// nameTaken reports whether another server holds a room of that name
// (a RoomCreate of it is refused).
func (f *fleetDesk) nameTaken(name string) bool { return name != "" && f.owner(name, false) != nil }

// to returns a Redirect to o for a room of kind and name.
func (f *fleetDesk) to(o *FleetServer, kind proto.RoomKind, name string) *proto.Redirect {
	r := &proto.Redirect{Addr: o.Addr, Kind: kind, Room: name}
	copy(r.Key[:], o.Key)
	return r
}

// count is what a quick match compares rooms by: the seats taken, or
// for a spectator the humans watched.
func (r *FleetRoom) count(spectate bool) int {
	if spectate {
		return r.Players - r.Bots
	}
	return r.Players
}

// quick returns the other servers' best room for a quick match: the
// fullest public room with a free seat that is not showing results, on
// a server that does not drain (for a spectator, the room with the most
// humans); the lowest address breaks ties.
func (f *fleetDesk) quick(spectate bool) (*FleetServer, *FleetRoom) {
	var bo *FleetServer
	var br *FleetRoom
	for i := range f.view.Servers {
		o := &f.view.Servers[i]
		if o.Draining {
			continue
		}
		for j := range o.Rooms {
			r := &o.Rooms[j]
			if r.Private || r.Closing || r.Name == "" {
				continue
			}
			if !spectate && (r.Players >= r.Seats || r.State == RoomResults) {
				continue
			}
			if br == nil || r.count(spectate) > br.count(spectate) ||
				(r.count(spectate) == br.count(spectate) && o.Addr.Compare(bo.Addr) < 0) {
				bo, br = o, r
			}
		}
	}
	return bo, br
}

// owner returns the server whose public room of that name a Request
// joins, or nil for this server (or none): among the servers that hold
// one (this one too, when here), the lowest address wins, so every entry
// server sends a name to the same room.
func (f *fleetDesk) owner(name string, here bool) *FleetServer {
	return f.winner(f.names[foldName(name)], here)
}

// codeOwner is owner for a private room's join code.
func (f *fleetDesk) codeOwner(code string, here bool) *FleetServer {
	return f.winner(f.codes[FleetCodeHash(code)], here)
}

// winner is best, the lowest address among the other servers holding a
// name or code, unless this server holds it too (here) at a lower one.
func (f *fleetDesk) winner(best *FleetServer, here bool) *FleetServer {
	if best != nil && here && f.view.Self.Compare(best.Addr) < 0 {
		return nil
	}
	return best
}

// index finds, once per view, the lowest-addressed server holding each
// public room name and each private room's code (the maps are only
// looked up, never iterated).
func (f *fleetDesk) index() {
	f.names, f.codes = map[string]*FleetServer{}, map[[16]byte]*FleetServer{}
	for i := range f.view.Servers {
		o := &f.view.Servers[i]
		for j := range o.Rooms {
			r := &o.Rooms[j]
			m, k := f.names, foldName(r.Name)
			if r.Private {
				if b := f.codes[r.CodeHash]; b == nil || o.Addr.Compare(b.Addr) < 0 {
					f.codes[r.CodeHash] = o
				}
				continue
			}
			if b := m[k]; b == nil || o.Addr.Compare(b.Addr) < 0 {
				m[k] = o
			}
		}
	}
}

// leastLoaded returns the server a new room opens on when it is not
// this one: the lowest share of its capacity taken among the servers
// that take rooms, this one included (ties go here, then to the lowest
// address); nil for here.
func (f *fleetDesk) leastLoaded(here local) *FleetServer {
	var best *FleetServer
	bestLoad := 2.0
	if here.takesRooms {
		bestLoad = share(here.players, here.capacity)
	}
	for i := range f.view.Servers {
		o := &f.view.Servers[i]
		if o.Draining || o.Players >= o.Capacity {
			continue
		}
		if l := share(o.Players, o.Capacity); l < bestLoad || (l == bestLoad && best != nil && o.Addr.Compare(best.Addr) < 0) {
			best, bestLoad = o, l
		}
	}
	return best
}

func share(players, capacity int) float64 {
	if capacity <= 0 {
		return 1
	}
	return float64(players) / float64(capacity)
}

// elsewhere reports whether a public room of that name on this server is
// shadowed by one of a server of a lower address: a join by the name
// goes there, so the lobby lists that one.
func (f *fleetDesk) elsewhere(name string) bool { return f.owner(name, true) != nil }

// page continues a room list page after the local rooms (roomTable.page
// filled it): the other servers' public rooms, each with its server's
// address, the total counting them too. Of rooms of one name only the one
// a join by that name reaches is listed (here tells whether this server
// has one).
func (f *fleetDesk) page(p *proto.RoomList, here func(name string) bool) {
	localTotal := int(p.Total)
	// The local rooms from the offset on did not all fit: the page is full.
	n, full := localTotal, int(p.Offset) < localTotal && len(p.Rooms) < localTotal-int(p.Offset)
	for i := range f.view.Servers {
		o := &f.view.Servers[i]
		addr := o.Addr.String()
		for j := range o.Rooms {
			r := &o.Rooms[j]
			if r.Private {
				continue // set kept only listable rooms: a private one is found by its code
			}
			if f.owner(r.Name, here(r.Name)) != o {
				continue // another server's room of that name is the one joined
			}
			if n >= int(p.Offset) && !full {
				e := entryOf(r.RoomInfo)
				e.Server, e.Closing = addr, r.Closing || o.Draining
				if p.Fits(&e) {
					p.Rooms = append(p.Rooms, e)
				} else {
					full = true
				}
			}
			n++
		}
	}
	p.Total = uint16(min(n, 0xffff))
}

// knows reports whether key is the key of a server of the fleet (one
// that may vouch for a player).
func (d *fleetDesk) knows(key [proto.ServerKeyLen]byte) bool {
	for i := range d.view.Servers {
		if string(d.view.Servers[i].Key) == string(key[:]) {
			return true
		}
	}
	return false
}

// SetFleet tells the server the newest view of its fleet (the driver's
// fleet membership calls it, through ServerDriver.Do, whenever it reads
// one). Until the first call, and while v.Lost, the server is on its own.
func (s *Server) SetFleet(v FleetView) { s.fleet.set(v) }

// FleetRooms appends this server's rooms as the fleet publishes them to
// dst: public rooms with their line, private ones by their code's hash;
// at most maxFleetRooms of them, those with a free seat first (the ones
// a player elsewhere in the fleet may be sent to).
func (s *Server) FleetRooms(dst []FleetRoom) []FleetRoom {
	n := 0
	for _, free := range [...]bool{true, false} {
		s.rooms.each(func(r *room) {
			o := r.opened()
			if o.lobby || n == maxFleetRooms || (r.places().free() > 0) != free {
				return
			}
			fr := FleetRoom{RoomInfo: r.info()}
			if o.private() {
				fr.CodeHash = FleetCodeHash(o.code)
				fr.Name = ""
			}
			dst = append(dst, fr)
			n++
		})
	}
	return dst
}

// FleetLoad returns what the fleet weighs this server by: its players
// and spectators, of the seats its rooms may hold, and whether it drains.
func (s *Server) FleetLoad() (players, capacity int, draining bool) {
	s.rooms.each(func(r *room) {
		if !r.opened().lobby {
			players += r.places().humans() + r.places().spectatorCount()
		}
	})
	return players, s.cfg.MaxRooms * s.cfg.Players, s.drain.active()
}

// redirect answers a Request that belongs on another server of the fleet
// with a Redirect there, and reports whether it did.
func (s *Server) redirect(now time.Time, c *conn, q *proto.Request) bool {
	if !s.fleet.others() {
		return false
	}
	players, capacity, draining := s.FleetLoad()
	here := local{players: players, capacity: capacity, quick: -1,
		takesRooms: !draining && s.rooms.count() < s.cfg.MaxRooms && !s.busy.refuses(now)}
	if !draining {
		name := proto.SanitizeName(q.Room)
		switch q.Kind {
		case proto.RoomQuick:
			if r := s.rooms.quick(q.Spectate); r != nil {
				here.quick = r.places().taken()
				if q.Spectate {
					here.quick = r.places().humans()
				}
			}
		case proto.RoomNamed:
			r := s.rooms.byName(name)
			here.named = r != nil && !r.opened().private()
		case proto.RoomCode:
			here.named = s.rooms.byCode(q.Room) != nil
		}
	}
	rd := s.fleet.where(q, here)
	if rd == nil {
		return false
	}
	s.fleet.redirected()
	s.out.sealed(c.id(), rd)
	s.log.Debug("request redirected", "to", rd.Addr.String(), "kind", rd.Kind, "room", rd.Room)
	return true
}
