package netcode

import (
	"bytes"
	"errors"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// loopback trusts the simnet's client addresses (all 127.0.0.1), so the
// per-address caps and the handshake rate limit do not meddle with tests
// that seat more than a household's players.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// roomLink is the path of the room tests: a few milliseconds, no loss.
var roomLink = transport.Impairment{Latency: 10 * time.Millisecond}

// join attaches a client that asks for req and runs until the server has
// answered it (a Start or a refusal).
func (n *simnet) join(req RoomRequest, name string) *simClient {
	n.t.Helper()
	c := n.addClient(ClientConfig{Name: name, Room: req, Spectate: req.Spectate}, roomLink, roomLink, uint64(100+n.added))
	if !n.runUntil(3*time.Second, func() bool { return c.c.Status() != StatusConnecting }) {
		n.t.Fatalf("%s: no answer to its Join (status %v)", name, c.c.Status())
	}
	return c
}

// leave closes c's session and sends its Leave.
func (n *simnet) leave(c *simClient) { n.route(c.addr, c.up, c.c.Close()) }

// roomOf returns the server's room that holds c's session, or nil.
func (n *simnet) roomOf(c *simClient) *room {
	r, _, _ := n.server.rooms.byConn(c.addr, serverConn(c.c))
	return r
}

// serverConn returns the id the server knows c's session by: the id
// of its sealed connection (0 while it has none).
func serverConn(c *Client) uint32 { return c.hs.conn.id }

// refusedWith returns the reason the server refused c's Join (0: not refused).
func refusedWith(c *simClient) proto.RejectReason {
	var re *RefusedError
	if errors.As(c.c.Err(), &re) {
		return re.Reason
	}
	return 0
}

// roomHashes records every room's world hash per tick, by match id.
type roomHashes map[uint32]map[game.Tick]uint64

func (h roomHashes) record(s *Server) {
	for _, r := range s.rooms.list {
		w := r.match.current()
		if w == nil {
			continue
		}
		id := r.match.matchID()
		if h[id] == nil {
			h[id] = map[game.Tick]uint64{}
		}
		h[id][w.Tick()] = w.Hash()
	}
}

// TestRoomsQuickMatch24: 24 clients quick-match at once into 4-seat
// rooms and play: six full rooms, six matches, every client's
// predictions (oracle-exact) equal to its own room's server world, and
// no State or Ack ever carries another room's match id.
func TestRoomsQuickMatch24(t *testing.T) {
	const (
		seed    = 2424
		clients = 24
		seats   = 4
	)
	n := newSimnet(t, ServerConfig{Players: seats, MaxRooms: 64, Seed: 7, Trusted: loopback})
	hashes := roomHashes{}
	n.onServerTick = func() { hashes.record(n.server) }
	// Every State and Ack the server sends goes to a peer of the room
	// whose match id it carries.
	var checkedOut, foreign int
	tap := tapSeals(n.server) // the clear form the server's core wrote, session and match as it meant them
	n.onServerSend = func(d transport.Datagram) {
		h, _, ok := tap.of(d.Data)
		if !ok || (h.Type != proto.TypeState && h.Type != proto.TypeAck) {
			return
		}
		checkedOut++
		r, _, _ := n.server.rooms.byConn(d.Addr, uint32(h.Session))
		switch {
		case r == nil:
			foreign++
			if foreign <= 5 {
				t.Errorf("%v to %v (session %x, match %x): no room holds that peer", h.Type, d.Addr, h.Session, h.Match)
			}
		case h.Match != r.match.matchID():
			foreign++
			if foreign <= 5 {
				t.Errorf("%v to %v of room %s carries match %x, the room's is %x", h.Type, d.Addr, r.name, h.Match, r.match.matchID())
			}
		}
	}
	type pred struct {
		match uint32
		tick  game.Tick
		hash  uint64
	}
	preds := make([][]pred, clients)
	settled := false
	for i := 0; i < clients; i++ {
		i := i
		var sc *simClient
		sc = n.addClient(ClientConfig{
			Name:       "p",
			Predictor:  oracle{seed},
			LocalInput: func(w *game.World, slot int) game.Input { return scripted(seed, slot, w.Tick()) },
			OnPredict: func(s *game.Snapshot) {
				if settled {
					preds[i] = append(preds[i], pred{sc.c.sess.matchID(), s.Tick, game.Hash(s)})
				}
			},
		}, roomLink, roomLink, uint64(31+i))
	}
	if !n.runUntil(10*time.Second, n.playing) {
		for i, c := range n.clients {
			t.Logf("client %d: %v %v", i, c.c.Status(), c.c.Err())
		}
		t.Fatal("the 24 clients are not all playing")
	}

	// Six rooms of four, six matches, each client in its room's.
	rooms := n.server.rooms.list
	if len(rooms) != clients/seats {
		t.Fatalf("%d rooms open, want %d", len(rooms), clients/seats)
	}
	ids := map[uint32]string{}
	for _, r := range rooms {
		if h := r.seats.humans(); h != seats {
			t.Errorf("room %s holds %d players, want %d", r.name, h, seats)
		}
		ids[r.match.matchID()] = r.name
	}
	if len(ids) != clients/seats {
		t.Fatalf("%d distinct match ids among %d rooms", len(ids), len(rooms))
	}
	for i, c := range n.clients {
		r := n.roomOf(c)
		if r == nil {
			t.Fatalf("client %d holds no place", i)
		}
		if got := c.c.sess.matchID(); got != r.match.matchID() {
			t.Fatalf("client %d plays match %x, its room %s is at %x", i, got, r.name, r.match.matchID())
		}
		if name, _, _ := c.c.Room(); name != r.name {
			t.Fatalf("client %d says it is in room %q, the server seats it in %q", i, name, r.name)
		}
	}

	n.run(3 * time.Second) // clock sync settles: inputs arrive in time
	settled = true
	const window = 8 * time.Second
	n.run(window)
	settled = false
	n.run(time.Second) // the servers pass every predicted tick

	const minTicks = 400 // of the 480 in the window
	total, mismatches := 0, 0
	for i := range preds {
		seen := map[game.Tick]bool{}
		for _, p := range preds[i] {
			want, ok := hashes[p.match][p.tick]
			if !ok {
				continue
			}
			total++
			seen[p.tick] = true
			if p.hash != want {
				mismatches++
				if mismatches <= 5 {
					t.Errorf("client %d (room %s) tick %d: predicted %x, its room's server %x", i, ids[p.match], p.tick, p.hash, want)
				}
			}
		}
		if len(seen) < minTicks {
			t.Errorf("client %d: only %d ticks checked against its room, want ≥ %d", i, len(seen), minTicks)
		}
	}
	t.Logf("%d rooms, %d predicted snapshots checked, %d mismatches; %d States and Acks checked for their match id",
		len(rooms), total, mismatches, checkedOut)
	if mismatches > 0 {
		t.Fatalf("%d of %d predicted snapshots differ from their room's server world", mismatches, total)
	}
	if checkedOut < clients*int(window/TickDuration)/2 { // a State every 2 ticks
		t.Fatalf("only %d States and Acks seen leaving the server", checkedOut)
	}
	if foreign > 0 {
		t.Fatalf("%d States or Acks carried a match id not the addressee's room's", foreign)
	}
}

// TestRoomFaultStaysInItsRoom: a panic in room b's step ends b alone: its
// players get "server error", the Faults count is one, the other rooms'
// States keep coming without a gap, and b (a permanent room) is open
// again, empty.
func TestRoomFaultStaysInItsRoom(t *testing.T) {
	var logs bytes.Buffer
	n := newSimnet(t, ServerConfig{Players: 2, Rooms: 3, MaxRooms: 8, Trusted: loopback,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	names := []string{"a", "b", "c"}
	var peers [3][2]*simClient
	for i, name := range names {
		for k := range peers[i] {
			peers[i][k] = n.addClient(ClientConfig{Name: name, Room: RoomRequest{Kind: RoomNamed, Name: name}},
				roomLink, roomLink, uint64(10*i+k+1))
		}
	}
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("the three rooms are not playing")
	}
	n.run(time.Second)
	matches := map[string]uint32{}
	for _, name := range names {
		matches[name] = n.server.RoomMatch(name)
	}

	// States delivered to each client, on the virtual clock.
	lastState := map[*simClient]time.Time{}
	maxGap := map[*simClient]time.Duration{}
	n.onDeliver = func(c *simClient, data []byte) {
		if typeOf(data) != proto.TypeState {
			return
		}
		if last, ok := lastState[c]; ok {
			maxGap[c] = max(maxGap[c], n.now.Sub(last))
		}
		lastState[c] = n.now
	}
	n.run(time.Second)
	ticks := map[*simClient]game.Tick{}
	for _, c := range n.clients {
		ticks[c] = c.c.World().Tick()
	}

	// The poke: the next step of b's match hands the world no inputs,
	// and game.World.Step panics.
	rb := n.server.rooms.byName("b")
	rb.match.inputs = nil
	n.run(2 * time.Second)

	if f := n.server.Stats().Faults; f != 1 {
		t.Fatalf("Faults = %d, want 1", f)
	}
	for _, c := range peers[1] {
		if c.c.Status() != StatusClosed || !errors.Is(c.c.Err(), ErrServerError) {
			t.Errorf("a player of b: status %v, err %v; want closed with ErrServerError", c.c.Status(), c.c.Err())
		}
		if msg := errText(c.c); !strings.Contains(msg, "server error") {
			t.Errorf("a player of b is shown %q", msg)
		}
	}
	for _, i := range []int{0, 2} {
		for _, c := range peers[i] {
			name := names[i]
			if c.c.Status() != StatusPlaying {
				t.Errorf("a player of %s: status %v (%v) after b's fault", name, c.c.Status(), c.c.Err())
			}
			if g := maxGap[c]; g > 100*time.Millisecond || g == 0 {
				t.Errorf("a player of %s: longest gap between States %v, want ≤ 100 ms", name, g)
			}
			if got := c.c.World().Tick(); got.Diff(ticks[c]) < 100 {
				t.Errorf("a player of %s: world went from tick %d to %d in 2 s", name, ticks[c], got)
			}
			if got := c.c.sess.matchID(); got != matches[name] || n.server.RoomMatch(name) != matches[name] {
				t.Errorf("room %s: match %x (client %x), was %x", name, n.server.RoomMatch(name), got, matches[name])
			}
		}
	}
	nb := n.server.rooms.byName("b")
	switch {
	case nb == nil:
		t.Fatal("the permanent room b did not reopen")
	case nb == rb:
		t.Fatal("room b was not replaced after its fault")
	case !nb.permanent || nb.seats.humans() != 0 || nb.seats.spectatorCount() != 0 || nb.match.live():
		t.Fatalf("b reopened as permanent %v with %d players, %d spectators, live %v; want permanent, empty, waiting",
			nb.permanent, nb.seats.humans(), nb.seats.spectatorCount(), nb.match.live())
	case nb.match.matchID() == matches["b"]:
		t.Fatal("b reopened with the match id of the failed match")
	}
	if !strings.Contains(logs.String(), "room=b") || !strings.Contains(logs.String(), "goroutine") {
		t.Fatalf("the fault was not logged with its room and stack:\n%s", logs.String())
	}
	// b takes players again.
	c := n.join(RoomRequest{Kind: RoomNamed, Name: "b"}, "again")
	if c.c.Status() != StatusWaiting || n.roomOf(c) != nb {
		t.Fatalf("a new player of b: status %v (%v)", c.c.Status(), c.c.Err())
	}
}

// TestRoomPlacement: where each kind of Join lands, the refusals, private
// rooms and their codes, the quick spectator, MaxRooms, and the closing
// of idle rooms.
func TestRoomPlacement(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 3, Rooms: 2, MaxRooms: 6, RoomIdle: 2 * time.Second, Trusted: loopback})
	named := func(name string) RoomRequest { return RoomRequest{Kind: RoomNamed, Name: name} }
	in := func(c *simClient, want string) {
		t.Helper()
		if c.c.Status() == StatusClosed {
			t.Fatalf("%s: refused: %v", c.c.cfg.Name, c.c.Err())
		}
		name, _, _ := c.c.Room()
		r := n.roomOf(c)
		if name != want || r == nil || r.name != want {
			got := "<none>"
			if r != nil {
				got = r.name
			}
			t.Fatalf("%s: in room %q (server: %s), want %q", c.c.cfg.Name, name, got, want)
		}
	}
	refused := func(c *simClient, want proto.RejectReason) {
		t.Helper()
		if got := refusedWith(c); c.c.Status() != StatusClosed || got != want {
			t.Fatalf("%s: status %v, err %v; want refused with %v", c.c.cfg.Name, c.c.Status(), c.c.Err(), want)
		}
	}

	// Quick joins go to the fullest public room with a free seat.
	a1 := n.join(named("a"), "a1")
	in(a1, "a")
	b1, b2 := n.join(named("b"), "b1"), n.join(named("b"), "b2")
	in(b1, "b")
	in(b2, "b")
	q1 := n.join(RoomRequest{}, "q1")
	in(q1, "b") // b had 2 of 3, a 1 of 3
	q2 := n.join(RoomRequest{}, "q2")
	in(q2, "a") // b is full
	if n.server.rooms.count() != 2 {
		t.Fatalf("%d rooms open, want the 2 permanent ones", n.server.rooms.count())
	}

	// A quick spectator watches the public room with the most players.
	sp := n.join(RoomRequest{Spectate: true}, "watcher")
	in(sp, "b")
	if sp.c.Slot() != -1 {
		t.Fatalf("the quick spectator took seat %d", sp.c.Slot())
	}

	// Every seat taken: a quick join opens a new room.
	q3 := n.join(RoomRequest{}, "q3")
	in(q3, "a")
	q4 := n.join(RoomRequest{}, "q4")
	in(q4, "c")
	if r := n.server.rooms.byName("c"); r == nil || r.permanent {
		t.Fatal("room c was not opened on demand")
	}

	// A named join creates the room, then joins it.
	d1 := n.join(named("den"), "d1")
	in(d1, "den")
	if d1.c.Status() != StatusWaiting {
		t.Fatalf("d1: status %v, want waiting in its new room", d1.c.Status())
	}
	// A named join of a full room is refused.
	refused(n.join(named("B"), "late"), proto.RejectRoomFull) // names fold case
	// Creating a room whose name is taken is refused.
	refused(n.join(RoomRequest{Kind: RoomCreate, Spec: RoomSpec{Name: "den"}}, "copycat"), proto.RejectRoomTaken)

	// A private room: its code comes in the Start, it is not listed, and
	// its code lets a friend in.
	host := n.join(RoomRequest{Kind: RoomCreate, Spec: RoomSpec{Name: "lair", Private: true}}, "host")
	in(host, "lair")
	_, code, _ := host.c.Room()
	if len(code) != codeLen || strings.Trim(code, codeAlphabet) != "" {
		t.Fatalf("the private room's code is %q, want %d characters of %q", code, codeLen, codeAlphabet)
	}
	entries, total := listAll(t, n.server, n.now, netip.MustParseAddrPort("192.0.2.1:4000"))
	listed := map[string]bool{}
	for _, e := range entries {
		listed[e.Name] = true
	}
	for _, want := range []string{"a", "b", "c", "den"} {
		if !listed[want] {
			t.Errorf("public room %s is not in the list %v", want, entries)
		}
	}
	if listed["lair"] || total != 4 || len(entries) != 4 {
		t.Fatalf("the list (total %d) is %v: want the 4 public rooms, not the private one", total, entries)
	}
	friend := n.join(RoomRequest{Kind: RoomCode, Name: strings.ToLower(code)}, "friend")
	in(friend, "lair")
	if _, got, _ := friend.c.Room(); got != code {
		t.Fatalf("the friend was told code %q, want %q", got, code)
	}
	// A named join of a private room finds no room: it is joined by code.
	refused(n.join(named("lair"), "nosy"), proto.RejectNoRoom)

	// MaxRooms (6): one more opens, then the server is full.
	x1 := n.join(named("x"), "x1")
	in(x1, "x")
	if n.server.rooms.count() != 6 {
		t.Fatalf("%d rooms open, want 6", n.server.rooms.count())
	}
	full := n.join(named("y"), "y1")
	if full.c.Status() != StatusClosed || !errors.Is(full.c.Err(), ErrServerFull) {
		t.Fatalf("a seventh room: status %v, err %v; want ErrServerFull", full.c.Status(), full.c.Err())
	}

	// Idle rooms: x (on demand) closes RoomIdle after its last player
	// left; a (permanent) stays open empty; c (on demand, occupied) stays.
	for _, c := range []*simClient{x1, a1, q2, q3} {
		n.leave(c)
	}
	n.run(1500 * time.Millisecond)
	if n.server.rooms.byName("x") == nil {
		t.Fatal("room x closed before RoomIdle")
	}
	if r := n.server.rooms.byName("a"); r == nil || r.seats.humans() != 0 {
		t.Fatal("room a is not open and empty after its players left")
	}
	n.run(time.Second)
	if n.server.rooms.byName("x") != nil {
		t.Fatal("room x is still open RoomIdle after its last player left")
	}
	for _, name := range []string{"a", "b", "c", "den", "lair"} {
		if n.server.rooms.byName(name) == nil {
			t.Errorf("room %s closed", name)
		}
	}
	// With x closed there is space again.
	in(n.join(named("y"), "y2"), "y")
}
