package game

import (
	"fmt"
	"reflect"
	"testing"
)

// TestSyncRollbackReplay is GGPO's SyncTest: a world that, at every tick,
// restores the state of k ticks ago (k cycling 1..8) and replays the same
// inputs must reach exactly the hash of an uninterrupted run.
func TestSyncRollbackReplay(t *testing.T) {
	const ticks = 10000
	cfg := Config{Slots: 4, Seed: 0x5eed, MazeW: 13, MazeH: 9}
	ref, _ := NewWorld(cfg)
	rng := RNG{State: 77}
	inputs := make([][]Input, ticks)
	hashes := make([]uint64, ticks+1)
	hashes[0] = ref.Hash()
	rounds := ref.State().Round.Number
	for k := 0; k < ticks; k++ {
		inputs[k] = make([]Input, 4)
		randomInputs(&rng, ref.Tick(), inputs[k])
		ref.Step(inputs[k])
		hashes[k+1] = ref.Hash()
	}
	if got := ref.State().Round.Number - rounds; got < 3 {
		t.Fatalf("only %d round changes; the sync test should cross rounds (and mazes)", got)
	}

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
