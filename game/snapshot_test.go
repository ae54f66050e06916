package game

import (
	"reflect"
	"testing"
)

func TestSnapshotIndependentOfWorld(t *testing.T) {
	w, err := NewWorld(Config{Slots: 4, Seed: 8, MazeW: 15, MazeH: 11})
	if err != nil {
		t.Fatal(err)
	}
	rng := RNG{State: 1}
	in := make([]Input, 4)
	for k := 0; k < 300; k++ {
		randomInputs(&rng, w.Tick(), in)
		w.Step(in)
	}
	var saved Snapshot
	w.Save(&saved)
	copyOf := saved
	hash := Hash(&saved)
	for k := 0; k < 2000; k++ { // long enough to change rounds and mazes
		randomInputs(&rng, w.Tick(), in)
		w.Step(in)
	}
	w.State().Tanks[0].X++ // and poke the live state directly
	if !reflect.DeepEqual(saved, copyOf) || Hash(&saved) != hash {
		t.Fatal("mutating the world changed a saved snapshot")
	}
}

func TestRestoreReplacesAllState(t *testing.T) {
	a, _ := NewWorld(Config{Slots: 3, Seed: 1, MazeW: 15, MazeH: 11})
	b, _ := NewWorld(Config{Slots: 3, Seed: 2, MazeW: 15, MazeH: 11})
	rng := RNG{State: 3}
	in := make([]Input, 3)
	for k := 0; k < 1500; k++ {
		randomInputs(&rng, a.Tick(), in)
		a.Step(in)
	}
	for k := 0; k < 700; k++ {
		randomInputs(&rng, b.Tick(), in)
		b.Step(in)
	}
	var s Snapshot
	a.Save(&s)
	b.Restore(&s)
	if !reflect.DeepEqual(*a.State(), *b.State()) || *a.Maze() != *b.Maze() {
		t.Fatal("Restore left some of the old state (or maze) behind")
	}
	for k := 0; k < 2000; k++ {
		randomInputs(&rng, a.Tick(), in)
		a.Step(in)
		b.Step(in)
		if a.Hash() != b.Hash() {
			t.Fatalf("restored world diverged %d ticks later", k+1)
		}
	}
}

func TestRestoreRejectsInvalidSnapshot(t *testing.T) {
	w, _ := NewWorld(Config{Slots: 2, Seed: 1})
	s := *w.State()
	s.NumBullets = MaxBullets + 1
	defer func() {
		if recover() == nil {
			t.Fatal("Restore accepted a snapshot with too many bullets")
		}
	}()
	w.Restore(&s)
}

func TestStepKeepsSnapshotsValidAndCanonical(t *testing.T) {
	w, _ := NewWorld(Config{Slots: 4, Seed: 11, MazeW: 11, MazeH: 9})
	rng := RNG{State: 4}
	in := make([]Input, 4)
	for k := 0; k < 20000; k++ {
		randomInputs(&rng, w.Tick(), in)
		w.Step(in)
		if err := w.State().Validate(); err != nil {
			t.Fatalf("tick %d: %v", w.Tick(), err)
		}
		if k == 5000 {
			w.Seat(3, false)
		}
		if k == 9000 {
			w.Seat(3, true)
		}
	}
}
