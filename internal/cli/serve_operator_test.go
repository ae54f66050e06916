package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

func TestOperatorKeys(t *testing.T) {
	tests := []struct {
		keys   string
		action operatorAction
		num    int
		prompt string
	}{
		{"k3\r", opKick, 3, ""},
		{"b0\r", opBan, 0, ""},
		{"k12\r", opKick, 12, ""},              // players #10 and above
		{"b 1 0", opNone, 0, ""},               // a space cancels: no action on the digits after it
		{"k10", opNone, 0, "kick player #10_"}, // nothing until Enter
		{"k19\x7f0\r", opKick, 10, ""},         // Backspace takes a digit back
		{"k123456\r", opKick, 1234, ""},        // at most maxOperatorDigits digits
		{"k\r", opNone, 0, "kick player #_"},   // Enter without a number waits for one
		{"kx3\r", opNone, 0, ""},               // anything else disarms
		{"k3\x1b\r", opNone, 0, ""},            // Esc cancels
		{"3\r", opNone, 0, ""},                 // a number alone does nothing
		{"kb5\r", opBan, 5, ""},                // the last letter counts
		{"b4", opNone, 0, "ban the address of player #4_"},
		{"k4\x03", opStop, 0, ""},
		{"m12\r", opMute, 12, ""},
		{"u3\r", opUnmute, 3, ""},
		{"m4", opNone, 0, "mute the chat of player #4_"},
	}
	for _, tt := range tests {
		var o operatorKeys
		var a operatorAction
		var num int
		for i := 0; i < len(tt.keys); i++ {
			a, num = o.key(tt.keys[i])
		}
		if a != tt.action || num != tt.num {
			t.Errorf("%q: action %d number %d, want %d %d", tt.keys, a, num, tt.action, tt.num)
		}
		if p := o.prompt(); !strings.HasPrefix(p, tt.prompt) || (tt.prompt == "") != (p == "") {
			t.Errorf("%q: prompt %q, want %q…", tt.keys, p, tt.prompt)
		}
	}
}

// TestOperateActsOnThePlayerShown: the operator's number names the player
// of the list on the screen; if that player has left by the time Enter
// comes, nothing is done, even though another player now holds that
// number; the player still there is kicked.
func TestOperateActsOnThePlayerShown(t *testing.T) {
	net := transport.NewMemNetwork()
	st := net.Listen()
	srv, err := netcode.NewServer(netcode.ServerConfig{Players: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	sd := netcode.NewServerDriver(srv, st)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- sd.Run(ctx) }()
	defer func() { cancel(); <-served }()

	join := func(name string) *netcode.ClientDriver {
		return netcode.StartClient(netcode.NewClient(netcode.ClientConfig{Server: st.LocalAddr(), Name: name}), net.Listen())
	}
	players := func() []netcode.PlayerStats {
		var ps []netcode.PlayerStats
		sd.Do(func(s *netcode.Server) { ps = s.Stats().Players })
		return ps
	}
	waitFor := func(what string, ok func([]netcode.PlayerStats) bool) []netcode.PlayerStats {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if ps := players(); ok(ps) {
				return ps
			}
		}
		t.Fatalf("waited 5 s for %s: %+v", what, players())
		return nil
	}
	named := func(ps []netcode.PlayerStats, name string) int {
		for i, p := range ps {
			if p.Name == name {
				return i
			}
		}
		return -1
	}
	alice, bob := join("alice"), join("bob")
	defer bob.Close()
	shown := waitFor("alice and bob", func(ps []netcode.PlayerStats) bool { return len(ps) == 2 })
	ai, bi := named(shown, "alice"), named(shown, "bob")

	alice.Close()
	carol := join("carol")
	defer carol.Close()
	waitFor("carol in alice's place", func(ps []netcode.PlayerStats) bool {
		return len(ps) == 2 && named(ps, "carol") >= 0 && named(ps, "alice") < 0
	})
	if note := operate(sd, nil, opKick, ai, shown, 0); !strings.Contains(note, "has gone") {
		t.Fatalf("kick #%d (alice, gone): %q", ai, note)
	}
	if named(players(), "carol") < 0 {
		t.Fatal("carol was kicked for alice's number")
	}
	if note := operate(sd, nil, opMute, bi, shown, 0); !strings.HasPrefix(note, "muted bob (room") {
		t.Fatalf("mute #%d (bob): %q", bi, note)
	}
	if note := operate(sd, nil, opUnmute, bi, shown, 0); !strings.HasPrefix(note, "unmuted bob (room") {
		t.Fatalf("unmute #%d (bob): %q", bi, note)
	}
	if note := operate(sd, nil, opKick, bi, shown, 0); !strings.HasPrefix(note, "kicked bob (room") {
		t.Fatalf("kick #%d (bob): %q", bi, note)
	}
	waitFor("bob gone", func(ps []netcode.PlayerStats) bool { return named(ps, "bob") < 0 && named(ps, "carol") >= 0 })
	if note := operate(sd, nil, opKick, 7, shown, 0); !strings.Contains(note, "no player #7") {
		t.Fatalf("kick #7 of 2: %q", note)
	}
}
