package tests

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"ttytanks/internal/sshfront"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// tcell's sequences that give the terminal back (xterm-256color): the
// main screen again, and the cursor shown (the game hides it).
const (
	exitAltScreen = "\x1b[?1049l"
	showCursor    = "\x1b[?25h"
	hideCursor    = "\x1b[?25l"
)

// gameAddr waits for the player called name to be seated and returns
// its game address (on the in-memory network).
func (r *sshRig) gameAddr(name string) netip.AddrPort {
	r.t.Helper()
	var game netip.AddrPort
	waitFor(r.t, 10*time.Second, name+" seated", func() bool {
		r.sd.Do(func(s *netcode.Server) {
			for _, pl := range s.Stats().Players {
				if pl.Name == name {
					game, _ = netip.ParseAddrPort(pl.Addr)
				}
			}
		})
		return game.IsValid()
	})
	if !transport.MemPrefix.Contains(game.Addr()) {
		r.t.Fatalf("%s plays at %v, not an SSH player's address", name, game)
	}
	return game
}

// toldAndRestored checks that p's session ended with exit status 1
// after its terminal was given back (the alternate screen left, the
// cursor shown) and the line want was written after that.
func toldAndRestored(t *testing.T, p *sshPlayer, want string) {
	t.Helper()
	err := p.waitExit(5 * time.Second)
	if exitStatus(err) != 1 {
		t.Errorf("the session ended with %v, want exit status 1", err)
	}
	raw := p.raw.String()
	exit := strings.LastIndex(raw, exitAltScreen)
	if exit < 0 || strings.LastIndex(raw, showCursor) < strings.LastIndex(raw, hideCursor) {
		t.Errorf("the terminal was not restored: no %q, or the cursor left hidden (last 200 bytes %q)",
			exitAltScreen, raw[max(0, len(raw)-200):])
	}
	if i := strings.LastIndex(raw, want); i < exit {
		t.Errorf("%q not written after the terminal was restored (last 200 bytes %q)", want, raw[max(0, len(raw)-200):])
	}
}

// TestSSHBanToldAndByKey: the operator bans an SSH player by the seat the
// game shows: the player is told so on a restored terminal, and its
// connection closes. Its /32 is refused from then on (the first
// connection of a minute is let through to be told, the next is closed
// at accept); its key is refused from any address, told so too; another
// address without that key plays. No authorized keys are configured: the
// server accepts any key, and learns the player's.
func TestSSHBanToldAndByKey(t *testing.T) {
	r := startSSHRig(t, nil)
	k := newClientKey(t)
	p, err := r.dialFromAs("127.0.6.1", "meddler", 100, 30, gossh.PublicKeys(k))
	if err != nil {
		t.Fatal(err)
	}
	p.waitScreen(10*time.Second, "the match", sshPlaying)
	if !r.ssh.BanPlayer(r.gameAddr("meddler")) {
		t.Fatal("BanPlayer found no SSH player")
	}
	toldAndRestored(t, p, "ttytanks: you are banned from this server")
	_ = within(t, 5*time.Second, "the banned player's connection to close", p.client.Wait)
	if r.ssh.BanPlayer(netip.MustParseAddrPort("127.0.77.1:1")) {
		t.Fatal("BanPlayer found a player at an address no one plays from")
	}

	// The address: told once, then closed at accept.
	again, err := r.dialFromAs("127.0.6.1", "again", 100, 30)
	if err != nil {
		t.Fatalf("the banned address's first connection after the ban: %v, want it let through to be told", err)
	}
	if err := again.waitExit(5 * time.Second); exitStatus(err) != 1 || !strings.Contains(again.stderr.String(), "banned") {
		t.Errorf("the banned address's session: %v, stderr %q; want exit status 1, told it is banned", err, again.stderr.String())
	}
	conn, err := r.dialFrom("127.0.6.1")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if got, _ := readUntilClosed(t, conn, 3*time.Second); got != "" {
		t.Errorf("the banned address's next connection got %q, want it closed at accept", got)
	}

	// The key, from another address.
	keyed, err := r.dialFromAs("127.0.6.2", "keyed", 100, 30, gossh.PublicKeys(k))
	if err != nil {
		t.Fatal(err)
	}
	if err := keyed.waitExit(5 * time.Second); exitStatus(err) != 1 || !strings.Contains(keyed.stderr.String(), "banned") {
		t.Errorf("the banned key from another address: %v, stderr %q; want exit status 1, told it is banned", err, keyed.stderr.String())
	}
	other, err := r.dialFromAs("127.0.6.2", "neighbour", 100, 30, gossh.PublicKeys(newClientKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	other.waitScreen(10*time.Second, "another key's match", sshPlaying)
}

// TestSSHBanKeyDropsIdleConnection: BanKey closes a connection that
// offered the key even before it opened a session, and the key is told
// it is banned when it comes back (with authorized keys).
func TestSSHBanKeyDropsIdleConnection(t *testing.T) {
	k1, k2 := newClientKey(t), newClientKey(t)
	keys, err := sshfront.ParseAuthorizedKeys(append(gossh.MarshalAuthorizedKey(k1.PublicKey()),
		gossh.MarshalAuthorizedKey(k2.PublicKey())...))
	if err != nil {
		t.Fatal(err)
	}
	r := startSSHRig(t, func(c *sshRigConfig) { c.AuthorizedKeys = keys })
	c1, err := r.sshFrom("127.0.5.1", "keyed", gossh.PublicKeys(k1))
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	r.ssh.BanKey(k1.PublicKey())
	_ = within(t, 3*time.Second, "the banned key's connection to close", c1.Wait) // fails the test if it stays open
	p, err := r.dialFromAs("127.0.5.1", "keyed", 100, 30, gossh.PublicKeys(k1))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.waitExit(5 * time.Second); exitStatus(err) != 1 || !strings.Contains(p.stderr.String(), "banned") {
		t.Errorf("the banned key: %v, stderr %q; want exit status 1, told it is banned", err, p.stderr.String())
	}
	q, err := r.dialFromAs("127.0.5.1", "other", 100, 30, gossh.PublicKeys(k2))
	if err != nil {
		t.Fatal(err)
	}
	q.waitScreen(10*time.Second, "another key's match", sshPlaying)
}

// TestSSHKickToldAndHeld: a kicked SSH player is told so, with how long
// it is kept out, on a restored terminal; its address cannot start a
// session within the hold (it is told how long is left), another address
// can, and once the hold is over it plays again.
func TestSSHKickToldAndHeld(t *testing.T) {
	const hold = 3 * time.Second
	r := startSSHRigN(t, 3, nil)
	p, err := r.dialFromAs("127.0.7.1", "rowdy", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	p.waitScreen(10*time.Second, "the waiting room", func(s string) bool { return strings.Contains(s, "waiting for") })
	kicked := time.Now()
	if !r.ssh.KickPlayer(r.gameAddr("rowdy"), hold) {
		t.Fatal("KickPlayer found no SSH player")
	}
	toldAndRestored(t, p, "ttytanks: you were kicked by the operator; you may come back in 3s")
	back, err := r.dialFromAs("127.0.7.1", "rowdy", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.waitExit(5 * time.Second); exitStatus(err) != 1 || !strings.Contains(back.stderr.String(), "kicked") {
		t.Errorf("back within the hold: %v, stderr %q; want exit status 1, told it was kicked", err, back.stderr.String())
	}
	if time.Since(kicked) >= hold {
		t.Fatalf("the check within the hold took %v, longer than the hold", time.Since(kicked))
	}
	other, err := r.dialFromAs("127.0.7.2", "calm", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	other.waitScreen(10*time.Second, "another address in the waiting room", func(s string) bool { return strings.Contains(s, "waiting for") })
	time.Sleep(time.Until(kicked.Add(hold))) // the hold is wall time: wait it out
	later, err := r.dialFromAs("127.0.7.1", "rowdy", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	later.waitScreen(10*time.Second, "the kicked player's match after the hold", sshPlaying)
}
