package loadtest

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The timers give back their slots earliest first, whatever order they
// were set, moved (earlier and later) and removed in: a seeded random
// walk of sets and removes over 64 slots, checked against a plain map
// after each step by popping a copy of the heap dry.
func TestTimersFireInOrder(t *testing.T) {
	const slots = 64
	rng := rand.New(rand.NewPCG(1, 2))
	tm := newTimers(slots)
	model := map[int]int64{} // slot → due
	for step := 0; step < 5000; step++ {
		slot := rng.IntN(slots)
		switch rng.IntN(4) {
		case 0:
			tm.remove(slot)
			delete(model, slot)
		default:
			at := rng.Int64N(1000) // ties included
			tm.set(slot, at)
			model[slot] = at
		}
		if tm.Len() != len(model) {
			t.Fatalf("step %d: %d timers, want %d", step, tm.Len(), len(model))
		}
		for s, want := range model {
			if got, ok := tm.at(s); !ok || got != want {
				t.Fatalf("step %d: slot %d at %d (%v), want %d", step, s, got, ok, want)
			}
		}
		if step%50 != 0 {
			continue
		}
		// Pop a copy dry: the slots come out by due time.
		cp := timers{h: slices.Clone(tm.h), pos: slices.Clone(tm.pos)}
		var got []int64
		for cp.Len() > 0 {
			top := cp.peek()
			if model[int(top.slot)] != top.at {
				t.Fatalf("step %d: slot %d came out at %d, it is due at %d", step, top.slot, top.at, model[int(top.slot)])
			}
			got = append(got, top.at)
			cp.remove(int(top.slot))
		}
		if !slices.IsSorted(got) || len(got) != len(model) {
			t.Fatalf("step %d: popped %v, not in order or not all %d", step, got, len(model))
		}
	}
}
