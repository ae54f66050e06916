package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"ttytanks/internal/redistest"
)

// fleetRooms is rooms --json's answer.
type fleetRooms struct {
	Total int `json:"total"`
	Rooms []struct {
		Name    string `json:"name"`
		Server  string `json:"server"`
		Players int    `json:"players"`
		Closing bool   `json:"closing"`
	} `json:"rooms"`
}

// listRooms runs rooms ADDR --json.
func listRooms(t *testing.T, addr string) fleetRooms {
	t.Helper()
	code, out, errOut := runBin(t, "rooms", addr, "--json", "--timeout", "2s")
	if code != 0 {
		t.Fatalf("rooms %s: exit %d: %s", addr, code, errOut)
	}
	var l fleetRooms
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("rooms --json: %v: %s", err, out)
	}
	return l
}

func (l fleetRooms) has(server string) bool {
	for _, r := range l.Rooms {
		if r.Server == server {
			return true
		}
	}
	return false
}

// awaitRooms polls rooms ADDR (bounded) until ok, and returns how long it took.
func awaitRooms(t *testing.T, addr string, within time.Duration, what string, ok func(fleetRooms) bool) time.Duration {
	t.Helper()
	began := time.Now()
	var l fleetRooms
	for time.Since(began) < within {
		if l = listRooms(t, addr); ok(l) {
			return time.Since(began)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("not within %v: %s; the list: %+v", within, what, l)
	return 0
}

var fleetLostRE = regexp.MustCompile(`msg="fleet lost`)
var fleetFoundRE = regexp.MustCompile(`msg="fleet found`)
var joinCodeRE = regexp.MustCompile(`join code ([0-9A-Z]+)`)

// TestFleet runs three servers of one fleet on a real redis-server: joins
// through server 1 by quick match, by a room name of server 2 and by a
// private code of server 3 each play on the right server; a kill -9 of
// server 3 takes its rooms out of the lobby within 3 s and its player
// rejoins through server 1; with Redis down for 10 s the matches play on,
// each server says the fleet is lost, and the lobby is one again within
// 5 s of Redis's return; a SIGTERM to server 2 drains it out of the fleet.
func TestFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel() // most of it waits on the wall clock: it runs beside the others
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	redis := redistest.Start(t)
	dir := t.TempDir()
	serve := func(n int, args ...string) *binServer {
		return serveBin(t, ctx, "127.0.0.1:0", append([]string{"--fleet", redis.URL(0), "--fleet-name", fmt.Sprintf("s%d", n),
			"--players", "2", "--idle", "0", "--key", filepath.Join(dir, fmt.Sprintf("key%d", n)), "--drain-timeout", "20s", "--admin", "127.0.0.1:0"}, args...)...)
	}
	s1, s2, s3 := serve(1), serve(2), serve(3)
	// Each server in the fleet, seeing the two others (its metrics say).
	sees := func(s *binServer, n int, within time.Duration) time.Duration {
		t.Helper()
		admin, began := s.adminAddr(t), time.Now()
		for {
			if _, body := httpGet(t, "http://"+admin+"/metrics"); strings.Contains(body, fmt.Sprintf("\nttytanks_fleet_servers %d\n", n)) {
				return time.Since(began)
			}
			if time.Since(began) > within {
				t.Fatalf("server %s does not see %d others in %v", s.addr, n, within)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	for _, s := range []*binServer{s1, s2, s3} {
		sees(s, 2, 8*time.Second)
	}
	// Every server opens a room "a" at start: the lobby lists only the
	// lowest address's. Rooms of their own show that each is in the fleet.
	host2 := startJoin(t, ctx, s2.addr, "host2", "--bot", "--room", "den", "--duration", "3m")
	host3 := startJoin(t, ctx, s3.addr, "host3", "--bot", "--room", "vault", "--private", "--duration", "3m")
	fresh := awaitRooms(t, s1.addr, 8*time.Second, "server 2's room through server 1", func(l fleetRooms) bool { return l.has(s2.addr) })
	t.Logf("server 1's lobby listed server 2's room %v after it opened", fresh.Round(time.Millisecond))
	code := host3.stderr.Await(t, 10*time.Second, host3.exited, "the private room's code", joinCodeRE)[1]
	awaitRooms(t, s1.addr, 5*time.Second, "den listed through server 1", func(l fleetRooms) bool {
		for _, r := range l.Rooms {
			if r.Name == "den" && r.Server == s2.addr && r.Players == 1 {
				return true
			}
			if r.Name == "vault" {
				t.Fatal("a private room is listed")
			}
		}
		return false
	})
	byName := startJoin(t, ctx, s1.addr, "byname", "--bot", "--room", "den", "--duration", "8s")
	byCode := startJoin(t, ctx, s1.addr, "bycode", "--bot", "--code", code, "--duration", "3m")
	for _, c := range []*joinProc{byName} {
		if err := c.wait(); err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, c.stderr.String())
		}
		st, _, err := c.stats()
		if err != nil {
			t.Fatal(err)
		}
		if st.Server != s2.addr || st.Room != "den" || st.HashMismatches != 0 || st.Seconds < 7 {
			t.Fatalf("%s played in %q on %s for %.1f s, %d hash mismatches; want den on %s", c.name, st.Room, st.Server, st.Seconds, st.HashMismatches, s2.addr)
		}
		if strings.Count(c.stderr.String(), "remembered the key") > 1 || strings.Contains(c.stderr.String(), s2.addr+",") {
			t.Fatalf("the redirected server's key was asked about: %s", c.stderr.String())
		}
	}
	// den has a free seat again (once the fleet's lobby says so): a quick
	// match through server 1 takes it.
	awaitRooms(t, s1.addr, 3*time.Second, "den with a free seat", func(l fleetRooms) bool {
		for _, r := range l.Rooms {
			if r.Name == "den" && r.Players == 1 {
				return true
			}
		}
		return false
	})
	quick := startJoin(t, ctx, s1.addr, "quick", "--bot", "--quick", "--duration", "6s")
	if err := quick.wait(); err != nil {
		t.Fatalf("quick: %v\n%s", err, quick.stderr.String())
	}
	// The fullest rooms with a free seat are den (server 2) and loft
	// (server 3), one player each: the quick match takes one of them.
	if st, _, _ := quick.stats(); !(st.Room == "den" && st.Server == s2.addr || st.Room == "loft" && st.Server == s3.addr) || st.HashMismatches != 0 {
		t.Fatalf("the quick match played in %q on %s, %d hash mismatches", st.Room, st.Server, st.HashMismatches)
	}

	// kill -9 of server 3: out of the lobby within 3 s; its player comes
	// back through server 1.
	if err := s3.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	gone := sees(s1, 1, 4*time.Second) // the metric's sample is at most a second old
	awaitRooms(t, s1.addr, time.Second, "server 3 out of the lobby", func(l fleetRooms) bool { return !l.has(s3.addr) })
	t.Logf("server 3's rooms left the lobby %v after kill -9", gone.Round(time.Millisecond))
	if gone > 3*time.Second+time.Second {
		t.Fatalf("server 3 was listed %v after it died", gone)
	}
	byCode.stderr.Await(t, 20*time.Second, byCode.exited, "the player of server 3 told it moves", regexp.MustCompile(`stopped answering: joining again through `+regexp.QuoteMeta(s1.addr)))
	t.Logf("the player of server 3 was told %v after kill -9", time.Since(killed).Round(time.Millisecond))
	host3.stderr.Await(t, 25*time.Second, host3.exited, "server 3's own player told it is gone", regexp.MustCompile(`is gone \(nothing heard`))

	// Redis down for 10 s: play goes on, each server says so, a new local
	// join works; back: one lobby within 5 s.
	redis.Stop()
	s1.stderr.Await(t, 3*time.Second, s1.exited, "server 1 to say the fleet is lost", fleetLostRE)
	s2.stderr.Await(t, 3*time.Second, s2.exited, "server 2 to say the fleet is lost", fleetLostRE)
	local := startJoin(t, ctx, s1.addr, "local", "--bot", "--room", "attic", "--duration", "4s")
	local2 := startJoin(t, ctx, s1.addr, "local2", "--bot", "--room", "attic", "--duration", "4s")
	if l := listRooms(t, s1.addr); l.has(s2.addr) {
		t.Fatal("server 1 lists server 2's rooms with the fleet lost")
	}
	time.Sleep(7 * time.Second) // Redis stays down for 10 s: the outage itself, not a wait for an event
	redis.Restart()
	back := time.Now()
	s1.stderr.Await(t, 5*time.Second, s1.exited, "server 1 to find the fleet again", fleetFoundRE)
	again := awaitRooms(t, s1.addr, 5*time.Second, "server 2 back in server 1's lobby", func(l fleetRooms) bool { return l.has(s2.addr) })
	t.Logf("one lobby again %v after Redis came back (%v of polling)", time.Since(back).Round(time.Millisecond), again.Round(time.Millisecond))
	for _, c := range []*joinProc{local, local2} {
		if err := c.wait(); err != nil {
			t.Fatalf("a local join while Redis was down: %v\n%s", err, c.stderr.String())
		}
	}
	if err := host2.binProc.cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("host2 ended during the outage: %s", host2.stderr.String())
	}

	// SIGTERM to server 2: it drains out of the fleet; newcomers go
	// elsewhere.
	if err := s2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	awaitRooms(t, s1.addr, 3*time.Second, "server 2's rooms closing", func(l fleetRooms) bool {
		for _, r := range l.Rooms {
			if r.Server == s2.addr && !r.Closing {
				return false
			}
		}
		return true
	})
	late := startJoin(t, ctx, s2.addr, "late", "--bot", "--room", "cellar", "--duration", "4s")
	late2 := startJoin(t, ctx, s1.addr, "late2", "--bot", "--room", "cellar", "--duration", "4s")
	for _, c := range []*joinProc{late, late2} {
		if err := c.wait(); err != nil {
			t.Fatalf("%s, a newcomer while server 2 drains: %v\n%s", c.name, err, c.stderr.String())
		}
		if st, _, _ := c.stats(); st.Server != s1.addr {
			t.Fatalf("%s, a newcomer while server 2 drains, played on %s, want server 1 %s", c.name, st.Server, s1.addr)
		}
	}
	select {
	case <-s2.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("server 2 did not finish its drain")
	}
	awaitRooms(t, s1.addr, 2*time.Second, "server 2 out of the lobby", func(l fleetRooms) bool { return !l.has(s2.addr) })
}

// TestFleetSSHFrontEnd: the SSH lobby of a front end of a fleet lists a
// room of another server and joins it: its session's client plays there
// over UDP, as any client.
func TestFleetSSHFrontEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	redis := redistest.Start(t)
	dir := t.TempDir()
	game := serveBin(t, ctx, "127.0.0.1:0", "--fleet", redis.URL(0), "--players", "2", "--idle", "0", "--key", filepath.Join(dir, "game"))
	keyPath := filepath.Join(dir, "front")
	front := serveBin(t, ctx, "127.0.0.1:0", "--fleet", redis.URL(0), "--players", "2", "--idle", "0", "--key", keyPath, "--ssh", "127.0.0.1:0")
	host := startJoin(t, ctx, game.addr, "host", "--bot", "--room", "remote", "--duration", "2m")
	awaitRooms(t, front.addr, 5*time.Second, "the game server's room in the front end's lobby", func(l fleetRooms) bool {
		for _, r := range l.Rooms {
			if r.Name == "remote" && r.Server == game.addr {
				return true
			}
		}
		return false
	})
	_, pub := hostKeyOf(t, keyPath)
	r := &sshRig{t: t, addr: front.sshAddr(t), hostKey: pub}
	p := r.dial("sshy", 120, 40)
	p.waitScreen(10*time.Second, "the lobby lists the remote room", func(s string) bool { return lobbyScreen(s) && strings.Contains(s, "remote") })
	// Down the list to the remote room, then Enter.
	for range 8 {
		name, row := selectedRoom(p.vt.Screen())
		if name == "remote" {
			break
		}
		p.keys("j")
		p.waitScreen(2*time.Second, "the selection to move", func(s string) bool { _, r := selectedRoom(s); return r != row })
	}
	if got, _ := selectedRoom(p.vt.Screen()); got != "remote" {
		t.Fatalf("selected %q, not the remote room:\n%s", got, p.vt.Screen())
	}
	p.keys("\r")
	p.waitScreen(15*time.Second, "the SSH player plays", sshPlaying)
	awaitRooms(t, front.addr, 5*time.Second, "the remote room full, on the game server", func(l fleetRooms) bool {
		for _, r := range l.Rooms {
			if r.Name == "remote" && r.Server == game.addr && r.Players == 2 {
				return true
			}
		}
		return false
	})
	if err := host.cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the host's join ended: %s", host.stderr.String())
	}
}

// selectedRoom returns the room name on the lobby's selected row (the
// row with the "you" marker) and the row, or "" and -1.
func selectedRoom(screen string) (string, int) {
	for i, line := range strings.Split(screen, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && (f[0] == "›" || f[0] == ">") {
			return f[1], i
		}
	}
	return "", -1
}
