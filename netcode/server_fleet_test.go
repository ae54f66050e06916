package netcode

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

func fleetKey(b byte) ed25519.PublicKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, ed25519.SeedSize)).Public().(ed25519.PublicKey)
}

func fleetRoom(name string, players, seats int) FleetRoom {
	return FleetRoom{RoomInfo: RoomInfo{Name: name, Players: players, Seats: seats}}
}

// TestFleetPlacement: where a Request goes, by kind, against a view of
// two other servers (B at .2, C at .3; this one is .5).
func TestFleetPlacement(t *testing.T) {
	a := netip.MustParseAddrPort("10.0.0.5:7777")
	b := FleetServer{Addr: netip.MustParseAddrPort("10.0.0.2:7777"), Key: fleetKey(2), Players: 6, Capacity: 100,
		Rooms: []FleetRoom{fleetRoom("den", 3, 4), fleetRoom("full", 4, 4), fleetRoom("shared", 1, 4)}}
	private := fleetRoom("", 1, 4)
	private.Private, private.CodeHash = true, FleetCodeHash("abcd2345")
	c := FleetServer{Addr: netip.MustParseAddrPort("10.0.0.3:7777"), Key: fleetKey(3), Players: 1, Capacity: 100,
		Rooms: []FleetRoom{private, fleetRoom("shared", 2, 4), fleetRoom("attic", 1, 2)}}
	var f fleetDesk
	f.set(FleetView{Self: a, Servers: []FleetServer{b, c, {Addr: a, Key: fleetKey(5)}}})
	if len(f.view.Servers) != 2 {
		t.Fatalf("our own entry kept: %d servers", len(f.view.Servers))
	}
	idle := local{players: 0, capacity: 100, takesRooms: true, quick: -1}
	busy := local{players: 90, capacity: 100, takesRooms: true, quick: -1}
	for _, tc := range []struct {
		name string
		q    proto.Request
		here local
		to   string // "" stays
		kind proto.RoomKind
		room string
	}{
		{"quick takes the fleet's fullest room", proto.Request{Kind: proto.RoomQuick}, idle, "10.0.0.2:7777", proto.RoomNamed, "den"},
		{"quick stays for a fuller local room", proto.Request{Kind: proto.RoomQuick}, local{quick: 3, takesRooms: true, capacity: 100}, "", 0, ""},
		{"a redirected request always stays", proto.Request{Kind: proto.RoomQuick, Redirected: true}, idle, "", 0, ""},
		{"a name lives where it is", proto.Request{Kind: proto.RoomNamed, Room: "DEN"}, idle, "10.0.0.2:7777", proto.RoomNamed, "DEN"},
		{"a name on two servers: the lowest address", proto.Request{Kind: proto.RoomNamed, Room: "shared"}, idle, "10.0.0.2:7777", proto.RoomNamed, "shared"},
		{"a local name of a higher address yields", proto.Request{Kind: proto.RoomNamed, Room: "shared"}, local{named: true, takesRooms: true, capacity: 100}, "10.0.0.2:7777", proto.RoomNamed, "shared"},
		{"a new name opens here when this is the least loaded", proto.Request{Kind: proto.RoomNamed, Room: "new"}, idle, "", 0, ""},
		{"a new name opens on the least loaded", proto.Request{Kind: proto.RoomNamed, Room: "new"}, busy, "10.0.0.3:7777", proto.RoomNamed, "new"},
		{"a spectator of a new name stays (and is refused)", proto.Request{Kind: proto.RoomNamed, Room: "new", Spectate: true}, busy, "", 0, ""},
		{"a code is found by its hash", proto.Request{Kind: proto.RoomCode, Room: "abcd2345"}, idle, "10.0.0.3:7777", proto.RoomCode, "ABCD2345"},
		{"a wrong code stays (and is refused)", proto.Request{Kind: proto.RoomCode, Room: "abcd2346"}, idle, "", 0, ""},
		{"a create goes to the least loaded", proto.Request{Kind: proto.RoomCreate, Room: "mine", Seats: 3, Bots: 1, Private: true}, busy, "10.0.0.3:7777", proto.RoomCreate, "mine"},
		{"a create of a name the fleet has stays (and is refused)", proto.Request{Kind: proto.RoomCreate, Room: "attic"}, busy, "", 0, ""},
		{"the lobby's chat is always here", proto.Request{Kind: proto.RoomLobby, Spectate: true}, busy, "", 0, ""},
	} {
		rd := f.where(&tc.q, tc.here)
		switch {
		case tc.to == "" && rd != nil:
			t.Errorf("%s: sent to %v", tc.name, rd.Addr)
		case tc.to != "" && rd == nil:
			t.Errorf("%s: stayed", tc.name)
		case rd != nil && (rd.Addr.String() != tc.to || rd.Kind != tc.kind || rd.Room != tc.room):
			t.Errorf("%s: %v %v %q, want %s %v %q", tc.name, rd.Addr, rd.Kind, rd.Room, tc.to, tc.kind, tc.room)
		case rd != nil && !bytes.Equal(rd.Key[:], f.view.Servers[map[string]int{"10.0.0.2:7777": 0, "10.0.0.3:7777": 1}[tc.to]].Key):
			t.Errorf("%s: vouches for the wrong key", tc.name)
		}
		if rd != nil && tc.kind == proto.RoomCreate && (rd.Seats != 3 || rd.Bots != 1 || !rd.Private) {
			t.Errorf("%s: settings %d/%d/%v lost", tc.name, rd.Seats, rd.Bots, rd.Private)
		}
	}
	// Draining servers take nothing new; a lost fleet places everything here.
	f.view.Servers[0].Draining, f.view.Servers[1].Draining = true, true
	if rd := f.where(&proto.Request{Kind: proto.RoomQuick}, busy); rd != nil {
		t.Errorf("quick sent to a draining server %v", rd.Addr)
	}
	if !f.nameTaken("attic") || f.nameTaken("loft") {
		t.Error("nameTaken")
	}
	f.set(FleetView{Self: a, Lost: true, Servers: []FleetServer{b, c}})
	if f.others() || f.where(&proto.Request{Kind: proto.RoomNamed, Room: "den"}, idle) != nil {
		t.Error("a lost fleet still redirects")
	}
}

// memFleet is three servers on one in-memory network, each told of the
// others' rooms every 20 ms, as serve --fleet's Redis membership does.
type memFleet struct {
	t       testing.TB
	net     *transport.MemNetwork
	udp     bool // on loopback UDP sockets instead of net
	addrs   []netip.AddrPort
	drivers []*ServerDriver
	keys    []ed25519.PublicKey
	stop    context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	dead    map[int]bool
	thaw    chan struct{} // closed at the end: killed servers' loops go on, to stop
	manual  bool          // the test sets the views itself
}

func newMemFleet(t testing.TB, n int) *memFleet { return newFleetOn(t, n, false, nil) }

// newFleetOn is newMemFleet on loopback UDP if udp, with each server's
// config changed by tweak (nil: none).
func newFleetOn(t testing.TB, n int, udp bool, tweak func(i int, c *ServerConfig)) *memFleet {
	t.Helper()
	f := &memFleet{t: t, net: transport.NewMemNetwork(), udp: udp, dead: map[int]bool{}, thaw: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	f.stop = cancel
	for i := range n {
		st := f.listen()
		priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(10 + i)}, ed25519.SeedSize))
		cfg := ServerConfig{Players: 2, Seed: uint64(7 + i), Key: priv, MaxRooms: 8, Idle: -1}
		if tweak != nil {
			tweak(i, &cfg)
		}
		srv, err := NewServer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sd := NewServerDriver(srv, st)
		f.addrs, f.drivers, f.keys = append(f.addrs, st.LocalAddr()), append(f.drivers, sd), append(f.keys, priv.Public().(ed25519.PublicKey))
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			_ = sd.Run(ctx)
		}()
	}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				f.sync()
			}
		}
	}()
	t.Cleanup(func() {
		close(f.thaw)
		cancel()
		f.wg.Wait()
	})
	return f
}

// kill makes server i silent, as kill -9 would (its loop stops, so it
// tells its peers nothing), and takes it out of the others' views.
func (f *memFleet) kill(i int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dead[i] = true
	stalled := make(chan struct{})
	go f.drivers[i].Do(func(*Server) {
		close(stalled)
		<-f.thaw
	})
	<-stalled
}

// sync gives every live server the view of the other live servers.
func (f *memFleet) sync() {
	f.mu.Lock() // held throughout: a kill waits, so no Do meets a stalled loop
	defer f.mu.Unlock()
	if f.manual {
		return
	}
	dead := f.dead
	servers := make([]FleetServer, len(f.drivers))
	for i, sd := range f.drivers {
		if dead[i] {
			continue
		}
		fs := FleetServer{Addr: f.addrs[i], Key: f.keys[i]}
		sd.Do(func(s *Server) {
			fs.Rooms = s.FleetRooms(nil)
			fs.Players, fs.Capacity, fs.Draining = s.FleetLoad()
		})
		servers[i] = fs
	}
	for i, sd := range f.drivers {
		if dead[i] {
			continue
		}
		v := FleetView{Self: f.addrs[i]}
		for j := range servers {
			if j != i && !dead[j] {
				v.Servers = append(v.Servers, servers[j])
			}
		}
		sd.Do(func(s *Server) { s.SetFleet(v) })
	}
}

// listen returns a new socket on the fleet's network.
func (f *memFleet) listen() transport.Transport {
	if !f.udp {
		return f.net.Listen()
	}
	u, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}

// client starts a bot client that joins through server i.
func (f *memFleet) client(i int, name string, room RoomRequest) *ClientDriver {
	return StartClient(NewClient(ClientConfig{Server: f.addrs[i], Name: name, Room: room,
		LocalInput: func(w *game.World, slot int) game.Input { return scripted(3, slot, w.Tick()) }}), f.listen())
}

// await polls v (bounded) until ok.
func await(t testing.TB, within time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// playsOn reports whether d plays (past tick 60, no hash mismatch) on
// the server at addr.
func playsOn(d *ClientDriver, addr netip.AddrPort) bool {
	var v View
	d.View(&v)
	var at netip.AddrPort
	d.Do(func(c *Client) { at = c.cfg.Server })
	return v.Status == StatusPlaying && v.Metrics.ServerTick > 60 && at == addr && v.Metrics.HashMismatches == 0
}

// TestFleetRedirects: through server 0 a player reaches a named room on
// server 1 and a private room on server 2 by its code, each placed on the
// right server and playing with no hash mismatch; a quick match fills the
// fleet's fullest room.
func TestFleetRedirects(t *testing.T) {
	f := newMemFleet(t, 3)
	host1 := f.client(1, "host1", RoomRequest{Kind: RoomNamed, Name: "den"})
	defer host1.CloseNow()
	host2 := f.client(2, "host2", RoomRequest{Kind: RoomCreate, Spec: RoomSpec{Name: "vault", Private: true}})
	defer host2.CloseNow()
	var code string
	await(t, 5*time.Second, "the private room's code", func() bool {
		host2.Do(func(c *Client) { _, code, _ = c.Room() })
		return code != ""
	})
	f.sync()
	await(t, 2*time.Second, "server 0 sees both rooms", func() bool {
		n := 0
		f.drivers[0].Do(func(s *Server) {
			for _, o := range s.fleet.view.Servers {
				for _, r := range o.Rooms {
					if r.Name == "den" || r.Private {
						n++
					}
				}
			}
		})
		return n == 2
	})
	guest1 := f.client(0, "guest1", RoomRequest{Kind: RoomNamed, Name: "DEN"})
	defer guest1.CloseNow()
	guest2 := f.client(0, "guest2", RoomRequest{Kind: RoomCode, Name: code})
	defer guest2.CloseNow()
	await(t, 10*time.Second, "both guests play on their rooms' servers", func() bool {
		return playsOn(guest1, f.addrs[1]) && playsOn(guest2, f.addrs[2]) && playsOn(host1, f.addrs[1]) && playsOn(host2, f.addrs[2])
	})
	var v View
	guest1.View(&v)
	if v.Room != "den" {
		t.Fatalf("guest1 plays in %q", v.Room)
	}
	redirects := 0
	f.drivers[0].Do(func(s *Server) { redirects = int(s.Stats().Fleet.Redirects) })
	if redirects < 2 {
		t.Fatalf("server 0 counted %d redirects", redirects)
	}
	// A quick match with a free seat on server 1 only ("den" is full, the
	// private room unlisted): a new room, on the least loaded, server 0.
	quick := f.client(0, "quick", RoomRequest{})
	defer quick.CloseNow()
	await(t, 5*time.Second, "the quick player waits on server 0", func() bool {
		var v View
		quick.View(&v)
		var at netip.AddrPort
		quick.Do(func(c *Client) { at = c.cfg.Server })
		return v.Status == StatusWaiting && at == f.addrs[0]
	})
	// Server 1 opens a room with a free seat: the next quick match there.
	lone := f.client(1, "lone", RoomRequest{Kind: RoomNamed, Name: "loft"})
	defer lone.CloseNow()
	await(t, 5*time.Second, "lone waits", func() bool { var v View; lone.View(&v); return v.Status == StatusWaiting })
	f.sync()
	q2 := f.client(2, "q2", RoomRequest{})
	defer q2.CloseNow()
	await(t, 10*time.Second, "a quick match through server 2 fills a one-player room", func() bool {
		var at netip.AddrPort
		q2.Do(func(c *Client) { at = c.cfg.Server })
		var v View
		q2.View(&v)
		return v.Status == StatusPlaying && (at == f.addrs[0] || at == f.addrs[1])
	})
}

// TestRedirectTrustsOnlyTheVouchedKey: a Redirect whose key is not the
// target's ends the session with a KeyError; the target is never trusted
// on its own word.
func TestRedirectTrustsOnlyTheVouchedKey(t *testing.T) {
	f := newMemFleet(t, 2)
	host := f.client(1, "host", RoomRequest{Kind: RoomNamed, Name: "den"})
	defer host.CloseNow()
	await(t, 5*time.Second, "host waits", func() bool { var v View; host.View(&v); return v.Status == StatusWaiting })
	// Server 0 is told server 1 has another key.
	var rooms []FleetRoom
	f.drivers[1].Do(func(s *Server) { rooms = s.FleetRooms(nil) })
	f.mu.Lock()
	f.manual = true
	f.mu.Unlock()
	f.drivers[0].Do(func(s *Server) {
		s.SetFleet(FleetView{Self: f.addrs[0], Servers: []FleetServer{{Addr: f.addrs[1], Key: fleetKey(99), Capacity: 16, Rooms: rooms}}})
	})
	g := f.client(0, "guest", RoomRequest{Kind: RoomNamed, Name: "den"})
	defer g.CloseNow()
	select {
	case <-g.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the session with a wrongly vouched server did not end")
	}
	var ke *KeyError
	if !errors.As(g.Err(), &ke) {
		t.Fatalf("ended with %v, want a KeyError", g.Err())
	}
}

// TestRedirectedPlayerComesBackWhenItsServerDies: a player placed on
// server 1 through server 0 rejoins through server 0 when server 1 dies,
// told so, and plays again.
func TestRedirectedPlayerComesBackWhenItsServerDies(t *testing.T) {
	f := newMemFleet(t, 2)
	host := f.client(1, "host", RoomRequest{Kind: RoomNamed, Name: "den"})
	defer host.CloseNow()
	await(t, 5*time.Second, "host waits", func() bool { var v View; host.View(&v); return v.Status == StatusWaiting })
	f.sync()
	g := f.client(0, "guest", RoomRequest{Kind: RoomNamed, Name: "den"})
	defer g.CloseNow()
	await(t, 10*time.Second, "guest plays on server 1", func() bool { return playsOn(g, f.addrs[1]) })
	f.kill(1)
	f.sync()
	// A bot of server 0 would make it a match; a second player does.
	other := f.client(0, "other", RoomRequest{Kind: RoomNamed, Name: "den"})
	defer other.CloseNow()
	await(t, SilenceReconnecting+fleetGiveUp+10*time.Second, "the guest plays again through server 0", func() bool {
		return playsOn(g, f.addrs[0])
	})
	var v View
	g.View(&v)
	if v.Notice == "" {
		t.Fatal("the guest was not told why it moved")
	}
	t.Logf("told: %s", v.Notice)
}

// BenchmarkFleetHandover: a join through server 0 of a room on server 1,
// over loopback UDP, from the start of the client to the first State
// from server 1 (a Redirect, a second handshake, a place, the State).
// It reports the p50 and p99 of the handovers.
func BenchmarkFleetHandover(b *testing.B) {
	f := newFleetOn(b, 2, true, func(i int, c *ServerConfig) {
		// Every join comes from 127.0.0.1: exempt it from the limits of
		// one address, which players of their own do not meet.
		c.Trusted = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		if i == 1 {
			// Rooms a and b, each a running match of two bots, watched live.
			c.Rooms, c.Bots, c.NewBot = 2, 2, func(int, uint64) InputSource { return walker{} }
		}
	})
	f.sync()
	var took []time.Duration
	for b.Loop() {
		first := make(chan struct{})
		var once sync.Once
		began := time.Now()
		d := StartClient(NewClient(ClientConfig{Server: f.addrs[0], Name: "w", Spectate: true,
			Room:    RoomRequest{Kind: RoomNamed, Name: "b", Spectate: true},
			OnState: func(game.Tick) { once.Do(func() { close(first) }) }}), f.listen())
		select {
		case <-first:
		case <-time.After(5 * time.Second):
			b.Fatal("no State from server 1 in 5 s")
		}
		took = append(took, time.Since(began))
		d.CloseNow()
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}

// TestFleetListsOneRoomPerName: of rooms of one name in the fleet the
// list shows the one a join by that name reaches (the lowest address),
// each with its server, and never a private room.
func TestFleetListsOneRoomPerName(t *testing.T) {
	self := netip.MustParseAddrPort("10.0.0.5:7777")
	private := fleetRoom("", 1, 4)
	private.Private, private.CodeHash = true, FleetCodeHash("abcd2345")
	var f fleetDesk
	f.set(FleetView{Self: self, Servers: []FleetServer{
		{Addr: netip.MustParseAddrPort("10.0.0.2:7777"), Key: fleetKey(2), Rooms: []FleetRoom{fleetRoom("a", 0, 2), fleetRoom("den", 1, 2)}},
		{Addr: netip.MustParseAddrPort("10.0.0.9:7777"), Key: fleetKey(9), Rooms: []FleetRoom{fleetRoom("a", 1, 2), fleetRoom("b", 1, 2), private, fleetRoom("den", 2, 2)}},
	}})
	if !f.elsewhere("a") || f.elsewhere("b") || f.elsewhere("zzz") {
		t.Fatal("elsewhere: this server's a is 10.0.0.2's, its b its own")
	}
	var p proto.RoomList
	local := map[string]bool{"a": true, "b": true}
	p.Total = 1 // the local list: b (a hidden)
	p.Rooms = []proto.RoomEntry{{Name: "b", Seats: 2}}
	f.page(&p, func(name string) bool { return local[name] })
	var got []string
	for _, e := range p.Rooms {
		got = append(got, e.Name+"@"+e.Server)
	}
	want := "b@ a@10.0.0.2:7777 den@10.0.0.2:7777"
	if g := strings.Join(got, " "); g != want || p.Total != 3 {
		t.Fatalf("listed %q (total %d), want %q (3)", g, p.Total, want)
	}
}

// TestFleetViewRefusesHostileRecords: what another server wrote to the
// store is checked before it can place or list anything: servers a client
// cannot dial and rooms that cannot be listed are left out, and the view
// is bounded.
func TestFleetViewRefusesHostileRecords(t *testing.T) {
	self := netip.MustParseAddrPort("10.0.0.5:7777")
	good := fleetRoom("den", 1, 2)
	bad := func(f func(r *FleetRoom)) FleetRoom { r := fleetRoom("bad", 1, 2); f(&r); return r }
	var servers []FleetServer
	for _, a := range []string{"0.0.0.0:0", "0.0.0.0:7777", "224.0.0.1:7777", "10.0.0.7:0", "10.0.0.5:7777"} {
		servers = append(servers, FleetServer{Addr: netip.MustParseAddrPort(a), Key: fleetKey(1), Capacity: 9, Rooms: []FleetRoom{good}})
	}
	servers = append(servers, FleetServer{Addr: netip.MustParseAddrPort("10.0.0.8:7777"), Key: fleetKey(1)[:31], Rooms: []FleetRoom{good}})
	servers = append(servers, FleetServer{Addr: netip.MustParseAddrPort("[::ffff:10.0.0.2]:7777"), Key: fleetKey(2), Capacity: 9, Rooms: []FleetRoom{
		good,
		bad(func(r *FleetRoom) { r.Name = strings.Repeat("x", 300) }),
		bad(func(r *FleetRoom) { r.Name = "a\x1bb" }),
		bad(func(r *FleetRoom) { r.State = 77 }),
		bad(func(r *FleetRoom) { r.Players, r.Seats = 9, 8 }),
		bad(func(r *FleetRoom) { r.Seats = 300 }),
		bad(func(r *FleetRoom) { r.Bots, r.Players = 5, 1 }),
		bad(func(r *FleetRoom) { r.Round = -3 }),
		bad(func(r *FleetRoom) { r.Leader = strings.Repeat("m", 40) }),
		bad(func(r *FleetRoom) { r.Private = true }), // a private room with a name
	}})
	for i := range 300 {
		servers = append(servers, FleetServer{Addr: netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)}), 7777), Key: fleetKey(3)})
	}
	var f fleetDesk
	f.set(FleetView{Self: self, Servers: servers})
	if len(f.view.Servers) != maxFleetServers {
		t.Fatalf("%d servers kept, want the bound %d", len(f.view.Servers), maxFleetServers)
	}
	o := f.view.Servers[0]
	if o.Addr.String() != "10.0.0.2:7777" || len(o.Rooms) != 1 || o.Rooms[0].Name != "den" {
		t.Fatalf("first server kept: %v with %+v", o.Addr, o.Rooms)
	}
	// What is kept places and lists as it should: den is joined by name,
	// quick matches go there, and the page parses.
	if rd := f.where(&proto.Request{Kind: proto.RoomNamed, Room: "den"}, local{quick: -1, takesRooms: true, capacity: 9}); rd == nil || rd.Addr != o.Addr {
		t.Fatalf("den's Redirect: %+v", rd)
	}
	p := proto.RoomList{}
	f.page(&p, func(string) bool { return false })
	if _, err := proto.ParseRoomList(p.Append(nil)); err != nil {
		t.Fatalf("the page does not parse: %v", err)
	}
}

// TestDrainingCountsOnlyOwnRooms: a lobby says its server drains only
// when its own rooms close, not another server's of the fleet.
func TestDrainingCountsOnlyOwnRooms(t *testing.T) {
	l := RoomList{Rooms: []RoomInfo{{Name: "a"}, {Name: "b", Closing: true, Server: "10.0.0.2:7777"}}}
	if l.Draining() {
		t.Fatal("another server's drain is taken for this one's")
	}
	l.Rooms[0].Closing = true
	if !l.Draining() {
		t.Fatal("this server's drain is missed")
	}
}
