package netcode

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/internal/ladder"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// playerKey returns a player key made from seed.
func playerKey(seed byte) ed25519.PrivateKey {
	var s [ed25519.SeedSize]byte
	s[0] = seed
	return ed25519.NewKeyFromSeed(s[:])
}

// keyed returns cfg playing as the holder of key.
func keyed(cfg ClientConfig, key ed25519.PrivateKey) ClientConfig {
	cfg.Identify = func(t [32]byte) proto.Identity { return proto.SignIdentity(key, t) }
	return cfg
}

func keyOf(priv ed25519.PrivateKey) ladder.Key {
	k, _ := ladder.KeyOf(priv.Public().(ed25519.PublicKey))
	return k
}

// newLadderNet returns a simnet whose server keeps a ladder in a fresh
// SQLite file.
func newLadderNet(t *testing.T, cfg ServerConfig) (*simnet, *ladder.Store) {
	t.Helper()
	st, err := ladder.Open(filepath.Join(t.TempDir(), "ladder.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg.Ladder = true
	if cfg.Trusted == nil {
		// Every simulated client is at 127.0.0.1: trusted, so that two of
		// them are rated against each other (TestOneAddressRatesNobody).
		cfg.Trusted = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	}
	n := newSimnet(t, cfg)
	n.board = st
	return n, st
}

var lan = transport.Impairment{Latency: 20 * time.Millisecond}

// TestLadderRatesARankedMatch: two keyed players finish a match in a
// ranked room; the ladder records it, both are told their new ratings
// (the winner's up, the loser's down, from 1500), the leaderboard lists
// them with their cards, and a player who asks to be forgotten is.
func TestLadderRatesARankedMatch(t *testing.T) {
	n, st := newLadderNet(t, ServerConfig{Players: 2, Rounds: 1, Seed: 7, ResultsFor: -1, Idle: -1})
	alice, bob := playerKey(1), playerKey(2)
	p := n.addClient(keyed(botClient("alice", 3), alice), lan, lan, 1)
	q := n.addClient(keyed(botClient("bob", 4), bob), lan, lan, 2)
	if !n.runUntil(10*time.Second, n.playing) {
		t.Fatalf("no match: %v / %v", errText(p.c), errText(q.c))
	}
	r := n.server.room0()
	if !r.cfg.Ranked {
		t.Fatal("a room without bots on a server with a ladder is not ranked")
	}
	if ri := r.info(); !ri.Ranked {
		t.Error("the room's listing does not say ranked")
	}
	var winner int8 = -1
	if !n.runUntil(5*time.Minute, func() bool {
		if w := r.match.current(); w != nil && w.State().Round.Phase == game.PhaseMatchOver {
			winner = w.State().Round.Winner
			return true
		}
		return false
	}) {
		t.Fatal("the match did not end in 5 minutes of play")
	}
	var pv, qv View
	if !n.runUntil(5*time.Second, func() bool {
		p.c.View(&pv)
		q.c.View(&qv)
		return len(pv.Rated) == 2 && len(qv.Rated) == 2
	}) {
		t.Fatalf("ratings not told: %v / %v", pv.Rated, qv.Rated)
	}
	t.Logf("match over after %v of virtual time, winner slot %d; ratings %+v", n.now.Sub(simEpoch), winner, pv.Rated)
	for _, ch := range pv.Rated {
		if ch.Before != 1500 {
			t.Errorf("slot %d rated from %d, want 1500", ch.Slot, ch.Before)
		}
		if up := ch.After > ch.Before; up != (int8(ch.Slot) == winner) {
			t.Errorf("slot %d (winner %d): %d → %d", ch.Slot, winner, ch.Before, ch.After)
		}
		if ch.RD >= 350 {
			t.Errorf("slot %d: RD %d did not shrink", ch.Slot, ch.RD)
		}
	}
	ctx := context.Background()
	for name, k := range map[string]ed25519.PrivateKey{"alice": alice, "bob": bob} {
		rec, ok, err := st.Player(ctx, keyOf(k))
		if err != nil || !ok || rec.Matches != 1 || rec.Name != name {
			t.Errorf("%s's record: %+v %v %v", name, rec, ok, err)
		}
	}

	p.c.AskLadder(0, 20, false)
	if !n.runUntil(5*time.Second, func() bool { p.c.View(&pv); return pv.Ladder.Has }) {
		t.Fatal("no LadderPage")
	}
	page := pv.Ladder.Page
	if page.Ranked != 2 || len(page.Lines) != 2 || !page.HasCard || page.Card.Name != "alice" || page.Card.Matches != 1 {
		t.Fatalf("page %+v", page)
	}
	if page.Lines[0].Rank != 1 || page.Lines[0].Rating <= page.Lines[1].Rating {
		t.Errorf("leaderboard out of order: %+v", page.Lines)
	}

	n.run(time.Second) // past the gap between two queries
	p.c.AskLadder(0, 20, true)
	if !n.runUntil(5*time.Second, func() bool { p.c.View(&pv); return pv.Ladder.Has && pv.Ladder.Page.Forgotten }) {
		t.Fatalf("not forgotten: %+v", pv.Ladder)
	}
	if pv.Ladder.Page.HasCard || pv.Ladder.Page.Ranked != 1 {
		t.Errorf("after forgetting: %+v", pv.Ladder.Page)
	}
	if _, ok, _ := st.Player(ctx, keyOf(alice)); ok {
		t.Error("the forgotten record is still in the store")
	}
}

// TestOneAddressRatesNobody: two keys of one address finish a ranked
// match: it is recorded, but neither is rated against the other (one
// machine's two keys are one player farming the other). The players are
// told so: a Rated of the match with nobody in it, which their view
// shows as a match recorded unrated (not as a casual one's silence).
func TestOneAddressRatesNobody(t *testing.T) {
	n, st := newLadderNet(t, ServerConfig{Players: 2, Rounds: 1, Seed: 7, ResultsFor: -1, Idle: -1, Trusted: []netip.Prefix{}})
	a := n.addClient(keyed(botClient("alice", 3), playerKey(1)), lan, lan, 1)
	n.addClient(keyed(botClient("bob", 4), playerKey(2)), lan, lan, 2)
	if !n.runUntil(5*time.Minute, func() bool { return n.server.Stats().Ladder.Recorded == 1 }) {
		t.Fatal("the match was not played out and recorded")
	}
	var v View
	if !n.runUntil(5*time.Second, func() bool { a.c.View(&v); return v.Recorded }) {
		t.Fatal("the player was not told the match was recorded")
	}
	if len(v.Rated) != 0 {
		t.Errorf("told ratings %+v of a match that rated nobody", v.Rated)
	}
	if l := n.server.Stats().Ladder; l.Rated != 0 {
		t.Errorf("a match of one address was rated: %+v", l)
	}
	if n, _ := st.Ranked(context.Background()); n != 0 {
		t.Errorf("%d players ranked", n)
	}
}

// TestLadderNamesBelongToTheirKey: a key that rated under a name holds
// it; another key asking for it is refused with a Reject that says so, a
// guest plays as ~name, and a Request whose proof is of another handshake
// is dropped. A key that never rated holds nothing, and leaves no record.
func TestLadderNamesBelongToTheirKey(t *testing.T) {
	n, st := newLadderNet(t, ServerConfig{Players: 4, Seed: 7, Idle: -1, MaxSeatsPerAddr: 8})
	rateApart(t, st, playerKey(1), playerKey(2), "alice", "bea") // alice rated: her name is hers
	a := n.addClient(keyed(ClientConfig{Name: "alice"}, playerKey(1)), lan, lan, 1)
	if !n.runUntil(5*time.Second, func() bool { return a.c.Status() == StatusWaiting }) {
		t.Fatalf("alice not seated: %v", errText(a.c))
	}
	thief := n.addClient(keyed(ClientConfig{Name: "ALICE"}, playerKey(3)), lan, lan, 2)
	if !n.runUntil(5*time.Second, func() bool { return thief.c.Status() == StatusClosed }) {
		t.Fatalf("another key took alice's name: %v", thief.c.Status())
	}
	if msg := errText(thief.c); msg != `"ALICE" is another player's name here: pick another (--name NEW)` {
		t.Errorf("the refusal says %q; want it to name the name and what to do", msg)
	}
	var refused *RefusedError
	if !errors.As(thief.c.Err(), &refused) || refused.Reason != proto.RejectNameTaken || refused.Name != "ALICE" {
		t.Errorf("the refusal is %#v; want a RefusedError for the name ALICE", thief.c.Err())
	}
	// Nor as a lobby viewer, whose name its chat lines show.
	viewer := n.addClient(keyed(ClientConfig{Name: "alice", Spectate: true, Room: RoomRequest{Kind: RoomLobby, Spectate: true}}, playerKey(7)), lan, lan, 7)
	if !n.runUntil(5*time.Second, func() bool { return viewer.c.Status() == StatusClosed }) {
		t.Fatalf("a lobby viewer of another key took alice's name: %v", viewer.c.Status())
	}
	// bea, refused alice's name in the lobby, takes her place again asking
	// for the name her key holds (the lobby's HeldNameHost does so), and
	// her leaderboard card says she is bea.
	lobbyOf := func(name string, def bool) ClientConfig {
		return keyed(ClientConfig{Name: name, DefaultName: def, Spectate: true, Room: RoomRequest{Kind: RoomLobby, Spectate: true}}, playerKey(2))
	}
	typed := n.addClient(lobbyOf("alice", false), lan, lan, 9)
	if !n.runUntil(5*time.Second, func() bool { return typed.c.Status() == StatusClosed }) {
		t.Fatalf("bea's lobby place took alice's name: %v", typed.c.Status())
	}
	held := n.addClient(lobbyOf("alice", true), lan, lan, 10)
	if !n.runUntil(5*time.Second, func() bool { return held.c.Status() == StatusWaiting || held.c.Status() == StatusPlaying }) {
		t.Fatalf("bea's lobby place under her held name: %v", errText(held.c))
	}
	held.c.AskLadder(0, 0, false)
	var hv View
	if !n.runUntil(5*time.Second, func() bool { held.c.View(&hv); return hv.Ladder.Has }) {
		t.Fatal("bea's lobby place was not answered its card")
	}
	if !hv.Ladder.Page.HasCard || hv.Ladder.Page.Card.Name != "bea" {
		t.Errorf("bea's card in the lobby: %+v", hv.Ladder.Page.Card)
	}
	guest := n.addClient(ClientConfig{Name: "alice"}, lan, lan, 3)
	if !n.runUntil(5*time.Second, func() bool { return guest.c.Status() == StatusWaiting }) {
		t.Fatalf("the guest not seated: %v", errText(guest.c))
	}
	var v View
	guest.c.View(&v)
	if !hasName(v.Names[:], "~alice") || !hasName(v.Names[:], "alice") {
		t.Errorf("roster %q, want alice and ~alice", v.Names)
	}
	// A key with a record, whose client sends only its default name (no
	// --name), keeps the name it holds; the record is not renamed.
	b := n.addClient(keyed(ClientConfig{Name: "login", DefaultName: true}, playerKey(2)), lan, lan, 8)
	if !n.runUntil(5*time.Second, func() bool { return b.c.Status() == StatusWaiting || b.c.Status() == StatusPlaying }) {
		t.Fatalf("bea not seated: %v", errText(b.c))
	}
	b.c.View(&v)
	if !hasName(v.Names[:], "bea") || hasName(v.Names[:], "login") {
		t.Errorf("roster %q: bea's key with a default name should play as bea", v.Names)
	}
	if p, _, _ := st.Player(context.Background(), keyOf(playerKey(2))); p.Name != "bea" {
		t.Errorf("a default name renamed bea's record to %q", p.Name)
	}
	// Two new keys under one name: neither has rated, so neither holds
	// it, and neither leaves a record behind.
	z1 := n.addClient(keyed(ClientConfig{Name: "zed"}, playerKey(5)), lan, lan, 5)
	if !n.runUntil(5*time.Second, func() bool { return z1.c.Status() == StatusWaiting || z1.c.Status() == StatusPlaying }) {
		t.Fatalf("zed not seated: %v", errText(z1.c))
	}
	z1.c.Close()
	n.run(time.Second)
	z2 := n.addClient(keyed(ClientConfig{Name: "Zed"}, playerKey(6)), lan, lan, 6)
	if !n.runUntil(5*time.Second, func() bool { return z2.c.Status() == StatusWaiting || z2.c.Status() == StatusPlaying }) {
		t.Fatalf("a name nobody rated under was refused: %v", errText(z2.c))
	}
	for _, k := range []ed25519.PrivateKey{playerKey(5), playerKey(6)} {
		if _, ok, _ := st.Player(context.Background(), keyOf(k)); ok {
			t.Error("a key that never rated has a record")
		}
	}
	before := n.server.Stats().Drops[DropBadIdentity]
	forger := n.addClient(ClientConfig{Name: "mallory", Identify: func([32]byte) proto.Identity {
		return proto.SignIdentity(playerKey(4), sha256.Sum256([]byte("another handshake")))
	}, ConnectTimeout: 2 * time.Second}, lan, lan, 4)
	n.run(3 * time.Second)
	if forger.c.Status() == StatusWaiting || forger.c.Status() == StatusPlaying {
		t.Error("a Request with another handshake's proof was seated")
	}
	if n.server.Stats().Drops[DropBadIdentity] == before {
		t.Error("the forged identity was not counted as bad-identity")
	}
}

// TestALoginNameHeldByAnotherKeyIsNoRefusal: a new key whose client
// sends only its default name (the login name: the player named nobody)
// is seated under its key's name when another key holds that login name,
// not refused: else a squatter who rated under root, ubuntu, pi and the
// like would turn away every newcomer of that login until they found
// --name. A name the player chose is still refused.
func TestALoginNameHeldByAnotherKeyIsNoRefusal(t *testing.T) {
	n, st := newLadderNet(t, ServerConfig{Players: 4, Seed: 7, Idle: -1, MaxSeatsPerAddr: 8})
	rateApart(t, st, playerKey(1), playerKey(2), "ubuntu", "bea")
	c := n.addClient(keyed(ClientConfig{Name: "ubuntu", DefaultName: true}, playerKey(3)), lan, lan, 1)
	if !n.runUntil(5*time.Second, func() bool { return c.c.Status() == StatusWaiting || c.c.Status() == StatusClosed }) {
		t.Fatalf("no answer: %v", c.c.Status())
	}
	var v View
	c.c.View(&v)
	if want := keyName(keyOf(playerKey(3))); c.c.Status() != StatusWaiting || !hasName(v.Names[:], want) {
		t.Fatalf("a newcomer whose login name is held: %v %q, roster %q; want seated as %s", c.c.Status(), errText(c.c), v.Names, want)
	}
	chose := n.addClient(keyed(ClientConfig{Name: "ubuntu"}, playerKey(4)), lan, lan, 2)
	if !n.runUntil(5*time.Second, func() bool { return chose.c.Status() == StatusClosed }) {
		t.Fatalf("a new key that chose a held name was not refused: %v", chose.c.Status())
	}
}

func hasName(names []string, want string) bool {
	for _, n := range names {
		if n == want {
			return true
		}
	}
	return false
}

// TestLadderVouchedPlayers: a player this server vouches for (an SSH
// player, by their key's fingerprint) plays as that ID; one vouched for
// by a key the server does not know plays as a guest.
func TestLadderVouchedPlayers(t *testing.T) {
	serverKey := playerKey(9)
	n, st := newLadderNet(t, ServerConfig{Players: 4, Seed: 7, Idle: -1, Key: serverKey})
	fp := sha256.Sum256([]byte("an SSH public key"))
	vouched := func(by ed25519.PrivateKey) func([32]byte) proto.Identity {
		return func(t [32]byte) proto.Identity { return proto.VouchIdentity(by, fp, t) }
	}
	a := n.addClient(ClientConfig{Name: "sshuser", Identify: vouched(serverKey)}, lan, lan, 1)
	b := n.addClient(ClientConfig{Name: "stranger", Identify: vouched(playerKey(8))}, lan, lan, 2)
	if !n.runUntil(5*time.Second, func() bool { return a.c.Status() == StatusWaiting && b.c.Status() == StatusWaiting }) {
		t.Fatalf("not seated: %v / %v", errText(a.c), errText(b.c))
	}
	var v View
	a.c.View(&v)
	if !hasName(v.Names[:], "sshuser") || !hasName(v.Names[:], "~stranger") {
		t.Errorf("roster %q, want sshuser and ~stranger", v.Names)
	}
	whoOf := map[string]ladder.Key{}
	n.server.rooms.each(func(r *room) {
		r.places().each(func(l *link, slot int) { whoOf[l.name] = l.who })
	})
	if whoOf["sshuser"] != ladder.Key(fp) || !whoOf["~stranger"].IsZero() {
		t.Errorf("seated as %x and %x; want the fingerprint and a guest", whoOf["sshuser"], whoOf["~stranger"])
	}
	if _, ok, _ := st.Player(context.Background(), ladder.Key(fp)); ok {
		t.Error("a vouched player who never rated has a record")
	}
}

// rateApart gives the player of winner a high rating and loser a low one: four
// rated matches of one against the other.
func rateApart(t *testing.T, st *ladder.Store, winner, loser ed25519.PrivateKey, wname, lname string) {
	t.Helper()
	for range 4 {
		if _, err := st.RecordMatch(context.Background(), ladder.Match{Room: "x", Rounds: 1, Players: []ladder.MatchPlayer{
			{Key: keyOf(winner), Name: wname, Slot: 0, RoundWins: 1}, {Key: keyOf(loser), Name: lname, Slot: 1}}}); err != nil {
			t.Fatal(err)
		}
	}
}

// roomOf returns the room the server seated the client of name in, "" if
// none.
func roomOf(n *simnet, name string) string {
	in := ""
	n.server.rooms.each(func(r *room) {
		r.places().each(func(l *link, slot int) {
			if slot >= 0 && l.name == name {
				in = r.opened().name
			}
		})
	})
	return in
}

// TestQuickMatchBySkill: on a busy server a quick match seats a player
// with the players near their rating, in a room of their own if no room
// is near; on a quiet one (fewer recent arrivals than twice a room's
// seats) two players
// far apart still play each other rather than wait apart.
func TestQuickMatchBySkill(t *testing.T) {
	keys := map[string]ed25519.PrivateKey{"hi1": playerKey(11), "lo1": playerKey(12), "hi2": playerKey(13), "lo2": playerKey(14)}
	prime := func(st *ladder.Store) {
		rateApart(t, st, keys["hi1"], keys["lo1"], "hi1", "lo1")
		rateApart(t, st, keys["hi2"], keys["lo2"], "hi2", "lo2")
	}
	join := func(t *testing.T, n *simnet, name string) {
		t.Helper()
		var c *simClient
		if k, ok := keys[name]; ok {
			c = n.addClient(keyed(ClientConfig{Name: name}, k), lan, lan, uint64(len(n.clients)+1))
		} else {
			c = n.addClient(ClientConfig{Name: name}, lan, lan, uint64(len(n.clients)+1))
		}
		if !n.runUntil(5*time.Second, func() bool { st := c.c.Status(); return st == StatusWaiting || st == StatusPlaying }) {
			t.Fatalf("%s not seated: %v", name, errText(c.c))
		}
	}

	t.Run("busy", func(t *testing.T) {
		n, st := newLadderNet(t, ServerConfig{Players: 2, Seed: 7, Idle: -1, MaxRooms: 8, Rooms: 1, MaxSeatsPerAddr: 16, MaxRoomsPerAddr: 16})
		prime(st)
		for _, g := range []string{"g1", "g2", "g3", "g4"} {
			join(t, n, g) // four guests fill rooms a and b: traffic
		}
		join(t, n, "hi1")
		join(t, n, "lo1")
		join(t, n, "hi2")
		hi1, lo1, hi2 := roomOf(n, "hi1"), roomOf(n, "lo1"), roomOf(n, "hi2")
		if hi1 == "" || hi1 != hi2 || lo1 == hi1 {
			t.Errorf("rooms: hi1 %q, hi2 %q, lo1 %q; want the two high players together, the low one apart", hi1, hi2, lo1)
		}
	})
	t.Run("quiet", func(t *testing.T) {
		n, st := newLadderNet(t, ServerConfig{Players: 2, Seed: 7, Idle: -1, MaxRooms: 8, Rooms: 1, MaxSeatsPerAddr: 16, MaxRoomsPerAddr: 16})
		prime(st)
		join(t, n, "hi1")
		join(t, n, "lo1")
		if a, b := roomOf(n, "hi1"), roomOf(n, "lo1"); a == "" || a != b {
			t.Errorf("on a quiet server: hi1 in %q, lo1 in %q; want one room", a, b)
		}
	})
	// The rooms of --rooms stay open, empty: an empty room is a room of
	// one's own as much as a new one, and on a quiet server a player
	// far from the one who waits does not take it and wait apart.
	t.Run("quiet, rooms open", func(t *testing.T) {
		n, st := newLadderNet(t, ServerConfig{Players: 2, Seed: 7, Idle: -1, MaxRooms: 8, Rooms: 2, MaxSeatsPerAddr: 16, MaxRoomsPerAddr: 16})
		prime(st)
		join(t, n, "lo1")
		n.run(4 * time.Second)
		join(t, n, "hi1")
		if a, b := roomOf(n, "lo1"), roomOf(n, "hi1"); a == "" || a != b {
			t.Errorf("on a quiet server with rooms a and b open: lo1 in %q, hi1 in %q; want one room", a, b)
		}
	})
	// A player who waits in a casual room is not left there while the
	// next takes an empty ranked room, on a quiet server.
	t.Run("quiet, a casual room waits", func(t *testing.T) {
		n, st := newLadderNet(t, ServerConfig{Players: 2, Seed: 7, Idle: -1, MaxRooms: 8, Rooms: 1, MaxSeatsPerAddr: 16, MaxRoomsPerAddr: 16})
		prime(st)
		c := n.addClient(keyed(ClientConfig{Name: "lo1", Room: RoomRequest{Kind: RoomCreate, Spec: RoomSpec{Name: "den", Casual: true}}}, keys["lo1"]), lan, lan, 1)
		if !n.runUntil(5*time.Second, func() bool { return c.c.Status() == StatusWaiting }) {
			t.Fatalf("lo1 not seated in den: %v", errText(c.c))
		}
		join(t, n, "hi1")
		if a, b := roomOf(n, "lo1"), roomOf(n, "hi1"); a != "den" || b != "den" {
			t.Errorf("on a quiet server: lo1 in %q, hi1 in %q; want both in den", a, b)
		}
	})
}

// TestRecordingRatesAKeyWhoseNameWasTaken: the name a keyed player
// played a match under was taken meanwhile by another key that rated
// under it (two new keys played under one name and the other rated first;
// or the player renamed their key in another place and an accomplice
// rated under the old name, to void a losing match). The match is rated
// all the same: the player under the name their record holds, or, with
// no record, their key's name; only a key whose own name is taken too
// plays it unrated. A key in two seats is rated in neither, the others as
// they would be.
func TestRecordingRatesAKeyWhoseNameWasTaken(t *testing.T) {
	st, err := ladder.Open(filepath.Join(t.TempDir(), "ladder.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	rateApart(t, st, playerKey(1), playerKey(2), "ann", "bea")
	m := ladder.Match{Room: "r", Rounds: 1, Players: []ladder.MatchPlayer{
		{Key: keyOf(playerKey(3)), Name: "Ann", Slot: 0, RoundWins: 1},
		{Key: keyOf(playerKey(4)), Name: "cy", Slot: 1},
		{Key: keyOf(playerKey(5)), Name: "dee", Slot: 2},
	}}
	res := RunLadderJob(st, LadderJob{Kind: LadderRecord, Match: m})
	if res.Err != nil || !res.Outcome.Rated {
		t.Fatalf("the match was not rated: %+v %v", res.Outcome, res.Err)
	}
	for i, o := range res.Outcome.Players {
		if !o.Rated {
			t.Errorf("player %d (%s) unrated", i, o.Name)
		}
	}
	late, _, _ := st.Player(ctx, keyOf(playerKey(3)))
	if want := keyName(keyOf(playerKey(3))); late.Name != want || late.Matches != 1 || late.Wins != 1 {
		t.Errorf("the late Ann's record: %+v; want one won match under %q", late, want)
	}
	if p, _, _ := st.Player(ctx, keyOf(playerKey(1))); p.Name != "ann" || p.Matches != 4 {
		t.Errorf("ann's record changed: %+v", p)
	}

	// bea, who has a record, renames herself in another place while she
	// loses a match as "bea", and another key rates under "bea".
	if err := st.ClaimName(ctx, keyOf(playerKey(2)), "bea2"); err != nil {
		t.Fatal(err)
	}
	rateApart(t, st, playerKey(6), playerKey(7), "bea", "eve")
	before, _, _ := st.Player(ctx, keyOf(playerKey(2)))
	res = RunLadderJob(st, LadderJob{Kind: LadderRecord, Match: ladder.Match{Room: "r", Rounds: 1, Players: []ladder.MatchPlayer{
		{Key: keyOf(playerKey(2)), Name: "bea", Slot: 0},
		{Key: keyOf(playerKey(1)), Name: "ann", Slot: 1, RoundWins: 1},
	}}})
	if res.Err != nil || !res.Outcome.Rated || !res.Outcome.Players[0].Rated || !res.Outcome.Players[1].Rated {
		t.Fatalf("bea voided the match she lost: %+v %v", res.Outcome, res.Err)
	}
	if p, _, _ := st.Player(ctx, keyOf(playerKey(2))); p.Name != "bea2" || p.Matches != before.Matches+1 || p.Rating.R >= before.Rating.R {
		t.Errorf("bea's record: %+v; want bea2 rated down from %+v", p, before)
	}

	// One key in two seats: unrated in both, the others rated.
	m.Players[0] = ladder.MatchPlayer{Key: keyOf(playerKey(5)), Name: "dee", Slot: 0, RoundWins: 1}
	m.Players = append(m.Players, ladder.MatchPlayer{Key: keyOf(playerKey(8)), Name: "fay", Slot: 3})
	res = RunLadderJob(st, LadderJob{Kind: LadderRecord, Match: m})
	if res.Err != nil || !res.Outcome.Rated || res.Outcome.Players[0].Rated || res.Outcome.Players[2].Rated || !res.Outcome.Players[1].Rated {
		t.Errorf("a key in two seats: %+v %v", res.Outcome, res.Err)
	}
}

// TestQuitterForfeits: a rated player who quits a ranked match that has
// begun is recorded, once the others finish it, as its last, and loses
// rating: a quit is no escape from a loss.
func TestQuitterForfeits(t *testing.T) {
	n, st := newLadderNet(t, ServerConfig{Players: 3, Rounds: 1, Seed: 7, ResultsFor: -1, Idle: -1, MaxSeatsPerAddr: 8})
	a := n.addClient(keyed(botClient("ann", 3), playerKey(1)), lan, lan, 1)
	b := n.addClient(keyed(botClient("bob", 4), playerKey(2)), lan, lan, 2)
	q := n.addClient(keyed(ClientConfig{Name: "quitter"}, playerKey(3)), lan, lan, 3)
	r := n.server.room0()
	if !n.runUntil(20*time.Second, func() bool {
		return n.playing() && !r.match.counting() && r.match.current().State().Round.Phase == game.PhasePlaying
	}) {
		t.Fatalf("no match: %v / %v / %v", errText(a.c), errText(b.c), errText(q.c))
	}
	n.run(time.Second)
	q.c.Close()
	if !n.runUntil(5*time.Minute, func() bool { return r.match.over() && n.server.Stats().Ladder.Recorded == 1 }) {
		t.Fatal("the match was not played out and recorded")
	}
	ctx := context.Background()
	p, ok, err := st.Player(ctx, keyOf(playerKey(3)))
	if err != nil || !ok || p.Matches != 1 || p.Rating.R >= 1500 || p.Wins != 0 {
		t.Errorf("the quitter's record: %+v %v %v; want one match, rated down", p, ok, err)
	}
	for _, k := range []ed25519.PrivateKey{playerKey(1), playerKey(2)} {
		if p, _, _ := st.Player(ctx, keyOf(k)); p.Matches != 1 {
			t.Errorf("%s: %d matches", p.Name, p.Matches)
		}
	}
}

// TestQuitterForfeitsADuel: in a duel the match left to one tank would
// wait for another; it is recorded when the quitter leaves: the one who
// stayed wins it and is told its rating change while it waits, the
// quitter loses, and that match is over for the ladder: the quitter,
// back, starts a new match from 0-0, which is recorded in its turn.
func TestQuitterForfeitsADuel(t *testing.T) {
	n, st := newLadderNet(t, ServerConfig{Players: 2, Rounds: 1, Seed: 7, ResultsFor: -1, Idle: -1})
	stayer := n.addClient(keyed(botClient("stayer", 3), playerKey(1)), lan, lan, 1)
	q := n.addClient(keyed(ClientConfig{Name: "quitter"}, playerKey(2)), lan, lan, 2)
	r := n.server.room0()
	if !n.runUntil(20*time.Second, func() bool {
		return n.playing() && !r.match.counting() && r.match.current().State().Round.Phase == game.PhasePlaying
	}) {
		t.Fatal("no match")
	}
	n.run(time.Second)
	q.c.Close()
	if !n.runUntil(5*time.Second, func() bool { return n.server.Stats().Ladder.Recorded == 1 }) {
		t.Fatal("the duel its quitter left was not recorded")
	}
	ctx := context.Background()
	s, _, _ := st.Player(ctx, keyOf(playerKey(1)))
	l, _, _ := st.Player(ctx, keyOf(playerKey(2)))
	if s.Wins != 1 || s.Rating.R <= 1500 || l.Matches != 1 || l.Rating.R >= 1500 {
		t.Errorf("stayer %+v, quitter %+v", s, l)
	}
	var v View
	if !n.runUntil(5*time.Second, func() bool { stayer.c.View(&v); return len(v.Rated) == 1 }) {
		t.Fatalf("the one who stayed was not told the rating: %+v", v.Rated)
	}
	if v.World.Round.Phase != game.PhaseWaiting {
		t.Errorf("told in phase %v, want the wait for an opponent", v.World.Round.Phase)
	}
	if ch := v.Rated[0]; int(ch.Slot) != v.Slot || ch.After <= ch.Before {
		t.Errorf("told %+v, want the stayer's (slot %d) rating up", ch, v.Slot)
	}
	n.run(10 * time.Second)
	if got := n.server.Stats().Ladder.Recorded; got != 1 {
		t.Errorf("%d records of one match", got)
	}
	settled := r.match.matchID()
	back := n.addClient(keyed(botClient("quitter", 5), playerKey(2)), lan, lan, 4)
	if !n.runUntil(20*time.Second, func() bool {
		return r.match.matchID() != settled && r.match.live() && !r.match.counting()
	}) {
		t.Fatalf("the quitter back did not start a new match: %v", errText(back.c))
	}
	for i, tk := range r.match.current().State().Tanks[:2] {
		if tk.Score != 0 || !tk.Seated {
			t.Errorf("slot %d in the new match: score %d, seated %v", i, tk.Score, tk.Seated)
		}
	}
	if !n.runUntil(5*time.Minute, func() bool { return n.server.Stats().Ladder.Recorded == 2 }) {
		t.Fatal("the new match was not recorded")
	}
	if s, _, _ := st.Player(ctx, keyOf(playerKey(1))); s.Matches != 2 {
		t.Errorf("the stayer has %d matches, want 2", s.Matches)
	}
}
