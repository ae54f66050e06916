package tests

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"ttytanks/netcode"
)

// seatOf returns the room and slot of the player called name.
func (r *sshRig) seatOf(name string) (room string, slot int) {
	r.t.Helper()
	slot = -1
	waitFor(r.t, 10*time.Second, name+" seated", func() bool {
		r.sd.Do(func(s *netcode.Server) {
			for _, pl := range s.Stats().Players {
				if pl.Name == name {
					room, slot = pl.Room, pl.Slot
				}
			}
		})
		return slot >= 0
	})
	return room, slot
}

// TestSSHGameKickEndsSession: the game server kicks an SSH player's
// seat (netcode.Server.Kick, a Leave "kicked" to its in-process client):
// the session ends with exit status 1, the terminal restored and the
// reason printed after it; in the lobby as in a quick match.
func TestSSHGameKickEndsSession(t *testing.T) {
	for _, lobby := range []bool{false, true} {
		name := map[bool]string{false: "quick match", true: "lobby"}[lobby]
		t.Run(name, func(t *testing.T) {
			r := startSSHRig(t, func(c *sshRigConfig) { c.Game.Lobby = lobby })
			p := r.dial("rowdy", 100, 30)
			if lobby {
				p.waitScreen(10*time.Second, "the lobby", func(s string) bool { return lobbyScreen(s) })
				p.keys("n") // quick match
			}
			p.waitScreen(10*time.Second, "the match", sshPlaying)
			room, slot := r.seatOf("rowdy")
			r.sd.Kick(room, slot)
			toldAndRestored(t, p, "ttytanks: the operator removed you from the server")
		})
	}
}

// TestSSHGameBanEndsSession: the game server bans the address an SSH
// player connects from (netcode.Server.Ban, which finds the SSH player
// by its origin): the session ends, told so, on a restored terminal; a
// new SSH session from that address gets no seat.
func TestSSHGameBanEndsSession(t *testing.T) {
	r := startSSHRig(t, func(c *sshRigConfig) { c.Origin = true; c.Game.Lobby = true })
	p, err := r.dialFromAs("127.0.8.1", "meddler", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	p.waitScreen(10*time.Second, "the lobby", func(s string) bool { return lobbyScreen(s) })
	p.keys("n") // quick match
	p.waitScreen(10*time.Second, "the match", sshPlaying)
	r.sd.Ban(netip.MustParseAddr("127.0.8.1"))
	toldAndRestored(t, p, "ttytanks: the operator removed you from the server")

	// The address's SSH players stay out: a new session's quick match is
	// dropped by the game server (its Hellos, again and again), and it
	// never gets a seat.
	dropped := func() uint64 {
		var n uint64
		r.sd.Do(func(s *netcode.Server) { n = s.Stats().Drops[netcode.DropBanned] })
		return n
	}
	again, err := r.dialFromAs("127.0.8.1", "again", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	again.waitScreen(10*time.Second, "the lobby", func(s string) bool { return lobbyScreen(s) })
	again.keys("n")
	again.waitScreen(10*time.Second, "connecting", func(s string) bool { return strings.Contains(s, "connecting") })
	before := dropped()
	waitFor(t, 10*time.Second, "the game server to drop the banned address's Hellos", func() bool { return dropped() > before })
	r.sd.Do(func(s *netcode.Server) {
		for _, pl := range s.Stats().Players {
			if pl.Name == "again" {
				t.Errorf("a banned address's SSH player is seated: %+v", pl)
			}
		}
	})
}

// lobbyScreen reports whether s is the room list.
func lobbyScreen(s string) bool {
	return strings.Contains(s, "ttytanks lobby") && strings.Contains(s, "n quick")
}
