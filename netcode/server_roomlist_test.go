package netcode

import (
	"errors"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// simLobby is a LobbyClient on the simnet, routed like a client, with
// the packet types it sent and received counted.
type simLobby struct {
	l         *LobbyClient
	addr      netip.AddrPort
	up, down  *transport.Netsim
	sent, got map[proto.Type]int
}

// addLobby attaches a LobbyClient that talks to server (the simnet's
// server, or an address where nothing answers).
func (n *simnet) addLobby(server netip.AddrPort, session uint64, link transport.Impairment) *simLobby {
	l := &simLobby{l: NewLobbyClient(server, session),
		addr: netip.AddrPortFrom(netip.MustParseAddr("127.0.0.2"), uint16(30000+len(n.lobbies))),
		up:   transport.NewNetsim(link, session), down: transport.NewNetsim(link, session^0x5555),
		sent: map[proto.Type]int{}, got: map[proto.Type]int{}}
	n.lobbies = append(n.lobbies, l)
	return l
}

func (n *simnet) lobbyAt(addr netip.AddrPort) *simLobby {
	for _, l := range n.lobbies {
		if l.addr == addr {
			return l
		}
	}
	return nil
}

func (l *simLobby) count(m map[proto.Type]int, out []transport.Datagram) {
	for _, d := range out {
		if h, err := proto.ParseHeader(d.Data); err == nil {
			m[h.Type]++
		}
	}
}

func (l *simLobby) advance(now time.Time) []transport.Datagram {
	out := l.l.Advance(now)
	l.count(l.sent, out)
	return out
}

func (l *simLobby) receive(now time.Time, from netip.AddrPort, b []byte) []transport.Datagram {
	l.count(l.got, []transport.Datagram{{Data: b}})
	out := l.l.Receive(now, from, b)
	l.count(l.sent, out)
	return out
}

// rooms returns the lobby's newest list.
func (l *simLobby) rooms() RoomList {
	var list RoomList
	l.l.Rooms(&list)
	return list
}

// TestLobbyClientListsRooms: the lobby gets a cookie, fetches the whole
// list page by page, measures its ping, renews its cookie before the
// server's runs out, and says so when the server does not answer.
func TestLobbyClientListsRooms(t *testing.T) {
	const rooms = 100 // more than one page
	n := newSimnet(t, ServerConfig{Players: 2, Rooms: rooms, MaxRooms: rooms})
	link := transport.Impairment{Latency: 20 * time.Millisecond}
	lob := n.addLobby(n.saddr, 0x10bb1, link)
	if !n.runUntil(2*time.Second, func() bool { return !lob.rooms().Updated.IsZero() }) {
		t.Fatalf("no list after 2 s (sent %v, got %v)", lob.sent, lob.got)
	}
	list := lob.rooms()
	if list.Err != nil || list.Total != rooms || len(list.Rooms) != rooms {
		t.Fatalf("the list: %d rooms of %d, err %v; want %d", len(list.Rooms), list.Total, list.Err, rooms)
	}
	for i, r := range list.Rooms {
		if r.Name != roomName(i) || r.Seats != 2 || r.Players != 0 || r.State != RoomWaiting {
			t.Fatalf("room %d: %+v, want %s, 0 of 2, waiting", i, r, roomName(i))
		}
	}
	if got := lob.got[proto.TypeRoomList]; got < 2 {
		t.Fatalf("the list came in %d page(s): the test wants several", got)
	}
	if list.Ping < 40*time.Millisecond || list.Ping > 45*time.Millisecond {
		t.Fatalf("ping %v over a 40 ms round trip", list.Ping)
	}

	// The list follows the rooms.
	c := n.join(RoomRequest{Kind: RoomNamed, Name: "c"}, "carol")
	if !n.runUntil(2*time.Second, func() bool { l := lob.rooms(); return len(l.Rooms) == rooms && l.Rooms[2].Players == 1 }) {
		t.Fatalf("the list does not show carol in room c: %+v", lob.rooms().Rooms[2])
	}
	n.leave(c)

	// 20 s: the cookie (good for 10 s) is renewed, and the list stays
	// fresh throughout.
	hellos := lob.sent[proto.TypeHello]
	for end := n.now.Add(20 * time.Second); n.now.Before(end); {
		n.run(100 * time.Millisecond)
		l := lob.rooms()
		if age := n.now.Sub(l.Updated); age > lobbyRefresh+500*time.Millisecond || l.Err != nil || len(l.Rooms) != rooms {
			t.Fatalf("at %v: the list is %v old, %d rooms, err %v", n.now.Sub(simEpoch), age, len(l.Rooms), l.Err)
		}
	}
	if got := lob.sent[proto.TypeHello] - hellos; got < 2 {
		t.Fatalf("%d Hellos in 20 s: the cookie was not renewed", got)
	}
	if lob.got[proto.TypeReject] != 0 || n.server.drops[DropBadCookie] != 0 {
		t.Fatalf("%d Rejects, %d bad cookies: a cookie ran out before its renewal", lob.got[proto.TypeReject], n.server.drops[DropBadCookie])
	}

	// A server that never answers.
	dead := n.addLobby(netip.MustParseAddrPort("127.0.0.1:9"), 0xdead, link)
	n.run(lobbyGiveUp - 100*time.Millisecond)
	if l := dead.rooms(); l.Err != nil || !l.Updated.IsZero() {
		t.Fatalf("before %v: err %v, updated %v", lobbyGiveUp, l.Err, l.Updated)
	}
	if dead.sent[proto.TypeHello] < 5 {
		t.Fatalf("%d Hellos in %v: the lobby does not retry", dead.sent[proto.TypeHello], lobbyGiveUp)
	}
	n.run(200 * time.Millisecond)
	if l := dead.rooms(); !errors.Is(l.Err, ErrNoAnswer) {
		t.Fatalf("after %v without an answer: err %v, want ErrNoAnswer", lobbyGiveUp, l.Err)
	}
	if l := lob.rooms(); l.Err != nil {
		t.Fatalf("the live lobby: %v", l.Err)
	}
}

// TestLobbyClientPagesPast255: a ListRooms offset is a u16, so a lobby
// pages through a list of more than 255 rooms (a fleet's) to its end, a
// page at a time, each from where the last ended.
func TestLobbyClientPagesPast255(t *testing.T) {
	const rooms = 700
	server := netip.MustParseAddrPort("192.0.2.1:7777")
	l := NewLobbyClient(server, 0x10bb2)
	var cookie proto.Cookie
	cookie[0] = 0xc0
	now := simEpoch
	var offsets []int
	// answer is the fleet's server: a cookie for a Hello, a page of the
	// rooms from the offset for a ListRooms with that cookie.
	answer := func(d transport.Datagram) []byte {
		h, err := proto.ParseHeader(d.Data)
		if err != nil || d.Addr != server {
			t.Fatalf("the lobby sent %x to %v: %v", d.Data, d.Addr, err)
		}
		switch h.Type {
		case proto.TypeHello:
			c := proto.Challenge{Header: proto.Header{Session: h.Session}, Cookie: cookie}
			return c.Append(nil)
		case proto.TypeListRooms:
			q, err := proto.ParseListRooms(d.Data)
			if err != nil || q.Cookie != cookie {
				t.Fatalf("ListRooms %+v: %v", q, err)
			}
			offsets = append(offsets, int(q.Offset))
			p := proto.RoomList{Header: proto.Header{Session: h.Session}, ClientTime: q.ClientTime, Total: rooms, Offset: q.Offset}
			for i := int(q.Offset); i < rooms; i++ {
				e := proto.RoomEntry{Name: fmt.Sprintf("room %d", i), Seats: 2, Server: fmt.Sprintf("198.51.100.%d:7777", i%200+1)}
				if !p.Fits(&e) {
					break
				}
				p.Rooms = append(p.Rooms, e)
			}
			return p.Append(nil)
		}
		t.Fatalf("the lobby sent a %v", h.Type)
		return nil
	}
	var list RoomList
	out := l.Advance(now)
	for steps := 0; len(out) > 0 || list.Updated.IsZero(); steps++ {
		if steps > 100 {
			t.Fatalf("no list after %d exchanges (offsets %v)", steps, offsets)
		}
		if len(out) == 0 {
			now = now.Add(lobbyRetry)
			out = l.Advance(now)
			continue
		}
		var next []transport.Datagram
		for _, d := range out {
			next = append(next, l.Receive(now, server, answer(d))...)
		}
		out = append(next, l.Advance(now)...)
		l.Rooms(&list)
	}
	if list.Err != nil || list.Total != rooms || len(list.Rooms) != rooms {
		t.Fatalf("the list: %d rooms of %d, err %v; want %d (offsets %v)", len(list.Rooms), list.Total, list.Err, rooms, offsets)
	}
	for i, r := range list.Rooms {
		if want := fmt.Sprintf("room %d", i); r.Name != want {
			t.Fatalf("room %d is %q, want %q", i, r.Name, want)
		}
	}
	if last := offsets[len(offsets)-1]; len(offsets) < 2 || last <= 255 {
		t.Fatalf("the pages came from offsets %v: the test wants one past 255", offsets)
	}
	for i := 1; i < len(offsets); i++ {
		if offsets[i] <= offsets[i-1] {
			t.Fatalf("offsets %v do not move on", offsets)
		}
	}
}
