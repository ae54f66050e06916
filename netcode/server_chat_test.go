package netcode

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// chatLines returns the lines c's View shows, as "name: text" (a
// spectator's marked, our own starred).
func chatLines(c *simClient) []string {
	var v View
	c.c.View(&v)
	var out []string
	for _, e := range v.Chat[:v.ChatN] {
		s := e.Name + ": " + e.Text
		if e.Spectator {
			s = "[spectator] " + s
		}
		if e.Own {
			s = "*" + s
		}
		out = append(out, s)
	}
	return out
}

// say sends text as c's line at the simnet's now.
func (n *simnet) say(c *simClient, text string) error {
	out, err := c.c.Say(n.now, text)
	n.route(c.addr, c.up, out)
	return err
}

// chatRoom is a running 2-seat room (p and q) with a spectator s, over
// links with loss.
func chatRoom(t *testing.T, cfg ServerConfig, link transport.Impairment) (n *simnet, p, q, s *simClient) {
	return chatRoomSeeded(t, cfg, link, 1)
}

// chatRoomSeeded is chatRoom with the links' losses drawn from seed.
func chatRoomSeeded(t *testing.T, cfg ServerConfig, link transport.Impairment, seed uint64) (n *simnet, p, q, s *simClient) {
	t.Helper()
	cfg.Players, cfg.Seed = 2, 7
	n = newSimnet(t, cfg)
	// Three addresses: the operator's mute and the chat budgets count
	// prefixes.
	p = n.addClient(ClientConfig{Name: "p"}, link, link, seed)
	p.addr = netip.MustParseAddrPort("127.0.1.1:20000")
	q = n.addClient(ClientConfig{Name: "q"}, link, link, seed+1)
	q.addr = netip.MustParseAddrPort("127.0.1.2:20000")
	if !n.runUntil(10*time.Second, n.playing) {
		t.Fatalf("no match: %v %v", errText(p.c), errText(q.c))
	}
	s = n.addClient(ClientConfig{Name: "s", Spectate: true}, link, link, seed+2)
	s.addr = netip.MustParseAddrPort("127.0.1.3:20000")
	if !n.runUntil(10*time.Second, func() bool { return s.c.Status() == StatusPlaying }) {
		t.Fatalf("the spectator is %v", errText(s.c))
	}
	return n, p, q, s
}

// TestChatInTheRoom: under 20% loss both ways (five draws of the
// losses), each of 20 lines said one a second by p, q and the spectator
// in turn reaches every peer of the room exactly once, in order, with its
// sayer's name (the spectator's marked) and the sayer's own copy marked
// its own; what the sayer typed is cleaned before anyone sees it.
func TestChatInTheRoom(t *testing.T) {
	for seed := uint64(1); seed <= 13; seed += 3 {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { chatInTheRoom(t, seed) })
	}
}

func chatInTheRoom(t *testing.T, seed uint64) {
	lossy := transport.Impairment{Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.2}
	n, p, q, s := chatRoomSeeded(t, ServerConfig{}, lossy, seed)
	sayers := []*simClient{p, q, s}
	var want []string
	for i := range 20 {
		c := sayers[i%3]
		text := fmt.Sprintf("line %d\u202e\x07 from  %s", i, c.c.cfg.Name) // a bidi override, a bell, two spaces
		if err := n.say(c, text); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		name := c.c.cfg.Name
		if c == s {
			name = "[spectator] " + name
		}
		want = append(want, fmt.Sprintf("%s: line %d from %s", name, i, c.c.cfg.Name))
		n.run(1100 * time.Millisecond)
	}
	want = want[len(want)-ChatKeep:]
	for _, c := range sayers {
		got := chatLines(c)
		for i := range got {
			got[i] = strings.TrimPrefix(got[i], "*")
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s sees\n%s\nwant\n%s", c.c.cfg.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		var v View
		c.c.View(&v)
		if v.ChatTotal != 20 {
			t.Errorf("%s was shown %d lines, want 20 (each once)", c.c.cfg.Name, v.ChatTotal)
		}
		for _, e := range v.Chat[:v.ChatN] {
			if e.Own != (e.Name == c.c.cfg.Name) {
				t.Errorf("%s: line %q marked own %v", c.c.cfg.Name, e.Text, e.Own)
			}
		}
	}
	t.Logf("20 lines at 20%% loss each way: all shown once to all three; %d datagrams dropped as duplicates", n.server.Stats().Drops[DropDuplicate])
}

// TestChatFloodIsRateLimited: a client that sends 100 lines a second
// (its own budget bypassed, each line numbered anew) gets at most the
// budget through: 3 at once, then one a second; the rest are dropped and
// counted, and the flooder is told why, at most once a second.
func TestChatFloodIsRateLimited(t *testing.T) {
	n, p, q, _ := chatRoom(t, ServerConfig{}, transport.Impairment{Latency: 10 * time.Millisecond})
	for i := range 300 { // 3 s at 100 a second
		p.c.out.reset()
		p.c.chat.nextID++
		p.c.sendChat(&proto.Chat{ID: p.c.chat.nextID, Text: fmt.Sprintf("spam %d", i)})
		n.route(p.addr, p.up, p.c.out.datagrams())
		n.run(10 * time.Millisecond)
	}
	n.run(time.Second)
	var v View
	q.c.View(&v)
	notices := 0
	p.c.View(&v)
	for _, e := range v.Chat[:v.ChatN] {
		if e.From == -2 {
			notices++
		}
	}
	var qv View
	q.c.View(&qv)
	// 3 at once, then one a second for 3 s: at most 6 (7 with a second's edge).
	if qv.ChatTotal < 3 || qv.ChatTotal > 7 {
		t.Fatalf("a flood of 300 lines in 3 s delivered %d to q; want the budget (3 + 1 a second)", qv.ChatTotal)
	}
	if d := n.server.Stats().Drops[DropChat]; d < 290 {
		t.Fatalf("%d lines dropped as over the budget, want at least 290", d)
	}
	if notices < 1 || notices > 4 {
		t.Fatalf("the flooder got %d notices in 3 s; want one a second at most, and at least one", notices)
	}
	t.Logf("300 lines in 3 s: %d delivered, %d dropped, %d notices", qv.ChatTotal, n.server.Stats().Drops[DropChat], notices)

	// The client's own budget refuses the same way before sending.
	var err error
	for range 10 {
		if err = n.say(q, "hi"); err != nil {
			break
		}
	}
	if !errors.Is(err, ErrChatSlow) {
		t.Fatalf("ten lines at once from a client: %v, want ErrChatSlow", err)
	}
}

// TestChatRefusesHostileLines: a line of nothing but control characters
// and overrides is refused by the client; one sent anyway, a 481-byte
// line and a line of invalid UTF-8 are dropped by the server and reach
// nobody; a 10 KB line cannot even be said.
func TestChatRefusesHostileLines(t *testing.T) {
	n, p, q, _ := chatRoom(t, ServerConfig{}, transport.Impairment{Latency: 10 * time.Millisecond})
	if err := n.say(p, "\x1b[2J\u202e\u200b\x07"); !errors.Is(err, proto.ErrChat) {
		t.Fatalf("a line of controls: %v, want ErrChat", err)
	}
	if err := n.say(p, strings.Repeat("x", 10<<10)); !errors.Is(err, proto.ErrChat) {
		t.Fatalf("a 10 KB line: %v, want ErrChat", err)
	}
	before := n.server.Stats().Drops
	for i, text := range []string{"\x1b[2J\u202e", strings.Repeat("y", proto.MaxChatBytes+1), "a\xffb\xfe"} {
		p.c.out.reset()
		p.c.sendChat(&proto.Chat{ID: uint32(100 + i), Text: text})
		n.route(p.addr, p.up, p.c.out.datagrams())
		n.run(300 * time.Millisecond)
	}
	after := n.server.Stats().Drops
	if got := after[DropChat] - before[DropChat]; got != 3 {
		t.Fatalf("%d hostile lines dropped as chat, want 3", got)
	}
	var v View
	q.c.View(&v)
	if v.ChatTotal != 0 {
		t.Fatalf("q was shown %d lines: %q", v.ChatTotal, chatLines(q))
	}
}

// TestMutedPlayerReachesNobody: the operator's mute keeps every line of
// the muted player from every other peer (the player is told so), the
// others still talk, and unmuting lets the player talk again. With chat
// off, nobody's line goes anywhere.
func TestMutedPlayerReachesNobody(t *testing.T) {
	n, p, q, s := chatRoom(t, ServerConfig{}, transport.Impairment{Latency: 10 * time.Millisecond})
	if !n.server.Mute("a", p.c.Slot(), true) {
		t.Fatal("Mute found no player")
	}
	for i := range 5 {
		_ = n.say(p, fmt.Sprintf("muted %d", i))
		n.run(1100 * time.Millisecond)
	}
	if err := n.say(q, "hello"); err != nil {
		t.Fatal(err)
	}
	n.run(time.Second)
	for _, c := range []*simClient{q, s} {
		for _, l := range chatLines(c) {
			if strings.Contains(l, "muted") {
				t.Fatalf("%s saw the muted player's line %q", c.c.cfg.Name, l)
			}
		}
		if got := chatLines(c); len(got) != 1 || !strings.HasSuffix(got[0], "q: hello") {
			t.Fatalf("%s sees %q, want only q's hello", c.c.cfg.Name, got)
		}
	}
	if got := strings.Join(chatLines(p), "\n"); !strings.Contains(got, "server: the operator muted you") {
		t.Fatalf("the muted player was not told:\n%s", got)
	}
	n.server.Mute("a", p.c.Slot(), false)
	_ = n.say(p, "back")
	n.run(time.Second)
	if got := chatLines(q); got[len(got)-1] != "p: back" {
		t.Fatalf("after unmuting, q sees %q", got)
	}

	off, p2, q2, _ := chatRoom(t, ServerConfig{NoChat: true}, transport.Impairment{Latency: 10 * time.Millisecond})
	_ = off.say(p2, "anyone?")
	off.run(time.Second)
	if got := chatLines(q2); len(got) != 0 {
		t.Fatalf("with chat off q sees %q", got)
	}
	if got := strings.Join(chatLines(p2), "\n"); !strings.Contains(got, "chat is off") {
		t.Fatalf("with chat off the sayer sees %q", got)
	}
}

// TestLobbyChat: two of the lobby's viewers talk to each other; the
// lobby's chat room is in no room list, takes no seat, and a quick match
// never lands in it; a line said in a game room does not reach the
// lobby, nor one said in the lobby the game room.
func TestLobbyChat(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Seed: 7})
	link := transport.Impairment{Latency: 20 * time.Millisecond, Loss: 0.1}
	lobby := ClientConfig{Room: RoomRequest{Kind: RoomLobby}, Spectate: true}
	la, lb := lobby, lobby
	la.Name, lb.Name = "ann", "ben"
	a := n.addClient(la, link, link, 1)
	b := n.addClient(lb, link, link, 2)
	p := n.addClient(ClientConfig{Name: "p"}, link, link, 3)
	if !n.runUntil(5*time.Second, func() bool {
		return a.c.Status() == StatusWaiting && b.c.Status() == StatusWaiting && p.c.Status() == StatusWaiting
	}) {
		t.Fatalf("not in: %v %v %v", errText(a.c), errText(b.c), errText(p.c))
	}
	if st := n.server.Stats(); st.LobbyViewers != 2 || len(st.Rooms) != 1 || len(st.Players) != 1 {
		t.Fatalf("%d lobby viewers, %d rooms, %d players; want 2, 1 (the game room), 1", st.LobbyViewers, len(st.Rooms), len(st.Players))
	}
	var list proto.RoomList
	n.server.rooms.page(&list, func(string) bool { return false })
	if list.Total != 1 || list.Rooms[0].Name != "a" {
		t.Fatalf("the room list: %+v; want room a alone", list)
	}
	if err := n.say(a, "anyone for a match?"); err != nil {
		t.Fatal(err)
	}
	if err := n.say(p, "waiting in a"); err != nil {
		t.Fatal(err)
	}
	n.run(2 * time.Second)
	if got := chatLines(b); len(got) != 1 || got[0] != "ann: anyone for a match?" {
		t.Fatalf("ben sees %q", got)
	}
	if got := chatLines(p); len(got) != 1 || got[0] != "*p: waiting in a" {
		t.Fatalf("the player in room a sees %q", got)
	}
	q := n.addClient(ClientConfig{Name: "q"}, link, link, 4) // a quick match
	if !n.runUntil(10*time.Second, func() bool { return p.c.Status() == StatusPlaying && q.c.Status() == StatusPlaying }) {
		t.Fatalf("the quick match did not join p in room a: %v", errText(q.c))
	}
	if name, _, _ := q.c.Room(); name != "a" {
		t.Fatalf("a quick match went to room %q", name)
	}
}

// TestChatBudgetsCountThePrefix: neither the operator's mute nor the chat
// budget is shed by taking another place: a muted player's new spectator
// place from the same address reaches nobody, and four places of one
// address saying three lines each at once get no more through than the
// address's budget.
func TestChatBudgetsCountThePrefix(t *testing.T) {
	n, p, q, _ := chatRoom(t, ServerConfig{MaxSpectators: 16, MaxSpectatorsPerAddr: 8}, transport.Impairment{Latency: 10 * time.Millisecond})
	if !n.server.Mute("a", p.c.Slot(), true) {
		t.Fatal("Mute found no player")
	}
	alt := n.addClient(ClientConfig{Name: "p2", Spectate: true}, transport.Impairment{Latency: 10 * time.Millisecond},
		transport.Impairment{Latency: 10 * time.Millisecond}, 40)
	alt.addr = netip.MustParseAddrPort("127.0.1.1:20001") // p's address, another port
	if !n.runUntil(5*time.Second, func() bool { return alt.c.Status() == StatusPlaying }) {
		t.Fatalf("the second place: %v", errText(alt.c))
	}
	_ = n.say(alt, "muted? not me")
	n.run(time.Second)
	for _, l := range chatLines(q) {
		if strings.Contains(l, "not me") {
			t.Fatalf("the muted address's spectator reached q: %q", l)
		}
	}

	// Four places of one address in the lobby (its share there is 8),
	// and a viewer elsewhere who reads them.
	lobby := func(name, addr string, seed uint64) *simClient {
		c := n.addClient(ClientConfig{Name: name, Room: RoomRequest{Kind: RoomLobby}, Spectate: true},
			transport.Impairment{Latency: 10 * time.Millisecond}, transport.Impairment{Latency: 10 * time.Millisecond}, seed)
		c.addr = netip.MustParseAddrPort(addr)
		return c
	}
	reader := lobby("reader", "127.0.2.9:22000", 60)
	many := make([]*simClient, 4)
	for i := range many {
		many[i] = lobby(fmt.Sprintf("w%d", i), fmt.Sprintf("127.0.1.9:%d", 21000+i), uint64(50+i))
	}
	if !n.runUntil(5*time.Second, func() bool {
		for _, c := range append(many, reader) {
			if c.c.Status() != StatusWaiting {
				return false
			}
		}
		return true
	}) {
		t.Fatal("the lobby's viewers did not get in")
	}
	for _, c := range many {
		for j := range 3 {
			_ = n.say(c, fmt.Sprintf("%s line %d", c.c.cfg.Name, j))
		}
	}
	n.run(time.Second)
	var v View
	reader.c.View(&v)
	if v.ChatTotal < 3 || v.ChatTotal > chatPrefixBurst+2 {
		t.Fatalf("four places of one address said 12 lines at once: %d reached the reader, want the address's budget (%d, and 2 a second)", v.ChatTotal, chatPrefixBurst)
	}
	t.Logf("four places of one address, 12 lines at once: %d relayed", v.ChatTotal)
}

// TestChatCopiesAreBounded: a peer that never acknowledges a line (its
// acks lost, or never sent) is sent at most chatRounds copies of it.
func TestChatCopiesAreBounded(t *testing.T) {
	n, p, q, _ := chatRoom(t, ServerConfig{}, transport.Impairment{Latency: 10 * time.Millisecond})
	copies := 0
	n.onServerSend = func(d transport.Datagram) {
		if d.Addr == q.addr && len(d.Data) > proto.SealedHeaderLen {
			if h, ok := proto.ParseSealedHeader(d.Data); ok && h.Type == proto.TypeChatLine {
				copies++
			}
		}
	}
	n.freeze(q, 15*time.Second) // hears nothing, acknowledges nothing
	if err := n.say(p, "are you there?"); err != nil {
		t.Fatal(err)
	}
	n.run(12 * time.Second)
	if copies < 3 || copies > chatRounds {
		t.Fatalf("a peer that never acknowledged was sent %d copies of a line, want 3 to %d", copies, chatRounds)
	}
	t.Logf("a silent peer got %d copies of one line", copies)
}

// TestLobbyViewersIdleOut: a lobby viewer who says nothing for lobbyIdle
// is shown out (a Leave "idle"), so silent viewers cannot hold the
// lobby's places for ever; one who talks keeps its place.
func TestLobbyViewersIdleOut(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Seed: 7})
	link := transport.Impairment{Latency: 20 * time.Millisecond}
	lobby := ClientConfig{Room: RoomRequest{Kind: RoomLobby}, Spectate: true}
	quiet, talker := lobby, lobby
	quiet.Name, talker.Name = "quiet", "talker"
	a := n.addClient(quiet, link, link, 1)
	b := n.addClient(talker, link, link, 2)
	b.addr = netip.MustParseAddrPort("127.0.2.2:20001")
	for elapsed := time.Duration(0); elapsed < lobbyIdle+30*time.Second; elapsed += 4 * time.Minute {
		n.run(4 * time.Minute)
		_ = n.say(b, "still here")
	}
	var ended *EndedError
	if a.c.Status() != StatusClosed || !errors.As(a.c.Err(), &ended) || ended.Reason != proto.LeaveIdle {
		t.Fatalf("the silent viewer after %v: %v (%v), want shown out as idle", lobbyIdle+30*time.Second, a.c.Status(), a.c.Err())
	}
	if b.c.Status() == StatusClosed {
		t.Fatalf("the viewer who talked was shown out: %v", b.c.Err())
	}
}

// TestAFullLobbyTakesANewcomer: viewers of eight addresses hold every
// place of the lobby (each its share); a ninth address still gets one
// (ttytanks top and me ask from there, and me --forget must not wait on
// them): the viewer idle the longest is shown out as idle to make room.
func TestAFullLobbyTakesANewcomer(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2})
	s := w.srv
	var viewers []*rawPeer
	for i := range lobbyPlaces {
		from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 3, byte(1 + i/8)}), uint16(10000+i))
		p := rawHandshake(t, s, w.now, from, uint64(0x5000+i))
		if st, why := p.request(t, s, w.now, proto.Request{Kind: proto.RoomLobby, Spectate: true, Name: "squatter"}); st == nil {
			t.Fatalf("viewer %d refused: %v", i, why)
		}
		viewers = append(viewers, p)
		w.now = w.now.Add(time.Second)
	}
	_ = viewers[len(viewers)-1].send(s, w.now, &proto.Chat{Header: proto.Header{Match: viewers[0].match, Player: proto.SpectatorSlot}, Text: "still here"})
	from := netip.MustParseAddrPort("127.0.4.1:10000")
	p := rawHandshake(t, s, w.now, from, 0x6000)
	var leave *proto.Leave
	for _, d := range s.Receive(w.now, from, p.sealed(&proto.Request{Kind: proto.RoomLobby, Spectate: true, Name: "newcomer"})) {
		if _, b, ok := viewers[0].opened(d); ok {
			if l, err := proto.ParseLeave(b); err == nil {
				leave = &l
			}
		}
		if _, b, ok := p.opened(d); ok {
			if r, err := proto.ParseReject(b); err == nil {
				t.Fatalf("the newcomer to a full lobby was refused: %v", r.Reason)
			}
		}
	}
	if r, _, _ := s.rooms.byConn(from, p.conn); r == nil {
		t.Fatal("the newcomer holds no place in the lobby")
	}
	if leave == nil || leave.Reason != proto.LeaveIdle {
		t.Errorf("the viewer idle the longest was told %+v, want a Leave (idle)", leave)
	}
}
