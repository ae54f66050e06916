package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"ttytanks/internal/syncbuf"
)

// TestBinaryLifecycle drives the real binary through the life cycle that
// once crashed it: a spectator watches from the lobby, then players join
// (the match starts with the spectator present), one leaves and another
// takes the seat, with 2 and 3 seats, with and without bots. The server
// stays up throughout (it exits 0 on SIGINT), every client plays its whole
// duration, and serve --stats-json reports the players who left.
func TestBinaryLifecycle(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	binary(t) // built once, before the subtests run in parallel
	for _, tc := range []struct{ players, bots int }{{2, 0}, {2, 1}, {3, 0}, {3, 1}} {
		t.Run(fmt.Sprintf("players=%d,bots=%d", tc.players, tc.bots), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			srv := startServe(t, ctx, "--players", fmt.Sprint(tc.players), "--bots", fmt.Sprint(tc.bots))
			start := func(name, duration string, extra ...string) *joinProc {
				return srv.headless(t, ctx, name, append([]string{"--duration", duration}, extra...)...)
			}
			wait := func(c *joinProc, endStatus string) {
				t.Helper()
				if err := c.wait(); err != nil {
					t.Errorf("%s: %v: %s", c.name, err, c.stderr.String())
				}
				st, b, err := c.stats()
				if err != nil || st.Status != endStatus || st.HashMismatches != 0 || st.Seconds < 1 {
					t.Errorf("%s: %v, stats %s", c.name, err, b)
				}
			}
			humans := tc.players - tc.bots
			// The spectator comes first, while the lobby waits (unless bots
			// fill it); it watches the whole story.
			spec := start("watcher", "9s", "--spectate")
			var first []*joinProc
			for i := 0; i < humans; i++ {
				d := "6s"
				if i == 0 {
					d = "2s" // leaves early: a newcomer takes the seat
				}
				first = append(first, start(fmt.Sprintf("p%d", i), d, "--bot"))
			}
			wait(first[0], "playing")
			late := start("late", "3s", "--bot")
			for _, c := range first[1:] {
				wait(c, "playing")
			}
			wait(late, "playing")
			// The players have left by now, so the match closed: the
			// spectator, which watched it, ends in the new lobby.
			wait(spec, "waiting")
			select {
			case <-srv.exited:
				t.Fatalf("the server exited during the story: %v", srv.err)
			default:
			}
			if _, err := srv.stop(t, os.Interrupt, 30*time.Second); err != nil {
				t.Fatalf("server exit: %v", err)
			}
			b, err := os.ReadFile(srv.stats)
			if err != nil {
				t.Fatal(err)
			}
			var st struct {
				Departed []struct {
					Name string `json:"name"`
					Real uint64 `json:"real_ticks"`
				} `json:"departed"`
				Faults uint64 `json:"faults"`
			}
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, d := range st.Departed {
				if d.Real == 0 {
					t.Errorf("departed %s played no tick of its own", d.Name)
				}
				names = append(names, d.Name)
			}
			if len(st.Departed) != humans+1 || st.Faults != 0 {
				t.Errorf("server stats: departed %v (want %d players), faults %d", names, humans+1, st.Faults)
			}
			t.Logf("departed %s", strings.Join(names, ", "))
		})
	}
}

// TestFullServerSuggestsSpectating: a join to a full server says so, and
// how to watch instead, and exits 1.
func TestFullServerSuggestsSpectating(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2", "--bots", "2")
	var out syncbuf.Buffer
	c := exec.CommandContext(ctx, binary(t), "join", srv.addr, "--headless", "--bot", "--duration", "2s")
	c.Stderr = &out
	err := c.Run()
	want := "the server is full: try again later, or watch: ttytanks join " + srv.addr + " --spectate"
	if code := exitCode(err); code != 1 || !strings.Contains(out.String(), want) {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, out.String(), want)
	}
}
