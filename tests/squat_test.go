package tests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"sync"
	"testing"
	"time"

	"ttytanks/internal/statsfile"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// squatter is one UDP client of a squatting test, from a source address
// of its own choosing on loopback (any 127.x.y.z is this machine's).
type squatter struct {
	d *netcode.ClientDriver
}

func startSquatter(t *testing.T, local string, server netip.AddrPort, room netcode.RoomRequest) *squatter {
	t.Helper()
	ct, err := transport.ListenUDP(local)
	if err != nil {
		t.Fatal(err)
	}
	d := netcode.StartClient(netcode.NewClient(netcode.ClientConfig{Server: server, Room: room}), ct)
	t.Cleanup(d.Close)
	return &squatter{d: d}
}

// state is the squatter's status, and the reason it was refused (0 if
// it was not).
func (q *squatter) state() (netcode.Status, proto.RejectReason, error) {
	var v netcode.View
	q.d.View(&v)
	var re *netcode.RefusedError
	if err := q.d.Err(); errors.As(err, &re) {
		return v.Status, re.Reason, err
	} else if errors.Is(err, netcode.ErrServerFull) {
		return v.Status, proto.RejectFull, err
	} else if err != nil {
		return v.Status, 0, err
	}
	return v.Status, 0, nil
}

// seated: the squatter holds a seat (waiting for its match, or in it).
func (q *squatter) seated() bool {
	st, _, err := q.state()
	return err == nil && (st == netcode.StatusWaiting || st == netcode.StatusPlaying)
}

// settled: the squatter holds a seat or has been refused.
func (q *squatter) settled() bool {
	_, why, _ := q.state()
	return why != 0 || q.seated()
}

// serveStats reads a binServer's --stats-json file (rewritten every
// --stats-every); false before its first writing.
func serveStats(t *testing.T, s *binServer) (statsfile.Stats, bool) {
	t.Helper()
	var st statsfile.Stats
	b, err := os.ReadFile(s.stats)
	if errors.Is(err, os.ErrNotExist) {
		return st, false
	} else if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("%s: %v", s.stats, err)
	}
	return st, true
}

// squat has each of n addresses (127.0.0.base+i) create up to per rooms
// of spec, one seat in each for itself, and returns the squatters once
// every one is seated or refused, with the counts of refusals by reason.
func squat(t *testing.T, server netip.AddrPort, base, n, per int, spec netcode.RoomSpec) ([]*squatter, map[proto.RejectReason]int) {
	t.Helper()
	var all []*squatter
	for i := 0; i < n; i++ {
		for k := 0; k < per; k++ {
			s := spec
			s.Name = fmt.Sprintf("squat-%d-%d", i, k)
			all = append(all, startSquatter(t, fmt.Sprintf("127.0.0.%d:0", base+i), server,
				netcode.RoomRequest{Kind: netcode.RoomCreate, Spec: s}))
		}
	}
	deadline := time.Now().Add(15 * time.Second)
	for unsettled := all; len(unsettled) > 0; time.Sleep(20 * time.Millisecond) {
		var left []*squatter
		for _, q := range unsettled {
			if !q.settled() {
				left = append(left, q)
			}
		}
		if unsettled = left; len(left) > 0 && time.Now().After(deadline) {
			st, why, err := left[0].state()
			t.Fatalf("%d squatters neither seated nor refused after 15 s; one: %v %v %v", len(left), st, why, err)
		}
	}
	refused := map[proto.RejectReason]int{}
	for _, q := range all {
		if _, why, _ := q.state(); why != 0 {
			refused[why]++
		}
	}
	return all, refused
}

func countSeated(qs []*squatter) int {
	n := 0
	for _, q := range qs {
		if q.seated() {
			n++
		}
	}
	return n
}

// TestSquattersCannotKeepANewPlayerOut: 17 addresses each create up to 4
// rooms of 2 seats, one a bot's, and sit in the other without moving, so
// that every room the server may open (--max-rooms 16) is full. A new
// player at another address is told "full" at first, and is seated within
// --idle (3 s here) and a little more: the squatters' seats are freed for
// want of intent. (Before idle seats ended, such squatters held the
// server for as long as they liked.)
func TestSquattersCannotKeepANewPlayerOut(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	const idle = 3 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := startServe(t, ctx, "--players", "2", "--rooms", "1", "--max-rooms", "16", "--idle", idle.String(),
		"--stats-every", "200ms")
	server := netip.MustParseAddrPort(s.addr)

	// The room opened at start is filled by two idlers of their own.
	var lobby []*squatter
	for i := 0; i < 2; i++ {
		lobby = append(lobby, startSquatter(t, "127.0.0.9:0", server, netcode.RoomRequest{}))
	}
	waitFor(t, 10*time.Second, "room a to fill", func() bool { return countSeated(lobby) == 2 })
	squatters, refused := squat(t, server, 10, 17, 4, netcode.RoomSpec{Seats: 2, Bots: 1})
	seated := countSeated(squatters)
	t.Logf("squatters: %d seated in 15 rooms, refused %v", seated, refused)
	if seated != 15 {
		t.Fatalf("%d squatters seated, want 15 (one in each room that may open)", seated)
	}
	if refused[proto.RejectFull] == 0 {
		t.Fatalf("no squatter was told full: %v", refused)
	}

	// A newcomer at a quiet address: full at first, then seated once the
	// squatters' seats are freed.
	first := time.Now()
	newcomer := startSquatter(t, "127.0.0.200:0", server, netcode.RoomRequest{})
	waitFor(t, 5*time.Second, "the newcomer's answer", newcomer.settled)
	if _, why, _ := newcomer.state(); why != proto.RejectFull {
		t.Fatalf("the newcomer, while the squatters sit: %v, want refused %v", why, proto.RejectFull)
	}
	for !newcomer.seated() {
		if time.Since(first) > idle+2*time.Second {
			_, why, err := newcomer.state()
			t.Fatalf("the newcomer is still out %v after its first try (--idle %v): %v %v", time.Since(first), idle, why, err)
		}
		time.Sleep(250 * time.Millisecond)
		if newcomer.settled() && !newcomer.seated() {
			newcomer.d.Close()
			newcomer = startSquatter(t, "127.0.0.200:0", server, netcode.RoomRequest{})
			waitFor(t, 5*time.Second, "the newcomer's answer", newcomer.settled)
		}
	}
	t.Logf("the newcomer was seated %v after its first try", time.Since(first).Round(time.Millisecond))
	waitFor(t, 2*time.Second, "the stats file to count the idle seats", func() bool {
		st, ok := serveStats(t, s)
		return ok && st.Idled >= 15
	})
}

// TestBotBudgetHoldsAgainstManyAddresses: 17 addresses each try to open 4
// rooms of 8 seats, 7 of them bots (with --max-rooms 255, the most the
// room list can name). Each address pays for the bots it asks for
// (--bots-per-addr 8: one such room each), and the server steps at most
// --max-bots 48; the rest are refused. At steady state the server's tick
// is on time, its clock never slips, and its CPU stays at a fraction of a
// core. (Before the bot budgets, 17 such addresses had the server step
// 420 bots, at a tick p99 of 10–33 ms.)
func TestBotBudgetHoldsAgainstManyAddresses(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := startServe(t, ctx, "--players", "8", "--rooms", "1", "--max-rooms", "255", "--max-bots", "48",
		"--stats-every", "500ms")
	server := netip.MustParseAddrPort(s.addr)
	squatters, refused := squat(t, server, 10, 17, 4, netcode.RoomSpec{Seats: 8, Bots: 7})
	seated := countSeated(squatters)
	t.Logf("squatters: %d seated, refused %v", seated, refused)
	if want := 48 / 7; seated != want {
		t.Errorf("%d rooms of 7 bots opened, want %d (48 bots at most)", seated, want)
	}
	if refused[proto.RejectBusy] == 0 || refused[proto.RejectAddrLimit] == 0 {
		t.Errorf("refusals %v: want some for the server's bot budget (busy) and some for the addresses' (addr-limit)", refused)
	}

	// Steady state: the rooms' matches run; the stats file's load covers
	// the last seconds of it.
	var st statsfile.Stats
	settle := time.Now().Add(3 * time.Second)
	waitFor(t, 20*time.Second, "a 5 s load window of the steady state", func() bool {
		var ok bool
		st, ok = serveStats(t, s)
		return ok && time.Now().After(settle.Add(5*time.Second)) && st.Load.WindowS >= 5
	})
	bots := 0
	for _, r := range st.Rooms {
		bots += r.Bots
	}
	t.Logf("steady state: %d rooms, %d bots; tick p50 %.0f µs, p99 %.0f µs; CPU %.1f%% of a core; %d slips, %d ticks skipped",
		len(st.Rooms), bots, st.Load.TickP50us, st.Load.TickP99us, 100*st.Load.CPUPerS, st.Slips, st.SkippedTicks)
	if bots > 48 {
		t.Errorf("the server steps %d bots, over --max-bots 48", bots)
	}
	// On time: the p99 within the tick. (The server refuses new rooms
	// once it passes half the tick; other tests share this machine.)
	if budget := float64(netcode.TickDuration) / float64(time.Microsecond); st.Load.TickP99us > budget {
		t.Errorf("tick p99 %.0f µs, over the tick (%.0f µs)", st.Load.TickP99us, budget)
	}
	if st.Slips != 0 {
		t.Errorf("the clock slipped %d times (%d ticks)", st.Slips, st.SkippedTicks)
	}
	if st.Load.CPUPerS > 0.5 {
		t.Errorf("the server uses %.0f%% of a core for %d bots", 100*st.Load.CPUPerS, bots)
	}
}

// TestSpoofedHelloFloodThroughTheBinary: while a sender on 4,096 loopback
// addresses (127.1.x.y, as a flood of spoofed sources would look) fires
// Hellos at serve as fast as it can, a new player at a quiet address is
// seated within a second, and the server answers no more bytes than it
// was sent. (The flood's source ports spend a quarter of the port table's
// buckets; before the port table stopped refusing on its own, a newcomer
// whose port shared a bucket with a flooder was kept out.)
func TestSpoofedHelloFloodThroughTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := startServe(t, ctx, "--players", "2", "--stats-every", "200ms")
	server := netip.MustParseAddrPort(s.addr)

	const sources = 4096
	var socks []*transport.UDP
	for i := 0; i < sources; i++ {
		u, err := transport.ListenUDP(fmt.Sprintf("127.1.%d.%d:0", i/256, i%256))
		if err != nil {
			t.Fatal(err)
		}
		defer u.Close()
		socks = append(socks, u)
	}
	stop := make(chan struct{})
	var sent [1]uint64
	var wg sync.WaitGroup
	for g := range sent {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := proto.Hello{}
			var b []byte
			for i := g; ; i += len(sent) {
				select {
				case <-stop:
					return
				default:
				}
				h.Session = uint64(i) + 1
				b = h.Append(b[:0])
				if socks[i%sources].Send(server, b) == nil {
					sent[g]++
				}
			}
		}()
	}
	floodStart := time.Now()
	time.Sleep(2 * time.Second) // the flood reaches its steady state: this is the test's load, not a synchronisation
	joined := time.Now()
	newcomer := startSquatter(t, "127.0.0.250:0", server, netcode.RoomRequest{})
	for !newcomer.seated() {
		if _, why, err := newcomer.state(); why != 0 || err != nil || time.Since(joined) > time.Second {
			close(stop)
			wg.Wait()
			st, _ := serveStats(t, s)
			var v netcode.View
			newcomer.d.View(&v)
			t.Fatalf("the newcomer, %v into its join: %v %v (status %v; server drops %v)", time.Since(joined), why, err, v.Status, st.Drops)
		}
		time.Sleep(5 * time.Millisecond)
	}
	took := time.Since(joined)
	close(stop)
	wg.Wait()
	elapsed := time.Since(floodStart)
	total := sent[0]
	t.Logf("%d Hellos from %d addresses in %v (%.0f a second); the newcomer was seated %v into its join",
		total, sources, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), took.Round(time.Millisecond))
	waitFor(t, 5*time.Second, "the stats file", func() bool {
		st, ok := serveStats(t, s)
		if ok && st.DatagramsIn > total/10 {
			t.Logf("the server took in %d datagrams, sent %d; drops %v", st.DatagramsIn, st.DatagramsOut, st.Drops)
		}
		if ok && st.BytesOut > st.BytesIn {
			t.Fatalf("the server sent %d bytes for %d received", st.BytesOut, st.BytesIn)
		}
		return ok && st.DatagramsIn > total/10
	})
}
