package game

import (
	"fmt"
	"reflect"
	"testing"
)

// TestSyncRollbackReplay is GGPO's SyncTest: a world that, at every tick,
// restores the state of k ticks ago (k cycling 1..8) and replays the same
// inputs must reach exactly the hash of an uninterrupted run. It runs an
// endless match across rounds, countdowns and mazes, and a match won at 3
// round wins, through its end and the rematch votes after it.
func TestSyncRollbackReplay(t *testing.T) {
	t.Run("endless", func(t *testing.T) {
		syncTest(t, Config{Slots: 4, Seed: 0x5eed, MazeW: 13, MazeH: 9}, 10000)
	})
	t.Run("to 3 wins", func(t *testing.T) {
		syncTest(t, Config{Slots: 3, Seed: 0x5eed, MazeW: 11, MazeH: 9, Rounds: 3}, 8000)
	})
}

func syncTest(t *testing.T, cfg Config, ticks int) {
	ref, _ := NewWorld(cfg)
	rng := RNG{State: 77}
	inputs := make([][]Input, ticks)
	hashes := make([]uint64, ticks+1)
	hashes[0] = ref.Hash()
	rounds := ref.State().Round.Number
	countdowns, matchOver, votes := 0, -1, 0
	for k := 0; k < ticks; k++ {
		inputs[k] = make([]Input, cfg.Slots)
		randomVotingInputs(&rng, ref.Tick(), inputs[k])
		ref.Step(inputs[k])
		hashes[k+1] = ref.Hash()
		s := ref.State()
		if s.Round.Phase == PhaseCountdown && s.Round.Timer == CountdownTicks {
			countdowns++
		}
		if s.Round.Phase == PhaseMatchOver && matchOver < 0 {
			matchOver = k + 1
		}
	}
	for i := range ref.State().Tanks {
		if ref.State().Tanks[i].Rematch {
			votes++
		}
	}
	if got := ref.State().Round.Number - rounds; got < 3 || countdowns < 3 {
		t.Fatalf("only %d round changes and %d countdowns; the sync test should cross rounds (and mazes)", got, countdowns)
	}
	if cfg.Rounds > 0 && (matchOver < 0 || matchOver > ticks-500 || votes < 2) {
		t.Fatalf("the match ended at tick %d of %d with %d votes; the sync test should run well past its end", matchOver, ticks, votes)
	}
	t.Logf("%d rounds, %d countdowns, match over at %d, %d votes", ref.State().Round.Number, countdowns, matchOver, votes)

	w, _ := NewWorld(cfg)
	hist := make([]Snapshot, ticks+1) // hist[k] = state at tick k
	w.Save(&hist[0])
	for k := 0; k < ticks; k++ {
		w.Step(inputs[k])
		w.Save(&hist[k+1])
		back := 1 + k%8
		if back > k+1 {
			back = k + 1
		}
		from := k + 1 - back
		w.Restore(&hist[from])
		for r := from; r <= k; r++ {
			w.Step(inputs[r])
			if h := w.Hash(); h != hashes[r+1] {
				var want Snapshot
				replayTo(t, cfg, inputs, r+1, &want)
				t.Fatalf("tick %d (rolled back %d from %d): hash %x, want %x; %s",
					r+1, back, k+1, h, hashes[r+1], firstDiff(w.State(), &want))
			}
		}
		w.Save(&hist[k+1])
	}
	if !reflect.DeepEqual(*w.State(), *ref.State()) || *w.Maze() != *ref.Maze() {
		t.Fatal("final states differ")
	}
}

// replayTo runs a fresh world through inputs up to tick n and saves it.
func replayTo(t *testing.T, cfg Config, inputs [][]Input, n int, dst *Snapshot) {
	w, _ := NewWorld(cfg)
	for k := 0; k < n; k++ {
		w.Step(inputs[k])
	}
	w.Save(dst)
}

// firstDiff names the first field in which two snapshots differ.
func firstDiff(a, b *Snapshot) string {
	var out string
	var walk func(x, y reflect.Value, path string) bool
	walk = func(x, y reflect.Value, path string) bool {
		switch x.Kind() {
		case reflect.Struct:
			for i := 0; i < x.NumField(); i++ {
				if walk(x.Field(i), y.Field(i), path+"."+x.Type().Field(i).Name) {
					return true
				}
			}
		case reflect.Array:
			for i := 0; i < x.Len(); i++ {
				if walk(x.Index(i), y.Index(i), fmt.Sprintf("%s[%d]", path, i)) {
					return true
				}
			}
		default:
			if x.Interface() != y.Interface() {
				out = fmt.Sprintf("first difference at %s: got %v, want %v", path, x.Interface(), y.Interface())
				return true
			}
		}
		return false
	}
	if !walk(reflect.ValueOf(*a), reflect.ValueOf(*b), "Snapshot") {
		return "snapshots are equal"
	}
	return out
}
