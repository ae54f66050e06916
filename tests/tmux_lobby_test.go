package tests

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTmuxLobby drives the lobby of the built binary in a real terminal:
// join lists the server's rooms; Enter takes a seat in the selected one
// (the waiting screen names it); l goes back; c opens the create form, Esc
// closes it, and a room created with it is listed; over SSH the same
// lobby shows.
func TestTmuxLobby(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	keyPath := filepath.Join(t.TempDir(), "hostkey")
	srv := startServe(t, ctx, "--rooms", "2", "--players", "2", "--ssh", "127.0.0.1:0", "--ssh-host-key", keyPath)
	lobby := func(s string) bool { return strings.Contains(s, "ttytanks lobby") }
	row := func(name string) *regexp.Regexp { return regexp.MustCompile(`(?m)^\S*\s+` + name + `\s+\d/\d`) }

	// The server has a key of its own: the player's known_servers is this
	// test's, so no other server ever seen at this port can be taken for
	// it.
	tm := startTmux(t, "lobby", 100, 30, "env", "XDG_STATE_HOME="+t.TempDir(), binary(t), "join", srv.addr, "--name", "lee")
	tm.waitScreen(10*time.Second, "the lobby with rooms a and b", func(s string) bool {
		return lobby(s) && row("a").MatchString(s) && row("b").MatchString(s)
	})
	tm.keys("Enter")
	tm.waitScreen(10*time.Second, "the waiting screen of room a", func(s string) bool {
		return strings.Contains(s, "waiting for 1 more player") && strings.Contains(s, "--room a")
	})
	tm.keys("l")
	tm.waitScreen(10*time.Second, "the lobby again, saying we left room a", func(s string) bool {
		return lobby(s) && strings.Contains(s, "you left room a")
	})
	tm.keys("c")
	tm.waitScreen(5*time.Second, "the create form", func(s string) bool { return strings.Contains(s, "create a room") })
	tm.keys("Escape")
	tm.waitScreen(5*time.Second, "the list after Esc", func(s string) bool { return lobby(s) && !strings.Contains(s, "create a room") })
	tm.keys("c")
	tm.waitScreen(5*time.Second, "the create form", func(s string) bool { return strings.Contains(s, "create a room") })
	tm.keys("d", "e", "n", "Enter")
	tm.waitScreen(10*time.Second, "the waiting screen of the new room", func(s string) bool {
		return strings.Contains(s, "waiting for 3 more players") && strings.Contains(s, "--room den") // 4 seats: the form's default
	})
	tm.keys("l")
	tm.waitScreen(10*time.Second, "the lobby listing den", func(s string) bool { return lobby(s) && row("den").MatchString(s) })
	tm.keys("q")
	if how := tm.waitExit(); how != "0" {
		t.Fatalf("join exited with %s", how)
	}

	// The same lobby over SSH.
	sshAddr := srv.sshAddr(t)
	host, port, _ := strings.Cut(sshAddr, ":")
	ssh := startTmux(t, "ssh", 100, 30, "ssh", "-tt", "-p", port, "-o", "StrictHostKeyChecking=no",
		"-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "sam@"+host)
	ssh.waitScreen(15*time.Second, "the lobby over ssh", func(s string) bool {
		return lobby(s) && row("a").MatchString(s) && row("den").MatchString(s) && strings.Contains(s, "you are sam")
	})
	ssh.keys("q")
}
