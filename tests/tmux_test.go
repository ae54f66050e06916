package tests

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// tmux drives a real terminal: a detached tmux session running the binary
// at a fixed size, read with capture-pane. Each tmux has a server of its own
// (its own socket and config), never the user's and never another
// test's: ending one test's server cannot pull the ground from under
// another's.
type tmux struct {
	t      *testing.T
	name   string
	socket string
}

// tmuxServers numbers the tmux servers this test process starts, so each
// socket name is unique.
var tmuxServers atomic.Int64

// tmuxSocket returns a fresh socket name for one tmux server of this test
// process.
func tmuxSocket() string {
	return fmt.Sprintf("ttytanks-test-%d-%d", os.Getpid(), tmuxServers.Add(1))
}

func startTmux(t *testing.T, name string, w, h int, cmd ...string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is required for the end-to-end tests (CI installs it): ", err)
	}
	tm := &tmux{t: t, name: name, socket: tmuxSocket()}
	// The server reads only this config, before the session starts: a
	// program that exits at once still leaves its pane (and status) behind.
	conf := filepath.Join(t.TempDir(), "tmux.conf")
	if err := os.WriteFile(conf, []byte("set-option -g remain-on-exit on\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-L", tm.socket, "-f", conf, "new-session", "-d", "-s", tm.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)}, cmd...)
	var path string // the server's socket file, which kill-server leaves behind
	t.Cleanup(func() {
		exec.Command("tmux", "-L", tm.socket, "kill-server").Run()
		if path != "" {
			os.Remove(path)
		}
	})
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	path = tm.format("#{socket_path}")
	return tm
}

func (tm *tmux) run(args ...string) string {
	out, err := exec.Command("tmux", append([]string{"-L", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (tm *tmux) screen() string { return tm.run("capture-pane", "-p", "-t", tm.name) }

func (tm *tmux) keys(k ...string) { tm.run(append([]string{"send-keys", "-t", tm.name}, k...)...) }

func (tm *tmux) format(f string) string {
	return strings.TrimSpace(tm.run("display-message", "-p", "-t", tm.name, f))
}

// waitScreen polls the screen until ok accepts it or d passes.
func (tm *tmux) waitScreen(d time.Duration, what string, ok func(string) bool) string {
	tm.t.Helper()
	return tm.waitScreenEvery(d, 50*time.Millisecond, what, ok)
}

// waitScreenEvery is waitScreen polling every poll, for what shows only
// briefly.
func (tm *tmux) waitScreenEvery(d, poll time.Duration, what string, ok func(string) bool) string {
	tm.t.Helper()
	return pollScreen(tm.t, d, poll, what, tm.screen, ok, func() string { return "" })
}

// waitExit waits until the program has exited and returns how: its exit
// status, or "signal N".
func (tm *tmux) waitExit() string {
	tm.t.Helper()
	return tm.waitExitWithin(3 * time.Second)
}

// waitExitWithin is waitExit, waiting up to d.
func (tm *tmux) waitExitWithin(d time.Duration) string {
	tm.t.Helper()
	tm.waitScreen(d, "exit", func(string) bool { return tm.format("#{pane_dead}") == "1" })
	if sig := tm.format("#{pane_dead_signal}"); sig != "" {
		return "signal " + sig
	}
	if st := tm.format("#{pane_dead_status}"); st != "" {
		return st
	}
	return "0" // tmux 3.3 leaves the status of a clean exit empty
}

// sidebarValue returns the text after label on the sidebar line holding it.
func sidebarValue(screen, label string) string {
	for _, l := range strings.Split(screen, "\n") {
		if i := strings.Index(l, "│"+label); i >= 0 {
			return strings.Trim(strings.TrimSpace(l[i+len("│"+label):]), "│ ")
		}
	}
	return ""
}

// shareRE finds the address a server's screen tells players to join, on
// the dashboard or the waiting screen (where it may wrap).
var shareRE = regexp.MustCompile(`(?m)ttytanks join[\s│]*(127\.0\.0\.1:\d+)(?: --room| *$)`)

// sharedAddr returns the address screen tells other players to join, or
// "".
func sharedAddr(screen string) string {
	for _, s := range []string{screen, fieldText(screen)} {
		if m := shareRE.FindStringSubmatch(s); m != nil {
			return m[1]
		}
	}
	return ""
}

func playing(s string) bool {
	return strings.Contains(s, "playing") && strings.Contains(s, "██") && len(tanks(s)) >= 2
}

// TestTmuxPlay runs `ttytanks play` in a real terminal at 100x30:
// the maze and both tanks show, the sidebar's tick and RTT figures move,
// and q leaves the game with the terminal out of the alternate screen.
func TestTmuxPlay(t *testing.T) {
	tm := startTmux(t, "play", 100, 30, binary(t), "play", "--name", "e2e")
	s1 := tm.waitScreen(10*time.Second, "the match", playing)
	if tm.format("#{alternate_on}") != "1" {
		t.Fatal("the game is not on the alternate screen")
	}
	tick1, rtt1 := sidebarValue(s1, "tick"), sidebarValue(s1, "RTT")
	if tick1 == "" || rtt1 == "" {
		t.Fatalf("sidebar lacks tick or RTT:\n%s", s1)
	}
	s2 := tm.waitScreen(10*time.Second, "the tick and RTT figures to change", func(s string) bool {
		return sidebarValue(s, "tick") != tick1 && sidebarValue(s, "RTT") != rtt1
	})
	t.Logf("tick %s → %s, RTT %s → %s", tick1, sidebarValue(s2, "tick"), rtt1, sidebarValue(s2, "RTT"))
	tm.keys("q")
	how := tm.waitExit()
	if tm.format("#{alternate_on}") != "0" {
		t.Fatal("after q the terminal is still on the alternate screen")
	}
	if how != "0" {
		t.Fatalf("play exited with %s", how)
	}
}

// TestTmuxServePlayAndJoin is the two-terminal demo: serve --play in
// one terminal, join in another; a key pressed in the first moves its tank
// on both screens; when the guest quits, the host's match waits for an
// opponent.
func TestTmuxServePlayAndJoin(t *testing.T) {
	host := startTmux(t, "host", 100, 30, binary(t), "serve", "--play", "--addr", "127.0.0.1:0", "--name", "host")
	var addr string // the port is the server's choice: its waiting screen says which
	host.waitScreen(5*time.Second, "the waiting screen with the address to share", func(s string) bool {
		addr = sharedAddr(s)
		return strings.Contains(s, "waiting for 1 more player") && addr != ""
	})
	guest := startTmux(t, "guest", 100, 30, binary(t), "join", addr, "--name", "guest")
	// join opens the lobby: Enter takes the selected room (the host's).
	guest.waitScreen(10*time.Second, "the lobby on the guest", func(s string) bool {
		return strings.Contains(s, "ttytanks lobby") && strings.Contains(s, "1/2")
	})
	guest.keys("Enter")
	before := host.waitScreen(10*time.Second, "the match on the host", playing)
	guest.waitScreen(10*time.Second, "the match on the guest", playing)
	// The round's countdown ignores every key: wait for its end.
	before = host.waitScreen(10*time.Second, "the end of the round's countdown on the host", func(s string) bool {
		return playing(s) && !strings.Contains(s, "get ready")
	})
	start := tanks(before)
	// The maze is random: try each direction in turn (a held key, at the
	// terminal's repeat cadence) until the host's tank moves.
	var moved string
	for _, key := range []string{"Right", "Down", "Left", "Up"} {
		for i := 0; i < 15 && moved == ""; i++ {
			host.keys(key)
			time.Sleep(40 * time.Millisecond) // key-repeat cadence, as a held key would send
			if s := host.screen(); len(tanks(s)) >= 2 && fmt.Sprint(tanks(s)) != fmt.Sprint(start) {
				moved = s
			}
		}
	}
	if moved == "" {
		t.Fatalf("the host's tank did not move after keys; screen:\n%s", host.screen())
	}
	guest.waitScreen(3*time.Second, "the move on the guest's screen", func(s string) bool {
		return len(tanks(s)) >= 2 && fmt.Sprint(tanks(s)) != fmt.Sprint(start)
	})
	guest.keys("q")
	if how := guest.waitExit(); how != "0" {
		t.Fatalf("join exited with %s", how)
	}
	if guest.format("#{alternate_on}") != "0" {
		t.Fatal("join left the terminal on the alternate screen")
	}
	// The host is not left driving alone: within 2 s of the guest's exit
	// its match waits for an opponent, and it quits without a question
	// once it knows the guest has gone.
	host.waitScreen(2*time.Second, "the host waiting for an opponent", func(s string) bool {
		return strings.Contains(s, "guest left") && strings.Contains(s, "WAITING FOR AN OPPONENT")
	})
	host.keys("q")
	if how := host.waitExit(); how != "0" {
		t.Fatalf("serve --play exited with %s", how)
	}
	if host.format("#{alternate_on}") != "0" {
		t.Fatal("serve --play left the terminal on the alternate screen")
	}
}
