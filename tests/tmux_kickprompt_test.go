package tests

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTmuxKickPromptPlayer12: on serve's dashboard in a real terminal,
// with twelve bots listed before a player, k opens a prompt that takes a
// number of two digits (#12), shows it as it is typed, and Enter kicks
// that player; Esc cancels a prompt.
func TestTmuxKickPromptPlayer12(t *testing.T) {
	srv := startTmux(t, "dash", 160, 50, binary(t), "serve", "--addr", "127.0.0.1:0", "--key", filepath.Join(t.TempDir(), "key"),
		"--rooms", "4", "--players", "4", "--bots", "3")
	s := srv.waitScreen(10*time.Second, "the dashboard", func(s string) bool { return shareRE.MatchString(s) })
	addr := shareRE.FindStringSubmatch(s)[1]
	// A player in a fifth room, opened by its join: listed after rooms a
	// to d's twelve bots.
	join := exec.Command(binary(t), "join", addr, "--room", "e", "--bot", "--headless", "--duration", "60s", "--name", "target")
	join.Env = append(join.Environ(), "XDG_STATE_HOME="+t.TempDir())
	if err := join.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}) // closed when join has exited
	go func() {
		_ = join.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		_ = join.Process.Kill()
		<-done
	})
	s = srv.waitScreen(10*time.Second, "the player on the dashboard", func(s string) bool { return dashRow("target").MatchString(s) })
	num := dashRow("target").FindStringSubmatch(s)[1]
	if n, _ := strconv.Atoi(num); n < 10 {
		t.Fatalf("the player is #%s: want a number of two digits for this test; dashboard:\n%s", num, s)
	}
	srv.keys("k", num[:1])
	srv.waitScreen(3*time.Second, "the prompt after one digit", func(s string) bool { return strings.Contains(s, "kick player #"+num[:1]+"_") })
	srv.keys("Escape")
	srv.waitScreen(3*time.Second, "the prompt gone after Esc", func(s string) bool { return !strings.Contains(s, "kick player #") })
	srv.keys("k")
	srv.keys(strings.Split(num, "")...)
	srv.waitScreen(3*time.Second, "the prompt with #"+num, func(s string) bool {
		return strings.Contains(s, "kick player #"+num+"_") && strings.Contains(s, "Enter confirms")
	})
	srv.keys("Enter")
	srv.waitScreen(5*time.Second, "the kick said and done", func(s string) bool {
		return strings.Contains(s, "kicked target") && !dashRow("target").MatchString(s)
	})
	select {
	case <-done: // the kicked player's join ends
	case <-time.After(10 * time.Second):
		t.Fatal("the kicked player's join did not end")
	}
}
