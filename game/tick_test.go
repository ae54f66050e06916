package game

import (
	"math"
	"testing"
)

func TestTickCompareAcrossWrap(t *testing.T) {
	cases := []struct {
		a, b   Tick
		diff   int32
		before bool
	}{
		{5, 3, 2, false},
		{3, 5, -2, true},
		{0, math.MaxUint32, 1, false},
		{math.MaxUint32, 0, -1, true},
		{10, math.MaxUint32 - 9, 20, false},
		{math.MaxUint32 - 299, 100, -400, true},
		{7, 7, 0, false},
	}
	for _, c := range cases {
		if got := c.a.Diff(c.b); got != c.diff {
			t.Errorf("%d.Diff(%d) = %d, want %d", c.a, c.b, got, c.diff)
		}
		if got := c.a.Before(c.b); got != c.before {
			t.Errorf("%d.Before(%d) = %v, want %v", c.a, c.b, got, c.before)
		}
		if got := c.a.After(c.b); got != (c.diff > 0) {
			t.Errorf("%d.After(%d) = %v, want %v", c.a, c.b, got, c.diff > 0)
		}
		if got := c.b.Add(c.diff); got != c.a {
			t.Errorf("%d.Add(%d) = %d, want %d", c.b, c.diff, got, c.a)
		}
	}
}

func TestWorldStepsAcrossTickWrap(t *testing.T) {
	w, err := NewWorld(Config{Slots: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var s Snapshot
	w.Save(&s)
	s.Tick = math.MaxUint32 - 2
	w.Restore(&s)
	run(w, 5, hold(1, 0, ButtonFire))
	if w.Tick() != 2 {
		t.Fatalf("tick after wrap = %d, want 2", w.Tick())
	}
}
