package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	dashSSHPort = regexp.MustCompile(`or ssh -p (\d+) 127\.0\.0\.1`)
	dashRow     = func(name string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*(\d+)\s+\S+\s+\d+\s+` + regexp.QuoteMeta(name) + `\s`)
	}
)

// TestTmuxSSHKickedAndBanned runs serve --ssh with its dashboard in one
// real terminal and a real ssh client in others (tmux): the operator
// kicks one SSH player (k N Enter) and bans another's address (b N
// Enter). Each player's ssh ends with exit status 1, and its terminal
// is sent, in this order, the way back to the main screen, the cursor
// shown and the reason: kicked, or banned.
func TestTmuxSSHKickedAndBanned(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	srv := startTmux(t, "serve", 140, 40, binary(t), "serve", "--addr", "127.0.0.1:0", "--ssh", "127.0.0.1:0",
		"--key", filepath.Join(t.TempDir(), "key"), "--players", "3", "--kick-hold", "1s")
	s := srv.waitScreen(10*time.Second, "the dashboard", func(s string) bool { return dashSSHPort.MatchString(s) })
	port := dashSSHPort.FindStringSubmatch(s)[1]
	dir := t.TempDir()
	raw := func(tm *tmux) string { return filepath.Join(dir, tm.name+".raw") }
	player := func(name, from string) *tmux {
		// The shell prints ssh's exit status: tmux may take its time to
		// reap a pane's process, and reports no status until it has.
		tm := startTmux(t, name, 100, 30, "sh", "-c", `ssh -tt -p "$0" -b "$1" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null `+
			`-o LogLevel=ERROR -o PubkeyAuthentication=no "$2@127.0.0.1"; echo "ssh exit status $?"`, port, from, name)
		tm.run("pipe-pane", "-t", tm.name, "cat > "+raw(tm)) // what the terminal is sent, byte for byte
		tm.waitScreen(15*time.Second, name+"'s lobby", func(s string) bool { return strings.Contains(s, "ttytanks lobby") })
		tm.keys("n") // quick match
		tm.waitScreen(10*time.Second, name+" waiting or playing", func(s string) bool {
			return strings.Contains(s, "waiting for") || strings.Contains(s, "ROUND")
		})
		return tm
	}
	operate := func(key, name string) {
		s := srv.waitScreen(10*time.Second, name+" on the dashboard", func(s string) bool { return dashRow(name).MatchString(s) })
		srv.keys(key)
		srv.keys(strings.Split(dashRow(name).FindStringSubmatch(s)[1], "")...)
		srv.keys("Enter")
	}
	ended := func(tm *tmux, want string) {
		t.Helper()
		s := tm.waitScreen(10*time.Second, "ssh's exit", func(s string) bool { return strings.Contains(s, "ssh exit status") })
		if !strings.Contains(s, "ssh exit status 1\n") {
			t.Errorf("%s: ssh ended with another status than 1:\n%s", tm.name, s)
		}
		if s := tm.run("capture-pane", "-p", "-S", "-", "-t", tm.name); !strings.Contains(s, want) { // with the scrollback
			t.Errorf("%s: the terminal does not show %q:\n%s", tm.name, want, s)
		}
		b, err := os.ReadFile(raw(tm))
		if err != nil {
			t.Fatal(err)
		}
		out := string(b)
		exit := strings.LastIndex(out, exitAltScreen)
		if exit < 0 || strings.LastIndex(out, showCursor) < strings.LastIndex(out, hideCursor) || strings.LastIndex(out, want) < exit {
			t.Errorf("%s: the terminal was not given back (the main screen, the cursor shown) before the reason; its last 300 bytes: %q",
				tm.name, out[max(0, len(out)-300):])
		}
	}

	rowdy := player("rowdy", "127.0.0.2")
	operate("k", "rowdy")
	ended(rowdy, "you were kicked by the operator")

	meddler := player("meddler", "127.0.0.3")
	operate("b", "meddler")
	ended(meddler, "you are banned from this server")
	if t.Failed() {
		t.Logf("the dashboard:\n%s", srv.screen())
	}
}
