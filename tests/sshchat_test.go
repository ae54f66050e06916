package tests

import (
	"strings"
	"testing"
	"time"

	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// TestSSHAndUDPPlayersChat: a player over SSH and one over UDP, in one
// room, talk: the UDP player's line shows on the SSH player's screen with
// its name, and the SSH player's line, typed after t and sent with Enter,
// reaches the UDP player's client; a bidi override typed over SSH never
// reaches the other side.
func TestSSHAndUDPPlayersChat(t *testing.T) {
	r := startSSHRigN(t, 3, nil) // alice over SSH, bob over UDP, a bot
	alice := r.dial("alice", 100, 30)
	ct, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	bob := netcode.StartClient(netcode.NewClient(netcode.ClientConfig{Server: r.udp, Name: "bob"}), ct)
	defer bob.CloseNow()
	alice.waitScreen(10*time.Second, "the match on alice's screen", sshPlaying)

	deadline := time.Now().Add(5 * time.Second)
	for bob.Say("hello from udp") != nil {
		if time.Now().After(deadline) {
			t.Fatal("bob could not say a line in 5 s")
		}
		time.Sleep(50 * time.Millisecond) // polling bob's session for its place
	}
	alice.waitScreen(5*time.Second, "bob's line on alice's screen", func(s string) bool {
		return strings.Contains(s, "bob: hello from udp")
	})

	alice.keys("t")
	alice.waitScreen(3*time.Second, "alice's chat line open", func(s string) bool { return strings.Contains(s, "say: _") })
	alice.keys("hi from ssh \u202eevil")
	alice.keys("\r")
	var v netcode.View
	waitFor(t, 5*time.Second, "alice's line in bob's client", func() bool {
		bob.View(&v)
		for _, e := range v.Chat[:v.ChatN] {
			if e.Name == "alice" && strings.HasPrefix(e.Text, "hi from ssh") {
				return true
			}
		}
		return false
	})
	for _, e := range v.Chat[:v.ChatN] {
		if strings.ContainsRune(e.Text, '\u202e') {
			t.Fatalf("a bidi override reached bob: %q", e.Text)
		}
		if e.Name == "alice" && e.Text != "hi from ssh evil" {
			t.Fatalf("alice's line reached bob as %q", e.Text)
		}
	}
	alice.waitScreen(3*time.Second, "alice's own line on her screen", func(s string) bool {
		return strings.Contains(s, "alice: hi from ssh evil")
	})
}
