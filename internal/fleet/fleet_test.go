package fleet

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ttytanks/internal/redistest"
)

// member starts a member for a server at id with rooms, whose views
// arrive on the returned channel (the newest kept).
func member(t *testing.T, url, id string, rooms int) (*Member, <-chan View) {
	t.Helper()
	views := make(chan View, 1)
	var mu sync.Mutex
	m, err := Join(Config{URL: url, Self: func() Server {
		mu.Lock()
		defer mu.Unlock()
		s := Server{ID: id, Name: "n-" + id, Key: make([]byte, 32), Capacity: 100, Players: rooms * 2}
		for i := range rooms {
			s.Rooms = append(s.Rooms, Room{Name: fmt.Sprintf("r%d", i), Players: 2, Seats: 4})
		}
		return s
	}, OnView: func(v View) {
		select {
		case <-views:
		default:
		}
		views <- v
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m, views
}

// await returns the first view that satisfies ok, failing after within.
func await(t *testing.T, views <-chan View, within time.Duration, what string, ok func(View) bool) View {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case v := <-views:
			if ok(v) {
				return v
			}
		case <-deadline:
			t.Fatalf("no view with %s within %v", what, within)
		}
	}
}

func sees(v View, ids ...string) bool {
	if v.Lost || len(v.Servers) != len(ids) {
		return false
	}
	for i, id := range ids {
		if v.Servers[i].ID != id {
			return false
		}
	}
	return true
}

func TestMembersSeeEachOther(t *testing.T) {
	r := redistest.Start(t)
	_, va := member(t, r.URL(0), "127.0.0.1:1001", 3)
	_, vb := member(t, r.URL(0), "127.0.0.1:1002", 1)
	v := await(t, va, 3*time.Second, "b", func(v View) bool { return sees(v, "127.0.0.1:1002") })
	if got := v.Servers[0]; got.Name != "n-127.0.0.1:1002" || len(got.Rooms) != 1 || got.Rooms[0].Name != "r0" || got.Capacity != 100 {
		t.Fatalf("a sees b as %+v", got)
	}
	await(t, vb, 3*time.Second, "a with 3 rooms", func(v View) bool { return sees(v, "127.0.0.1:1001") && len(v.Servers[0].Rooms) == 3 })
}

// A server that dies (no Close: its record is not deleted) leaves the
// others' views within its lease and one refresh; one that closes, at
// the next refresh.
func TestDeadServerLeavesWithinTheLease(t *testing.T) {
	r := redistest.Start(t)
	_, va := member(t, r.URL(0), "127.0.0.1:1001", 1)
	b, _ := member(t, r.URL(0), "127.0.0.1:1002", 1)
	c, _ := member(t, r.URL(0), "127.0.0.1:1003", 1)
	await(t, va, 3*time.Second, "b and c", func(v View) bool { return sees(v, "127.0.0.1:1002", "127.0.0.1:1003") })
	b.stop() // a crash: the goroutine ends, nothing is deleted
	<-b.done
	died := time.Now()
	await(t, va, 4*time.Second, "c only", func(v View) bool { return sees(v, "127.0.0.1:1003") })
	if gone := time.Since(died); gone > DefaultLease+DefaultRefresh+200*time.Millisecond {
		t.Fatalf("a dead server left after %v", gone)
	} else {
		t.Logf("a dead server left the view after %v", gone.Round(time.Millisecond))
	}
	c.Close()
	closed := time.Now()
	await(t, va, 2*time.Second, "nobody", func(v View) bool { return sees(v) })
	if gone := time.Since(closed); gone > DefaultRefresh+200*time.Millisecond {
		t.Fatalf("a closed server left after %v", gone)
	}
}

// Redis gone: every member says the fleet is lost; back: one fleet
// again within 5 s, though the restarted Redis is empty.
func TestRedisLostAndFound(t *testing.T) {
	r := redistest.Start(t)
	a, va := member(t, r.URL(0), "127.0.0.1:1001", 1)
	_, vb := member(t, r.URL(0), "127.0.0.1:1002", 1)
	await(t, va, 3*time.Second, "b", func(v View) bool { return sees(v, "127.0.0.1:1002") })
	r.Stop()
	v := await(t, va, 2*time.Second, "the fleet lost", func(v View) bool { return v.Lost })
	if v.Err == nil || len(v.Servers) != 0 || a.Lost().IsZero() {
		t.Fatalf("lost view %+v, lost since %v", v, a.Lost())
	}
	await(t, vb, 2*time.Second, "the fleet lost", func(v View) bool { return v.Lost })
	r.Restart()
	back := time.Now()
	await(t, va, 5*time.Second, "b again", func(v View) bool { return sees(v, "127.0.0.1:1002") })
	await(t, vb, 5*time.Second, "a again", func(v View) bool { return sees(v, "127.0.0.1:1001") })
	t.Logf("one fleet again %v after Redis came back", time.Since(back).Round(time.Millisecond))
	if !a.Lost().IsZero() {
		t.Fatal("still lost")
	}
}

// A member's cost in Redis is a few commands a second whatever its
// rooms: the rooms ride in its one record.
func TestOpsPerSecond(t *testing.T) {
	r := redistest.Start(t)
	a, va := member(t, r.URL(0), "127.0.0.1:1001", 64)
	_, _ = member(t, r.URL(0), "127.0.0.1:1002", 64)
	await(t, va, 3*time.Second, "b", func(v View) bool { return sees(v, "127.0.0.1:1002") && len(v.Servers[0].Rooms) == 64 })
	before, at := a.Ops(), time.Now()
	for range 6 { // 3 s of refreshes
		<-va
	}
	rate := float64(a.Ops()-before) / time.Since(at).Seconds()
	t.Logf("%.1f Redis commands a second for a server of 64 rooms", rate)
	if rate < 2 || rate > 12 {
		t.Fatalf("%.1f commands a second", rate)
	}
}

func TestJoinRefusesBadConfig(t *testing.T) {
	self := func() Server { return Server{ID: "127.0.0.1:1"} }
	for _, c := range []Config{
		{URL: "http://x", Self: self},
		{URL: "redis://127.0.0.1:1/0"},
		{URL: "redis://127.0.0.1:1/0", Self: func() Server { return Server{ID: "host:1"} }},
	} {
		if m, err := Join(c); err == nil {
			m.Close()
			t.Errorf("%+v joined", c.URL)
		}
	}
}

// A malformed URL's error never shows its password (net/url's errors
// quote the whole URL).
func TestBadURLHidesThePassword(t *testing.T) {
	self := func() Server { return Server{ID: "127.0.0.1:1"} }
	for _, u := range []string{"redis://u:p%zzSECRET@127.0.0.1:1/0", "redis://u:SECRET@[::1/0", "redis:// u:SECRET@127.0.0.1/0"} {
		m, err := Join(Config{URL: u, Self: self})
		if err == nil {
			m.Close()
			t.Fatalf("%q joined", u)
		}
		if strings.Contains(err.Error(), "SECRET") {
			t.Errorf("the error shows the password: %v", err)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"redis://u:secret@h:1/0": "redis://u:***@h:1/0",
		"redis://:secret@h:1/0":  "redis://:***@h:1/0",
		"redis://h:1/0":          "redis://h:1/0",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLobbyFreshness: a change in one server's rooms reaches another's
// view within a renewal and a refresh (1.5 s at the defaults); the log
// gives the measured ages.
func TestLobbyFreshness(t *testing.T) {
	r := redistest.Start(t)
	var mu sync.Mutex
	rooms := 0
	b, err := Join(Config{URL: r.URL(0), Self: func() Server {
		mu.Lock()
		defer mu.Unlock()
		s := Server{ID: "127.0.0.1:1002", Key: make([]byte, 32)}
		for i := range rooms {
			s.Rooms = append(s.Rooms, Room{Name: fmt.Sprintf("r%d", i)})
		}
		return s
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, va := member(t, r.URL(0), "127.0.0.1:1001", 0)
	var ages []time.Duration
	for i := 1; i <= 6; i++ {
		mu.Lock()
		rooms = i
		mu.Unlock()
		changed := time.Now()
		await(t, va, 3*time.Second, fmt.Sprintf("%d rooms", i), func(v View) bool { return sees(v, "127.0.0.1:1002") && len(v.Servers[0].Rooms) == i })
		ages = append(ages, time.Since(changed))
	}
	slices.Sort(ages)
	t.Logf("a room change reached the other server's view after %v (median) to %v (most)", ages[len(ages)/2].Round(time.Millisecond), ages[len(ages)-1].Round(time.Millisecond))
	if worst := ages[len(ages)-1]; worst > DefaultRenew+DefaultRefresh+300*time.Millisecond {
		t.Fatalf("a change took %v", worst)
	}
}
