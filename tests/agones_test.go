package tests

import (
	"context"
	"regexp"
	"syscall"
	"testing"
	"time"

	"ttytanks/internal/agones/agonestest"
)

// TestServeAgones: the binary's serve --agones, pointed by
// AGONES_SDK_HTTP_PORT at a stand-in of the SDK sidecar that checks
// every call against the published REST API, says Ready once it serves,
// sets the rooms Counter (count and --max-rooms as its capacity), adds a
// player who joins to the players List, pings health, and on SIGTERM
// drains, tells Shutdown last and exits 0.
func TestServeAgones(t *testing.T) {
	sc := agonestest.New(t, agonestest.Options{Counters: map[string]int64{"rooms": 1000}, Lists: map[string]int64{"players": 1000}})
	t.Setenv("AGONES_SDK_HTTP_PORT", sc.Port)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--agones", "--players", "2", "--max-rooms", "8", "--drain-timeout", "10s")
	sc.Next(t, 10*time.Second, agonestest.OpReady)
	if c := sc.Next(t, 5*time.Second, agonestest.OpUpdateCounter); c.Body["count"] != "1" || c.Body["capacity"] != "8" {
		t.Errorf("the rooms Counter update %v, want count 1 and capacity 8", c.Body)
	}
	j := srv.headless(t, ctx, "alice", "--bot", "--duration", "30s")
	if c := sc.Next(t, 10*time.Second, agonestest.OpAddListValue); !regexp.MustCompile(`^a/\d/alice$`).MatchString(c.Body["value"].(string)) {
		t.Errorf("the players List got %v", c.Body)
	}
	sc.Next(t, 5*time.Second, agonestest.OpHealth)
	if _, err := srv.stop(t, syscall.SIGTERM, 20*time.Second); err != nil {
		t.Fatalf("serve --agones exited with %v after SIGTERM", err)
	}
	_ = j.wait()
	h := sc.History()
	if last := h[len(h)-1]; last.Op != agonestest.OpShutdown {
		t.Errorf("the last call is %s %s, want Shutdown", last.Method, last.Path)
	}
	for _, re := range []string{`msg="drain started"`, `msg=drained`, `msg="agones ready"`, `msg="agones shutdown"`} {
		if !regexp.MustCompile(re).MatchString(srv.stderr.String()) {
			t.Errorf("the log has no line like %s", re)
		}
	}
}
