package tests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBinaryLifecycle drives the real binary through the life cycle that
// once crashed it: a spectator watches from the lobby, then players join
// (the match starts with the spectator present), one leaves and another
// takes the seat, with 2 and 3 seats, with and without bots. The server
// stays up throughout (it exits 0 on SIGINT), every client plays its whole
// duration, and serve --stats-json reports the players who left.
func TestBinaryLifecycle(t *testing.T) {
	bin := binary(t)
	for _, tc := range []struct{ players, bots int }{{2, 0}, {2, 1}, {3, 0}, {3, 1}} {
		t.Run(fmt.Sprintf("players=%d,bots=%d", tc.players, tc.bots), func(t *testing.T) {
			t.Parallel()
			addr := fmt.Sprintf("127.0.0.1:%d", freeUDPPort(t))
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			srvStats := filepath.Join(dir, "server.json")
			srv := exec.CommandContext(ctx, bin, "serve", "--addr", addr, "--players", fmt.Sprint(tc.players),
				"--bots", fmt.Sprint(tc.bots), "--stats-json", srvStats)
			var srvLog syncBuffer
			srv.Stderr = &srvLog
			if err := srv.Start(); err != nil {
				t.Fatal(err)
			}
			srvDone := make(chan error, 1)
			go func() { srvDone <- srv.Wait() }()
			defer func() {
				if t.Failed() {
					t.Logf("server log:\n%s", srvLog.String())
				}
			}()
			type client struct {
				name string
				cmd  *exec.Cmd
				out  *syncBuffer
			}
			start := func(name, duration string, extra ...string) *client {
				args := append([]string{"join", addr, "--headless", "--name", name, "--duration", duration,
					"--stats-json", filepath.Join(dir, name+".json")}, extra...)
				c := &client{name: name, cmd: exec.CommandContext(ctx, bin, args...), out: &syncBuffer{}}
				c.cmd.Stderr = c.out
				if err := c.cmd.Start(); err != nil {
					t.Fatal(err)
				}
				return c
			}
			wait := func(c *client, endStatus string) {
				t.Helper()
				if err := c.cmd.Wait(); err != nil {
					t.Errorf("%s: %v: %s", c.name, err, c.out.String())
				}
				var st struct {
					Status         string  `json:"status"`
					Seconds        float64 `json:"seconds"`
					HashMismatches uint64  `json:"hash_mismatches"`
				}
				b, err := os.ReadFile(filepath.Join(dir, c.name+".json"))
				if err == nil {
					err = json.Unmarshal(b, &st)
				}
				if err != nil || st.Status != endStatus || st.HashMismatches != 0 || st.Seconds < 1 {
					t.Errorf("%s: %v, stats %s", c.name, err, b)
				}
			}
			humans := tc.players - tc.bots
			// The spectator comes first, while the lobby waits (unless bots
			// fill it); it watches the whole story.
			spec := start("watcher", "9s", "--spectate")
			var first []*client
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
			case err := <-srvDone:
				t.Fatalf("the server exited during the story: %v", err)
			default:
			}
			if err := srv.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			if err := <-srvDone; err != nil {
				t.Fatalf("server exit: %v", err)
			}
			b, err := os.ReadFile(srvStats)
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
	bin := binary(t)
	addr := fmt.Sprintf("127.0.0.1:%d", freeUDPPort(t))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "--addr", addr, "--players", "2", "--bots", "2")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = srv.Process.Signal(os.Interrupt)
		_ = srv.Wait()
	}()
	var out syncBuffer
	c := exec.CommandContext(ctx, bin, "join", addr, "--headless", "--bot", "--duration", "2s")
	c.Stderr = &out
	err := c.Run()
	want := "the server is full: try again later, or watch: ttytanks join " + addr + " --spectate"
	if code := exitCode(err); code != 1 || !strings.Contains(out.String(), want) {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, out.String(), want)
	}
}

// exitCode returns a finished command's exit code (0 for a nil error).
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
