package tests

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmuxLobbyChat: a player in join's lobby (UDP) and one in the SSH
// lobby talk through the server: each line shows on the other's lobby
// with its sayer's name; the lobby's chat room is in neither list.
func TestTmuxLobbyChat(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	keyPath := filepath.Join(t.TempDir(), "hostkey")
	srv := startServe(t, ctx, "--rooms", "2", "--players", "2", "--ssh", "127.0.0.1:0", "--ssh-host-key", keyPath)
	lobby := func(s string) bool { return strings.Contains(s, "ttytanks lobby") && strings.Contains(s, "t chat") }

	udp := startTmux(t, "udp", 100, 30, "env", "XDG_STATE_HOME="+t.TempDir(), binary(t), "join", srv.addr, "--name", "lee")
	udp.waitScreen(10*time.Second, "join's lobby with its chat", lobby)
	host, port, _ := strings.Cut(srv.sshAddr(t), ":")
	ssh := startTmux(t, "ssh", 100, 30, "ssh", "-tt", "-p", port, "-o", "StrictHostKeyChecking=no",
		"-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "sam@"+host)
	ssh.waitScreen(15*time.Second, "the SSH lobby with its chat", lobby)

	udp.keys("t")
	udp.waitScreen(3*time.Second, "the chat line in join's lobby", func(s string) bool { return strings.Contains(s, "say: _") })
	udp.keys("-l", "anyone up for a match?")
	udp.keys("Enter")
	ssh.waitScreen(5*time.Second, "lee's line in the SSH lobby", func(s string) bool {
		return strings.Contains(s, "lee: anyone up for a match?")
	})
	ssh.keys("t")
	ssh.waitScreen(3*time.Second, "the chat line in the SSH lobby", func(s string) bool { return strings.Contains(s, "say: _") })
	ssh.keys("-l", "yes, room b")
	ssh.keys("Enter")
	s := udp.waitScreen(5*time.Second, "sam's line in join's lobby", func(s string) bool {
		return strings.Contains(s, "sam: yes, room b")
	})
	if strings.Contains(s, "(lobby)") || strings.Contains(s, "3 rooms") {
		t.Fatalf("the lobby's chat room shows in the list:\n%s", s)
	}
	udp.keys("q")
	ssh.keys("q")
}
