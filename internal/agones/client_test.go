package agones

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"go.uber.org/goleak"

	"ttytanks/internal/agones/agonestest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// newSidecar starts a stand-in with the rooms Counter and the players
// List, and a client of it.
func newSidecar(t *testing.T) (*agonestest.Sidecar, *Client) {
	t.Helper()
	sc := agonestest.New(t, agonestest.Options{Counters: map[string]int64{RoomsCounter: 16}, Lists: map[string]int64{PlayersList: 8}})
	c := NewClient(sc.URL)
	t.Cleanup(c.Close)
	return sc, c
}

// TestCallsFollowTheAPI: each call goes out with the published method,
// path and body (the stand-in fails the test otherwise) and has its
// effect on the GameServer.
func TestCallsFollowTheAPI(t *testing.T) {
	sc, c := newSidecar(t)
	ctx := context.Background()
	steps := []struct {
		name   string
		call   func() error
		op     string
		path   string
		body   map[string]any
		method string
	}{
		{"ready", func() error { return c.Ready(ctx) }, agonestest.OpReady, "/ready", map[string]any{}, "POST"},
		{"health", func() error { return c.Health(ctx) }, agonestest.OpHealth, "/health", map[string]any{}, "POST"},
		{"label", func() error { return c.SetLabel(ctx, FleetLabel, "blue") }, agonestest.OpSetLabel, "/metadata/label",
			map[string]any{"key": "ttytanks.fleet", "value": "blue"}, "PUT"},
		{"count and capacity", func() error {
			n, capacity := int64(3), int64(12)
			return c.UpdateCounter(ctx, RoomsCounter, CounterUpdate{Count: &n, Capacity: &capacity})
		}, agonestest.OpUpdateCounter, "/v1beta1/counters/rooms", map[string]any{"count": "3", "capacity": "12"}, "PATCH"},
		{"count", func() error { return c.SetCounterCount(ctx, RoomsCounter, 2) }, agonestest.OpUpdateCounter,
			"/v1beta1/counters/rooms", map[string]any{"count": "2"}, "PATCH"},
		{"add", func() error { return c.AddListValue(ctx, PlayersList, "a/0/alice") }, agonestest.OpAddListValue,
			"/v1beta1/lists/players:addValue", map[string]any{"value": "a/0/alice"}, "POST"},
		{"add another", func() error { return c.AddListValue(ctx, PlayersList, "a/1/bob") }, agonestest.OpAddListValue,
			"/v1beta1/lists/players:addValue", map[string]any{"value": "a/1/bob"}, "POST"},
		{"remove", func() error { return c.RemoveListValue(ctx, PlayersList, "a/0/alice") }, agonestest.OpRemoveListValue,
			"/v1beta1/lists/players:removeValue", map[string]any{"value": "a/0/alice"}, "POST"},
		{"set", func() error { return c.SetListValues(ctx, PlayersList, []string{"b/0/carol", "b/1/dave"}) }, agonestest.OpUpdateList,
			"/v1beta1/lists/players", map[string]any{"values": []any{"b/0/carol", "b/1/dave"}}, "PATCH"},
		{"shutdown", func() error { return c.Shutdown(ctx) }, agonestest.OpShutdown, "/shutdown", map[string]any{}, "POST"},
	}
	for _, st := range steps {
		if err := st.call(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got := sc.Next(t, time.Second)
		if got.Op != st.op || got.Method != st.method || got.Path != st.path || !reflect.DeepEqual(got.Body, st.body) || got.Status != 200 {
			t.Errorf("%s: sent %s %s %v (%s, answered %d), want %s %s %v", st.name, got.Method, got.Path, got.Body, got.Op, got.Status,
				st.method, st.path, st.body)
		}
	}
	if n, capacity := sc.Counter(RoomsCounter); n != 2 || capacity != 12 {
		t.Errorf("rooms %d of %d, want 2 of 12", n, capacity)
	}
	if got := sc.List(PlayersList); !reflect.DeepEqual(got, []string{"b/0/carol", "b/1/dave"}) {
		t.Errorf("players %q", got)
	}
	if got := sc.Label("agones.dev/sdk-ttytanks.fleet"); got != "blue" {
		t.Errorf("label %q", got)
	}
	if sc.State() != "Shutdown" {
		t.Errorf("state %q after Shutdown", sc.State())
	}
}

// TestEmptyListIsAnArray: setting no players sends "values": [], which
// empties the List, not null.
func TestEmptyListIsAnArray(t *testing.T) {
	sc, c := newSidecar(t)
	ctx := context.Background()
	if err := c.AddListValue(ctx, PlayersList, "a/0/alice"); err != nil {
		t.Fatal(err)
	}
	if err := c.SetListValues(ctx, PlayersList, nil); err != nil {
		t.Fatal(err)
	}
	if got := sc.List(PlayersList); len(got) != 0 {
		t.Errorf("players %q after setting none", got)
	}
	if h := sc.History(); !reflect.DeepEqual(h[len(h)-1].Body, map[string]any{"values": []any{}}) {
		t.Errorf("body %v", h[len(h)-1].Body)
	}
}

// TestGameServerDecodes: GET /gameserver's answer, with the gateway's
// field names and int64 strings, decodes.
func TestGameServerDecodes(t *testing.T) {
	sc, c := newSidecar(t)
	ctx := context.Background()
	if err := c.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.SetCounterCount(ctx, RoomsCounter, 5); err != nil {
		t.Fatal(err)
	}
	if err := c.AddListValue(ctx, PlayersList, "a/0/alice"); err != nil {
		t.Fatal(err)
	}
	gs, err := c.GameServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := GameServerStatus{State: StateReady, Address: "127.0.0.1", Ports: []Port{{Name: "game", Port: 7777}},
		Counters: map[string]CounterStatus{RoomsCounter: {Count: 5, Capacity: 16}},
		Lists:    map[string]ListStatus{PlayersList: {Capacity: 8, Values: []string{"a/0/alice"}}}}
	if gs.ObjectMeta.Name != "ttytanks-test" || !reflect.DeepEqual(gs.Status, want) {
		t.Errorf("got %+v", gs)
	}
	if sc.Next(t, time.Second, agonestest.OpGameServer).Method != "GET" {
		t.Error("not a GET")
	}
}

// TestInt64 reads the gateway's strings and bare numbers, and writes
// strings.
func TestInt64(t *testing.T) {
	for in, want := range map[string]Int64{`"5"`: 5, `7`: 7, `"-3"`: -3, `null`: 0} {
		var n Int64
		if err := json.Unmarshal([]byte(in), &n); err != nil || n != want {
			t.Errorf("%s: %d %v, want %d", in, n, err, want)
		}
	}
	for _, bad := range []string{`"x"`, `"1.5"`, `true`} {
		var n Int64
		if err := json.Unmarshal([]byte(bad), &n); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if b, _ := json.Marshal(Int64(42)); string(b) != `"42"` {
		t.Errorf("marshal: %s", b)
	}
}

// TestErrorsAreReturned: a refusal is an *APIError with the gateway's
// message, a failing sidecar one with its status, a hung one the
// timeout's error; none panics.
func TestErrorsAreReturned(t *testing.T) {
	sc, c := newSidecar(t)
	ctx := context.Background()
	err := c.SetCounterCount(ctx, RoomsCounter, 99)
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 500 || ae.Message == "" || ae.Path != "/v1beta1/counters/rooms" {
		t.Errorf("a count over capacity: %v", err)
	}
	sc.Fail(agonestest.OpHealth, http.StatusServiceUnavailable)
	if err := c.Health(ctx); !errors.As(err, &ae) || ae.Status != 503 {
		t.Errorf("a failing sidecar: %v", err)
	}

	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hung.Close()
	defer close(release)
	hc := NewClient(hung.URL)
	defer hc.Close()
	hc.SetTimeout(100 * time.Millisecond)
	began := time.Now()
	if err := hc.Ready(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a hung sidecar: %v", err)
	}
	if took := time.Since(began); took > time.Second {
		t.Errorf("the call took %v with a 100ms timeout", took)
	}
	gone := NewClient("http://127.0.0.1:1")
	defer gone.Close()
	if err := gone.Ready(ctx); err == nil {
		t.Error("no sidecar: no error")
	}
}

// TestBaseURL: the port from AGONES_SDK_HTTP_PORT, 9358 without it, an
// error for one that is no port.
func TestBaseURL(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == PortEnv {
				return v
			}
			return ""
		}
	}
	for v, want := range map[string]string{"": "http://localhost:9358", "9400": "http://localhost:9400"} {
		if got, err := BaseURL(env(v)); got != want || err != nil {
			t.Errorf("%q: %q %v, want %q", v, got, err, want)
		}
	}
	for _, bad := range []string{"x", "0", "70000", "-1"} {
		if _, err := BaseURL(env(bad)); !errors.Is(err, ErrPort) {
			t.Errorf("%q: %v, want ErrPort", bad, err)
		}
	}
}

// TestWatchReconnects: the watch delivers the GameServer as it changes,
// and after the stream ends it connects again and goes on delivering.
func TestWatchReconnects(t *testing.T) {
	sc, c := newSidecar(t)
	ctx, cancel := context.WithCancel(context.Background())
	states := make(chan string, 16)
	ended := make(chan error, 16)
	done := make(chan error, 1)
	go func() {
		done <- c.WatchGameServer(ctx, func(gs GameServer) { states <- gs.Status.State }, func(err error) { ended <- err })
	}()
	next := func(want string) {
		t.Helper()
		for {
			select {
			case s := <-states:
				if s == want {
					return
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("no state %q", want)
			}
		}
	}
	next("Scheduled")
	sc.SetState(StateReady)
	next(StateReady)
	sc.Next(t, time.Second, agonestest.OpWatchGameServer)
	sc.EndWatches()
	if err := <-ended; !errors.Is(err, ErrStreamEnded) {
		t.Errorf("the stream's end: %v", err)
	}
	sc.Next(t, 5*time.Second, agonestest.OpWatchGameServer) // connected again
	sc.SetState(StateAllocated)
	next(StateAllocated)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the watch returned %v", err)
	}
}

// TestPlayerValue: room, slot and name; a long one cut on a rune.
func TestPlayerValue(t *testing.T) {
	if got := PlayerValue("a", 3, "alice"); got != "a/3/alice" {
		t.Errorf("got %q", got)
	}
	long := PlayerValue("room", 1, "ééééééééééééééééééééééééééééééééééééééé")
	if len(long) > maxPlayerValue || len(long) < maxPlayerValue-1 {
		t.Errorf("len %d", len(long))
	}
	for _, r := range long {
		if r == '\uFFFD' {
			t.Errorf("%q cut inside a rune", long)
		}
	}
}
