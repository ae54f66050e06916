package tests

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"ttytanks/internal/sshfront"
	"ttytanks/netcode"
)

// waitingInRoom: the screen of a player waiting in a room for others.
func waitingInRoom(s string) bool { return strings.Contains(s, "waiting for") }

// squat opens a session from src as user that creates a room (c, Enter in
// the lobby) and then sits in it, and returns it once it waits there.
func (r *sshRig) squat(src, user string) *sshPlayer {
	r.t.Helper()
	p, err := r.dialFromAs(src, user, 100, 30)
	if err != nil {
		r.t.Fatalf("squatter %s from %s: %v", user, src, err)
	}
	p.waitScreen(10*time.Second, user+"'s lobby", func(s string) bool { return strings.Contains(s, "lobby") })
	p.keys("c")
	p.keys("\r")
	p.waitScreen(10*time.Second, user+" waiting in its room", waitingInRoom)
	return p
}

// TestSSHSquattersIdleOut: two addresses fill every SSH session (here
// --ssh-max 4 with 2 sessions per address allowed, so that they can),
// each waiting in a room it created with nothing else done. A real
// player from a third address is told the server is busy, and gets in
// within Idle of the squatters' last action: waiting in a room is no
// intent, so the squatters' sessions end (told why) and their seats free.
func TestSSHSquattersIdleOut(t *testing.T) {
	const idle = 1500 * time.Millisecond
	r := startSSHRigN(t, 3, func(c *sshRigConfig) { // rooms of 3: a squatter and the bot wait for one more
		c.MaxSessions, c.MaxSessionsPerPrefix, c.Idle = 4, 2, idle
		c.Game.Lobby = true
		c.Server.MaxRooms, c.Server.Idle = 16, idle
		c.Origin = true
	})
	var squatters []*sshPlayer
	for a := range 2 {
		for k := range 2 {
			squatters = append(squatters, r.squat(fmt.Sprintf("127.0.8.%d", a+1), fmt.Sprintf("squat%d%d", a, k)))
		}
	}
	lastAction := time.Now() // the last squatter's Enter, near enough (its room is up)
	if p, err := r.dialFromAs("127.0.8.9", "early", 100, 30); err != nil {
		t.Fatal(err)
	} else if err := p.waitExit(5 * time.Second); exitStatus(err) != 1 || !strings.Contains(p.stderr.String(), "server busy") {
		t.Fatalf("a player while the squatters hold every session: %v, stderr %q; want told the server is busy", err, p.stderr.String())
	}
	var player *sshPlayer
	last := ""
	for player == nil {
		if time.Since(lastAction) > idle+5*time.Second {
			for _, s := range squatters {
				t.Logf("squatter screen:\n%s", s.vt.Screen())
			}
			t.Fatalf("the real player is still kept out %v after the squatters' last action (Idle %v); last refusal %s", time.Since(lastAction), idle, last)
		}
		p, err := r.dialFromAs("127.0.8.9", "player", 100, 30)
		if err != nil {
			t.Fatal(err)
		}
		if waitLobbyOrExit(p) {
			player = p
			break
		}
		last = p.stderr.String()
		p.close()
		time.Sleep(100 * time.Millisecond) // the player's own retry pace, not a synchronisation
	}
	in := time.Since(lastAction)
	t.Logf("the real player got a session %v after the squatters' last action (Idle %v)", in.Round(time.Millisecond), idle)
	if in > idle+time.Second { // Idle, the watch's period (Idle/4), a retry's round trip
		t.Errorf("kept out %v, want at most Idle %v and the test's slack", in, idle)
	}
	for _, s := range squatters {
		if err := s.waitExit(5 * time.Second); exitStatus(err) != 1 || !strings.Contains(s.vt.Screen(), "no move, shot or choice") {
			t.Errorf("a squatter's session: %v; screen:\n%s", err, s.vt.Screen())
		}
	}
	waitFor(t, 5*time.Second, "the squatters' seats freed", func() bool {
		held := 0
		r.sd.Do(func(s *netcode.Server) {
			for _, p := range s.Stats().Players {
				if strings.HasPrefix(p.Name, "squat") {
					held++
				}
			}
		})
		return held == 0
	})
}

// TestSSHTwoAddressesCannotFillServer: with the default caps, two
// addresses opening all the sessions they can (8 connections of 2
// sessions each, as before) hold DefaultSessionsPerPrefix each, far from
// --ssh-max: a third address plays at once.
func TestSSHTwoAddressesCannotFillServer(t *testing.T) {
	r := startSSHRigN(t, 8, func(c *sshRigConfig) {
		c.Game.Lobby = true
		c.Origin = true
	})
	got := map[string]int{}
	for a := range 2 {
		src := fmt.Sprintf("127.0.9.%d", a+1)
		for k := range sshfront.DefaultMaxConnsPerIP {
			client, err := r.sshFrom(src, fmt.Sprintf("hog%d%d", a, k))
			if err != nil {
				continue // past the connections of one address
			}
			t.Cleanup(func() { client.Close() })
			for range sshfront.MaxChannelsPerConn {
				sess, err := client.NewSession()
				if err != nil {
					break
				}
				vt := newVT(100, 30)
				sess.Stdout = vt
				if _, err := sess.StdinPipe(); err != nil {
					t.Fatal(err)
				}
				if err := sess.RequestPty("xterm-256color", 30, 100, nil); err != nil {
					t.Fatal(err)
				}
				if err := sess.Shell(); err != nil {
					t.Fatal(err)
				}
				p := &sshPlayer{t: t, vt: vt}
				done := make(chan error, 1)
				go func() { done <- sess.Wait() }()
				p.done = done
				if waitLobbyOrExit(p) {
					got[src]++
				}
			}
		}
	}
	for src, n := range got {
		if n > sshfront.DefaultSessionsPerPrefix {
			t.Errorf("%s holds %d sessions, want at most %d", src, n, sshfront.DefaultSessionsPerPrefix)
		}
	}
	t.Logf("sessions held: %v of --ssh-max %d", got, sshfront.DefaultMaxSessions)
	p, err := r.dialFromAs("127.0.9.9", "player", 100, 30)
	if err != nil {
		t.Fatal(err)
	}
	p.waitScreen(10*time.Second, "a third address's lobby", func(s string) bool { return strings.Contains(s, "lobby") })
}

// waitLobbyOrExit waits for p's lobby (true) or the end of its session
// (false: refused).
func waitLobbyOrExit(p *sshPlayer) bool {
	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			return false
		case <-deadline:
			p.t.Fatalf("neither a lobby nor a refusal in 10 s; screen:\n%s", p.vt.Screen())
		case <-tick.C:
			if strings.Contains(p.vt.Screen(), "lobby") {
				return true
			}
		}
	}
}
