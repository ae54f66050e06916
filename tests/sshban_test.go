package tests

import (
	"net/netip"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"ttytanks/internal/sshfront"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// TestSSHBan: Ban refuses an address and drops its connections; BanKey
// refuses a key at authentication and drops the connections that used
// it; other addresses and keys play on.
func TestSSHBan(t *testing.T) {
	k1, k2 := newClientKey(t), newClientKey(t)
	keys, err := sshfront.ParseAuthorizedKeys(append(gossh.MarshalAuthorizedKey(k1.PublicKey()),
		gossh.MarshalAuthorizedKey(k2.PublicKey())...))
	if err != nil {
		t.Fatal(err)
	}
	r := startSSHRig(t, func(c *sshRigConfig) { c.AuthorizedKeys = keys })

	// By key: the connection that used it is dropped, the key is refused
	// from then on, another key gets in.
	c1, err := r.sshFrom("127.0.5.1", "keyed", gossh.PublicKeys(k1))
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	r.ssh.BanKey(k1.PublicKey())
	_ = within(t, 3*time.Second, "the banned key's connection to close", c1.Wait) // fails the test if it stays open
	if c, err := r.sshFrom("127.0.5.1", "keyed", gossh.PublicKeys(k1)); err == nil {
		c.Close()
		t.Error("a banned key got in")
	}
	if c, err := r.sshFrom("127.0.5.1", "other", gossh.PublicKeys(k2)); err != nil {
		t.Errorf("another key: %v", err)
	} else {
		c.Close()
	}

	// By address: its open connection is dropped, new ones are closed at
	// once, another address gets in.
	c2, err := r.sshFrom("127.0.5.2", "addressed", gossh.PublicKeys(k2))
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	r.ssh.Ban(netip.MustParseAddr("127.0.5.2"))
	_ = within(t, 3*time.Second, "the banned address's connection to close", c2.Wait)
	conn, err := r.dialFrom("127.0.5.2")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if got, _ := readUntilClosed(t, conn, 3*time.Second); got != "" {
		t.Errorf("a banned address got %q, want to be refused at once", got)
	}
	if c, err := r.sshFrom("127.0.5.3", "neighbour", gossh.PublicKeys(k2)); err != nil {
		t.Errorf("another address: %v", err)
	} else {
		c.Close()
	}
}

// TestSSHBanPlayerBySeat: the operator bans an SSH player by the seat the
// game shows (its address on the in-memory network): the session ends and
// its address is refused from then on.
func TestSSHBanPlayerBySeat(t *testing.T) {
	r := startSSHRig(t, nil)
	p := r.dial("meddler", 100, 30)
	var game netip.AddrPort
	deadline := time.Now().Add(10 * time.Second)
	for !game.IsValid() {
		r.sd.Do(func(s *netcode.Server) {
			for _, pl := range s.Stats().Players {
				if pl.Name == "meddler" {
					game, _ = netip.ParseAddrPort(pl.Addr)
				}
			}
		})
		if time.Now().After(deadline) {
			t.Fatal("the SSH player never took a seat")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !transport.MemPrefix.Contains(game.Addr()) || !r.ssh.BanPlayer(game) {
		t.Fatalf("BanPlayer(%v) found no SSH player", game)
	}
	_ = within(t, 5*time.Second, "the banned player's connection to close", p.client.Wait) // fails the test if it stays open
	if r.ssh.BanPlayer(netip.MustParseAddrPort("127.0.77.1:1")) {
		t.Fatal("BanPlayer found a player at an address no one plays from")
	}
	conn, err := r.dialFrom("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if got, _ := readUntilClosed(t, conn, 3*time.Second); got != "" {
		t.Errorf("the banned player's address got %q, want to be refused at once", got)
	}
}
