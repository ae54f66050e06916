package agones

import (
	"context"
	"log/slog"
	"reflect"
	"regexp"
	"slices"
	"testing"
	"time"

	"ttytanks/internal/agones/agonestest"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// logCatcher is a slog handler that hands every record's message to a
// channel, at every level.
type logCatcher chan string

func (c logCatcher) Enabled(context.Context, slog.Level) bool { return true }
func (c logCatcher) Handle(_ context.Context, r slog.Record) error {
	select {
	case c <- r.Message:
	default:
	}
	return nil
}
func (c logCatcher) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c logCatcher) WithGroup(string) slog.Handler      { return c }

// await reads messages until msg arrives.
func (c logCatcher) await(t *testing.T, d time.Duration, msg string) {
	t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case m := <-c:
			if m == msg {
				return
			}
		case <-timer.C:
			t.Fatalf("no log %q within %v", msg, d)
		}
	}
}

// TestRunnerWithAServer drives a runner with a real server driver on the
// in-memory network and its players joining, against the stand-in: the
// calls come in order — Ready first, then the label, the rooms Counter
// with its capacity and the players List set whole; a health ping at
// most 2 s (and some slack) apart; the List's adds as players join and
// the Counter's count as a room opens, each sent once; the Allocated
// state logged; no health ping while the loop is stalled, and pings
// again once it runs; and, after a drain, Shutdown last.
func TestRunnerWithAServer(t *testing.T) {
	began := time.Now()
	sc := agonestest.New(t, agonestest.Options{Counters: map[string]int64{RoomsCounter: 1000}, Lists: map[string]int64{PlayersList: 100}})
	client := NewClient(sc.URL)
	defer client.Close()
	net := transport.NewMemNetwork()
	st := net.Listen()
	srv, err := netcode.NewServer(netcode.ServerConfig{Players: 2, Rooms: 1, MaxRooms: 4, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	sd := netcode.NewServerDriver(srv, st)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- sd.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()

	logs := make(logCatcher, 256)
	r := Start(Config{Client: client, FleetName: "blue", RoomsCapacity: 4, MaxPlayers: 8, Logger: slog.New(logs),
		Sample: func() Figures {
			var f Figures
			sd.Do(func(s *netcode.Server) { st := s.Stats(); f = FiguresOf(&st) })
			return f
		}})
	defer r.Stop()

	if c := sc.Next(t, 5*time.Second); c.Op != agonestest.OpReady && c.Op != agonestest.OpWatchGameServer {
		t.Fatalf("the first call is %s, want Ready (or the watch)", c.Op)
	}
	sc.Next(t, 5*time.Second, agonestest.OpUpdateList) // the first report ends with the List set whole
	sc.SetState(StateAllocated)
	logs.await(t, 5*time.Second, "agones allocated")

	join := func(name string, room netcode.RoomRequest) *netcode.ClientDriver {
		return netcode.StartClient(netcode.NewClient(netcode.ClientConfig{Server: st.LocalAddr(), Name: name, Room: room}), net.Listen())
	}
	alice := join("alice", netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "a"})
	defer alice.Close()
	bob := join("bob", netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "zz"})
	defer bob.Close()
	added := map[string]bool{}
	for len(added) < 2 {
		c := sc.Next(t, 6*time.Second, agonestest.OpAddListValue)
		added[c.Body["value"].(string)] = true
	}
	for v := range added {
		if !regexp.MustCompile(`^(a/[01]/alice|zz/[01]/bob)$`).MatchString(v) {
			t.Errorf("players List value %q", v)
		}
	}
	if n, capacity := sc.Counter(RoomsCounter); n != 2 || capacity != 4 {
		t.Errorf("rooms Counter %d of %d, want 2 rooms of 4", n, capacity)
	}
	// Two pings before the stall, to measure their gaps.
	for healths(sc.History()) < 2 {
		sc.Next(t, 3*time.Second, agonestest.OpHealth)
	}

	stalled, release := make(chan struct{}), make(chan struct{})
	go sd.Do(func(*netcode.Server) { close(stalled); <-release })
	<-stalled
	logs.await(t, 4*time.Second, "agones health withheld") // the first: a warning
	during := healths(sc.History())
	logs.await(t, 4*time.Second, "agones health withheld") // a whole period later
	if n := healths(sc.History()); n != during {
		t.Errorf("%d health pings while the loop was stalled", n-during)
	}
	released := time.Now()
	close(release)
	sc.Await(t, 4*time.Second, "Health after the stall", func(c agonestest.Call) bool {
		return c.Op == agonestest.OpHealth && c.At.After(released)
	})

	sd.Drain()
	for _, d := range []*netcode.ClientDriver{alice, bob} {
		select {
		case <-d.Done(): // sent away: their rooms' matches had not begun
		case <-time.After(5 * time.Second):
			t.Fatal("a player was not sent away by the drain")
		}
	}
	var drained bool
	sd.Do(func(s *netcode.Server) { drained = s.Drained() })
	if !drained {
		t.Fatal("not drained")
	}
	if err := r.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}

	h := sc.History()
	var ops []string
	var lastHealth time.Time
	counts := 0
	for _, c := range h {
		ops = append(ops, c.Op)
		switch c.Op {
		case agonestest.OpHealth:
			if gap := c.At.Sub(lastHealth); !lastHealth.IsZero() && gap > DefaultHealthEvery+500*time.Millisecond &&
				!(lastHealth.Before(released) && c.At.After(released)) {
				t.Errorf("health pings %v apart", gap)
			}
			lastHealth = c.At
		case agonestest.OpUpdateCounter:
			if counts++; counts == 1 && !reflect.DeepEqual(c.Body, map[string]any{"count": "1", "capacity": "4"}) {
				t.Errorf("the first rooms Counter update %v, want the count 1 and the capacity 4", c.Body)
			}
		}
	}
	if counts != 2 {
		t.Errorf("%d rooms Counter updates, want 2 (1 room, then 2): %v", counts, ops)
	}
	first := []string{agonestest.OpReady, agonestest.OpSetLabel, agonestest.OpUpdateCounter, agonestest.OpUpdateList}
	if got := without(ops, agonestest.OpWatchGameServer); len(got) < len(first) || !slices.Equal(got[:len(first)], first) {
		t.Errorf("the calls begin %v, want %v", got, first)
	}
	if ops[len(ops)-1] != agonestest.OpShutdown || sc.State() != "Shutdown" {
		t.Errorf("the last call is %s (state %s), want Shutdown", ops[len(ops)-1], sc.State())
	}
	if got := sc.Label("agones.dev/sdk-ttytanks.fleet"); got != "blue" {
		t.Errorf("fleet label %q", got)
	}
	if took := time.Since(began); took > 15*time.Second {
		t.Errorf("the test took %v", took)
	}
}

// healths counts the health pings of h.
func healths(h []agonestest.Call) int {
	n := 0
	for _, c := range h {
		if c.Op == agonestest.OpHealth {
			n++
		}
	}
	return n
}

// without returns ops less every drop.
func without(ops []string, drop string) []string {
	var out []string
	for _, op := range ops {
		if op != drop {
			out = append(out, op)
		}
	}
	return out
}
