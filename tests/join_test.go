package tests

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// joinStats is the part of join --headless --stats-json the tests read.
type joinStats struct {
	Status          string   `json:"status"`
	Message         string   `json:"message"`
	Seconds         float64  `json:"seconds"`
	Slot            int      `json:"slot"`
	Room            string   `json:"room"`
	Server          string   `json:"server"`
	Players         []string `json:"players"`
	Rollbacks       uint64   `json:"rollbacks"`
	HashMismatches  uint64   `json:"hash_mismatches"`
	BytesUpPerSec   float64  `json:"bytes_up_per_s"`
	BytesDownPerSec float64  `json:"bytes_down_per_s"`
	RoundsPlayed    int      `json:"rounds"`
	RoundsWithKill  int      `json:"rounds_with_kill"`
	MatchesEnded    int      `json:"matches_ended"`
	Rematches       int      `json:"rematches"`
	Winner          string   `json:"winner"`
	Results         []struct {
		Name      string `json:"name"`
		RoundWins int    `json:"round_wins"`
		Kills     int    `json:"kills"`
		Deaths    int    `json:"deaths"`
	} `json:"results"`
}

// joinProc is the built binary's join --headless, writing --stats-json
// to a file of the test's.
type joinProc struct {
	*binProc
	name      string
	statsFile string
}

// startJoin starts join addr --headless --stats-json FILE with args, and
// --name name unless name is "".
func startJoin(t *testing.T, ctx context.Context, addr, name string, args ...string) *joinProc {
	t.Helper()
	file := "client"
	if name != "" {
		file = name
		args = append([]string{"--name", name}, args...)
	}
	if !hasFlag(args, "--player-key") && !hasFlag(args, "--guest") {
		// Each player a key of its own, as each person has: the run's
		// state directory would give every join the same one.
		args = append(args, "--player-key", filepath.Join(playerKeys(t), file+".key"))
	}
	j := &joinProc{name: name, statsFile: filepath.Join(t.TempDir(), file+".json")}
	j.binProc = startBin(t, ctx, append([]string{"join", addr, "--headless", "--stats-json", j.statsFile}, args...)...)
	return j
}

// hasFlag reports whether args hold flag.
func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}

// playerKeys returns the directory of the test's players' keys.
var playerKeyDirs sync.Map // *testing.T → string

func playerKeys(t *testing.T) string {
	if d, ok := playerKeyDirs.Load(t); ok {
		return d.(string)
	}
	d := t.TempDir()
	playerKeyDirs.Store(t, d)
	return d
}

// stats reads the client's --stats-json file, and returns it raw too.
func (j *joinProc) stats() (joinStats, []byte, error) {
	var st joinStats
	b, err := os.ReadFile(j.statsFile)
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	return st, b, err
}

// result waits for the client to end and returns its stats: an exit
// other than 0 is an error of the test, stats it cannot read are fatal.
func (j *joinProc) result(t *testing.T) joinStats {
	t.Helper()
	if err := j.wait(); err != nil {
		t.Errorf("%s: %v: %s", j.name, err, j.stderr.String())
	}
	st, _, err := j.stats()
	if err != nil {
		t.Fatalf("%s: stats: %v", j.name, err)
	}
	return st
}

// headless starts join --headless against s as name.
func (s *binServer) headless(t *testing.T, ctx context.Context, name string, args ...string) *joinProc {
	t.Helper()
	return startJoin(t, ctx, s.addr, name, args...)
}
