package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"ttytanks/internal/ladder"
	"ttytanks/internal/redistest"
)

// topOut is `ttytanks top --json`'s output.
type topOut struct {
	Ranked  int `json:"ranked"`
	Players []struct {
		Rank    int    `json:"rank"`
		Name    string `json:"name"`
		Rating  int    `json:"rating"`
		RD      int    `json:"rd"`
		Matches int    `json:"matches"`
		Wins    int    `json:"wins"`
	} `json:"players"`
	You *struct {
		Name    string `json:"name"`
		Matches int    `json:"matches"`
	} `json:"you"`
}

// matches returns the rated matches of name on the leaderboard, -1 if
// it is not on it.
func (o topOut) matches(name string) int {
	for _, p := range o.Players {
		if p.Name == name {
			return p.Matches
		}
	}
	return -1
}

// top runs `ttytanks top ADDR --json` with args and parses it.
func top(t *testing.T, addr string, args ...string) topOut {
	t.Helper()
	code, out, errs := runBin(t, append([]string{"top", addr, "--json", "--timeout", "10s"}, args...)...)
	if code != 0 {
		t.Fatalf("top %s: exit %d: %s", addr, code, errs)
	}
	var o topOut
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("top --json: %v: %s", err, out)
	}
	return o
}

// The ladder tests' servers trust loopback (--trust): their players all
// come from 127.0.0.1, and players of one untrusted address are never
// rated against each other.

// recordedRE matches the n-th "match recorded" of a rated match in a
// server's log.
func recordedRE(n int) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`(?s)(msg="match recorded"[^\n]*rated=true.*){%d}`, n))
}

// TestLadderSurvivesKill9: two players with their own keys play three
// rated matches; top shows both with their match counts and ratings.
// The server is then killed with -9 in the middle of a fourth match and
// started again on the same database: every match recorded before is
// there, the interrupted one is not rated, and SQLite's integrity check
// passes. A third key cannot take a rated player's name.
func TestLadderSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	db := filepath.Join(dir, "ladder.db")
	serve := []string{"--ladder", "--trust", "127.0.0.0/8", "--maze", "9x7", "--players", "2", "--bots", "0", "--rounds", "1", "--idle", "0", "--db", db, "--key", filepath.Join(dir, "server")}
	srv := serveBin(t, ctx, "127.0.0.1:0", serve...)
	keyA, keyB := filepath.Join(dir, "ann.key"), filepath.Join(dir, "bob.key")
	ann := startJoin(t, ctx, srv.addr, "ann", "--bot", "--quick", "--duration", "3m", "--player-key", keyA)
	bob := startJoin(t, ctx, srv.addr, "bob", "--bot", "--quick", "--duration", "3m", "--player-key", keyB)
	srv.stderr.Await(t, 90*time.Second, srv.exited, "three rated matches", recordedRE(3))

	o := top(t, srv.addr, "--player-key", keyA)
	if o.Ranked != 2 || o.matches("ann") < 3 || o.matches("bob") < 3 || o.You == nil || o.You.Name != "ann" {
		t.Fatalf("top after three matches: %+v", o)
	}
	for _, p := range o.Players {
		if p.RD >= 350 || p.Rating == 1500 {
			t.Errorf("%s is still unrated: %d ± %d", p.Name, p.Rating, p.RD)
		}
	}
	t.Logf("after three matches: %+v", o.Players)

	// The fourth match starts after the third's results; kill -9 while
	// it plays.
	srv.stderr.Await(t, 30*time.Second, srv.exited, "the fourth match to start",
		regexp.MustCompile(`(?s)(msg="match started".*){4}`))
	log := srv.stderr.String()
	recorded := strings.Count(log, `msg="match recorded"`)
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.wait()
	if strings.Count(srv.stderr.String(), `msg="match over"`) != recorded {
		t.Fatalf("the kill did not come mid-match: %d matches over, %d recorded", strings.Count(srv.stderr.String(), `msg="match over"`), recorded)
	}
	ann.cmd.Process.Kill()
	bob.cmd.Process.Kill()

	st, err := ladder.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.IntegrityCheck(ctx); err != nil {
		t.Errorf("PRAGMA integrity_check after kill -9: %v", err)
	}
	st.Close()

	again := serveBin(t, ctx, "127.0.0.1:0", serve...)
	after := top(t, again.addr, "--player-key", keyB)
	if after.matches("ann") != recorded || after.matches("bob") != recorded {
		t.Errorf("after kill -9 and restart: ann %d, bob %d rated matches; %d were recorded before the kill",
			after.matches("ann"), after.matches("bob"), recorded)
	}
	if after.You == nil || after.You.Name != "bob" {
		t.Errorf("bob's own line: %+v", after.You)
	}

	// A third key asking for ann's name is refused, clearly.
	code, _, errs := runBin(t, "join", again.addr, "--headless", "--bot", "--quick", "--duration", "5s", "--name", "Ann",
		"--player-key", filepath.Join(dir, "thief.key"))
	if code == 0 || !strings.Contains(errs, `"Ann" is another player's name here: pick another (--name NEW)`) {
		t.Errorf("a third key took ann's name: exit %d, %q", code, errs)
	}
	if n := top(t, again.addr).matches("ann"); n != recorded {
		t.Errorf("ann's record changed: %d matches", n)
	}

	// bob sees his record, deletes it (proved by his key), and it is gone.
	me := func(args ...string) string {
		t.Helper()
		code, out, errs := runBin(t, append([]string{"me", again.addr, "--player-key", keyB, "--timeout", "10s"}, args...)...)
		if code != 0 {
			t.Fatalf("me %v: exit %d: %s", args, code, errs)
		}
		return out
	}
	if out := me(); !strings.Contains(out, "bob") || !regexp.MustCompile(fmt.Sprintf(`matches +%d rated`, recorded)).MatchString(out) {
		t.Errorf("me: %q, want bob's %d matches", out, recorded)
	}
	if out := me("--forget"); !strings.Contains(out, "is deleted") {
		t.Errorf("me --forget: %q", out)
	}
	if out := me("--forget"); !strings.Contains(out, "nothing to delete") {
		t.Errorf("me --forget again: %q", out)
	}
	if o := top(t, again.addr); o.matches("bob") != -1 || o.Ranked != 1 {
		t.Errorf("bob forgotten, yet top shows %+v", o)
	}
}

// TestLadderSSHPlayers: an SSH player who signs in with a key keeps
// their rating across sessions; one without a key plays as ~name,
// unranked.
func TestLadderSSHPlayers(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "server")
	srv := serveBin(t, ctx, "127.0.0.1:0", "--ladder", "--trust", "127.0.0.0/8", "--maze", "9x7", "--players", "2", "--bots", "0", "--rounds", "1", "--idle", "0",
		"--db", filepath.Join(dir, "ladder.db"), "--key", keyPath, "--ssh", "127.0.0.1:0")
	_, pub := hostKeyOf(t, keyPath)
	r := &sshRig{t: t, addr: srv.sshAddr(t), hostKey: pub}
	key := newClientKey(t)
	botKey := filepath.Join(dir, "bot.key")

	// One match: the SSH player quick-matches from the lobby (n) into the
	// bot's room and sits still; the bot wins.
	playOne := func(user string, n int, auth ...gossh.AuthMethod) string {
		t.Helper()
		bot := startJoin(t, ctx, srv.addr, "robo", "--bot", "--quick", "--duration", "2m", "--player-key", botKey)
		// The bot leaves with a Leave, and the server has let it go, before
		// the next match: a bot killed outright would hold its seat (and
		// may have voted for a rematch), and the next bot, of the same
		// key, would sit beside it.
		defer func() {
			if _, err := bot.stop(t, os.Interrupt, 10*time.Second); err != nil {
				t.Logf("the bot: %v", err)
			}
			srv.stderr.Await(t, 10*time.Second, srv.exited, fmt.Sprintf("bot %d gone", n),
				regexp.MustCompile(fmt.Sprintf(`(?s)(msg="player left" room=\w+ name=robo .*){%d}`, n)))
		}()
		p, err := r.dialFromAs("", user, 120, 40, auth...)
		if err != nil {
			t.Fatal(err)
		}
		defer p.close()
		p.waitScreen(10*time.Second, "the lobby", lobbyScreen)
		p.keys("n")
		screen := p.waitScreen(15*time.Second, "the SSH player plays", sshPlaying)
		srv.stderr.Await(t, 2*time.Minute, srv.exited, fmt.Sprintf("match %d recorded", n),
			regexp.MustCompile(fmt.Sprintf(`(?s)(msg="match recorded".*){%d}`, n)))
		return screen
	}
	playOne("sshy", 1, gossh.PublicKeys(key))
	if o := top(t, srv.addr); o.matches("sshy") != 1 {
		t.Fatalf("after one session: %+v", o)
	}
	playOne("sshy", 2, gossh.PublicKeys(key))
	o := top(t, srv.addr)
	if o.matches("sshy") != 2 {
		t.Fatalf("the keyed SSH player did not keep their record across sessions: %+v", o)
	}
	screen := playOne("guesty", 3)
	if !strings.Contains(screen, "~guesty") {
		t.Errorf("the keyless SSH player is not shown as a guest:\n%s", screen)
	}
	o = top(t, srv.addr)
	if o.matches("guesty") != -1 || o.matches("~guesty") != -1 || o.matches("sshy") != 2 {
		t.Errorf("the keyless player is on the leaderboard: %+v", o)
	}
}

// TestLadderFleet: with --fleet, a rating earned on one server shows on
// the other's leaderboard.
func TestLadderFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	redis := redistest.Start(t)
	dir := t.TempDir()
	args := func(name string) []string {
		return []string{"--ladder", "--trust", "127.0.0.0/8", "--maze", "9x7", "--fleet", redis.URL(0), "--players", "2", "--bots", "0", "--rounds", "1", "--idle", "0",
			"--key", filepath.Join(dir, name), "--db", filepath.Join(dir, name+".db")}
	}
	one := serveBin(t, ctx, "127.0.0.1:0", args("one")...)
	two := serveBin(t, ctx, "127.0.0.1:0", args("two")...)
	for _, name := range []string{"ann", "bob"} {
		j := startJoin(t, ctx, one.addr, name, "--bot", "--room", "duel", "--duration", "2m", "--player-key", filepath.Join(dir, name+".key"))
		defer j.cmd.Process.Kill()
	}
	one.stderr.Await(t, 90*time.Second, one.exited, "a rated match on server one", recordedRE(1))
	o := top(t, two.addr)
	if o.matches("ann") < 1 || o.matches("bob") < 1 {
		t.Errorf("server two's leaderboard lacks server one's match: %+v", o)
	}
}
