package game

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden_hashes.txt from the current rules")

const (
	goldenTicks = 24000
	goldenEvery = 1000
	goldenFile  = "golden_hashes.txt"
)

// events counts what happened in a run, derived by comparing consecutive
// snapshots, so the golden test can prove its script exercises every rule.
type events struct {
	moves, wallStops, tankContacts, shots, ricochets, hits, deaths, rounds int
	countdownTicks, kills, matchEnds, votes                                int
}

func (e *events) observe(prev, cur *Snapshot, in []Input) {
	if cur.Round.Number != prev.Round.Number {
		e.rounds++
		return
	}
	if prev.Round.Phase == PhaseCountdown {
		e.countdownTicks++
	}
	if prev.Round.Phase != PhaseMatchOver && cur.Round.Phase == PhaseMatchOver {
		e.matchEnds++
	}
	for i := 0; i < int(cur.Slots); i++ {
		if cur.Tanks[i].Rematch && !prev.Tanks[i].Rematch {
			e.votes++
		}
		e.kills += int(cur.Tanks[i].Stats.Kills - prev.Tanks[i].Stats.Kills)
	}
	for i := 0; i < int(cur.Slots); i++ {
		p, c := &prev.Tanks[i], &cur.Tanks[i]
		if c.X != p.X || c.Y != p.Y {
			e.moves++
		}
		if c.Alive && c.Hitstun == 0 && ((in[i].MoveX != 0 && c.X == p.X) || (in[i].MoveY != 0 && c.Y == p.Y)) {
			e.wallStops++
		}
		if c.HP < p.HP {
			e.hits++
		}
		if p.Alive && !c.Alive {
			e.deaths++
		}
		for j := i + 1; j < int(cur.Slots); j++ {
			o := &cur.Tanks[j]
			if c.Alive && o.Alive && max(abs32(c.X-o.X), abs32(c.Y-o.Y)) == 2*TankHalf {
				e.tankContacts++
			}
		}
	}
	if cur.NumBullets > prev.NumBullets {
		e.shots += int(cur.NumBullets - prev.NumBullets)
	}
	for k := 0; k < int(cur.NumBullets); k++ {
		b := &cur.Bullets[k]
		// A bullet is identified across ticks by (owner, remaining life).
		for q := 0; q < int(prev.NumBullets); q++ {
			pb := &prev.Bullets[q]
			if pb.Owner == b.Owner && pb.Life == b.Life+1 && b.Bounces == pb.Bounces+1 {
				e.ricochets++
				break
			}
		}
	}
}

// runGolden plays the golden script and returns the hash every goldenEvery
// ticks, starting with tick 0. The match is won at 10 round wins, which
// happens near the end of the run (the script and the seed were chosen so
// that every rule is exercised, a match end and rematch votes included).
func runGolden(t testing.TB) ([]string, events) {
	w, err := NewWorld(Config{Slots: 4, Seed: 0x7474616e6b73, MazeW: 21, MazeH: 15, Rounds: 10})
	if err != nil {
		t.Fatal(err)
	}
	sc := newScript(104)
	var in []Input
	var prev Snapshot
	var ev events
	var lines []string
	for k := 0; k <= goldenTicks; k++ {
		if k%goldenEvery == 0 {
			lines = append(lines, fmt.Sprintf("%d %016x", w.Tick(), w.Hash()))
		}
		if k == goldenTicks {
			break
		}
		w.Save(&prev)
		in = sc.inputs(w, in)
		w.Step(in)
		ev.observe(&prev, w.State(), in)
	}
	return lines, ev
}

func TestGoldenDeterminism(t *testing.T) {
	got, ev := runGolden(t)
	t.Logf("script exercised %+v", ev)
	checks := []struct {
		what string
		n    int
		min  int
	}{
		{"moving tanks", ev.moves, 1000},
		{"tanks stopped by a wall", ev.wallStops, 100},
		{"tank-tank contacts", ev.tankContacts, 5},
		{"shots", ev.shots, 100},
		{"ricochets", ev.ricochets, 100},
		{"hits", ev.hits, 20},
		{"deaths", ev.deaths, 10},
		{"round transitions", ev.rounds, 3},
		{"countdown ticks", ev.countdownTicks, 3 * CountdownTicks},
		{"kills", ev.kills, 5},
		{"match ends", ev.matchEnds, 1},
		{"rematch votes", ev.votes, 2},
	}
	for _, c := range checks {
		if c.n < c.min {
			t.Errorf("golden script has %d %s, want at least %d", c.n, c.what, c.min)
		}
	}
	path := filepath.Join("testdata", goldenFile)
	if *update {
		if err := os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test ./game -run Golden -update to create it)", err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			want = append(want, line)
		}
	}
	if len(want) != len(got) {
		t.Fatalf("golden file has %d lines, run produced %d", len(want), len(got))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("first divergence at line %d: got %q, want %q (the simulation changed; if on purpose, rerun with -update and bump the protocol version)", i, got[i], want[i])
		}
	}
}
