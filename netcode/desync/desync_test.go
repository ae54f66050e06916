package desync

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"ttytanks/game"
)

func world(t *testing.T) *game.Snapshot {
	t.Helper()
	w, err := game.NewWorld(game.Config{Slots: 3, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	in := []game.Input{{MoveX: 1}, {MoveY: 1, Buttons: game.ButtonFire}, {}}
	for range 40 {
		for i := range in {
			in[i].Tick = w.Tick()
		}
		w.Step(in)
	}
	var s game.Snapshot
	w.Save(&s)
	return &s
}

// TestFirstDiff names the first differing field in declaration order,
// arrays by index, with both values.
func TestFirstDiff(t *testing.T) {
	a := world(t)
	for _, c := range []struct {
		name   string
		change func(s *game.Snapshot)
		want   Diff
	}{
		{"tank", func(s *game.Snapshot) { s.Tanks[1].X++ }, Diff{"Tanks[1].X", "", ""}},
		{"round", func(s *game.Snapshot) { s.Round.Winner = 2; s.Tanks[0].HP = 1 }, Diff{"Round.Winner", "", ""}},
		{"bullet", func(s *game.Snapshot) { s.Bullets[0].VX = -s.Bullets[0].VX - 1 }, Diff{"Bullets[0].VX", "", ""}},
		{"rng first", func(s *game.Snapshot) { s.Tanks[2].Alive = !s.Tanks[2].Alive; s.RNG ^= 1 }, Diff{"RNG", "", ""}},
	} {
		b := *a
		c.change(&b)
		d, ok := FirstDiff(a, &b)
		if !ok || d.Field != c.want.Field || d.A == d.B {
			t.Errorf("%s: got %+v, %v; want field %s", c.name, d, ok, c.want.Field)
		}
	}
	b := *a
	if d, ok := FirstDiff(a, &b); ok {
		t.Errorf("equal snapshots: got %+v", d)
	}
}

// TestEvidenceRoundTrip: evidence written and read back is the same, and
// Explain names the differing field and the hash disagreement.
func TestEvidenceRoundTrip(t *testing.T) {
	own := world(t)
	recv := *own
	recv.Tanks[0].Y += 3
	e := New(&recv, game.Hash(own), own)
	var buf bytes.Buffer
	if err := e.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got.Received != e.Received || *got.Own != *e.Own || got.ServerHash != e.ServerHash || got.Tick != e.Tick {
		t.Fatal("evidence changed in a round trip")
	}
	rep, differs := Explain(&got)
	if !differs || !strings.Contains(rep, "first differing field: Tanks[0].Y") || !strings.Contains(rep, "the server sent") {
		t.Fatalf("report %q", rep)
	}
	t.Log(rep)
}

// TestReadRejects: anything but evidence fails with ErrNotEvidence.
func TestReadRejects(t *testing.T) {
	for _, in := range []string{"", "{", `{"format":"other"}`, "[1,2]", strings.Repeat(" ", MaxFileLen+1)} {
		if _, err := Read(strings.NewReader(in)); !errors.Is(err, ErrNotEvidence) {
			t.Errorf("Read(%.20q): %v, want ErrNotEvidence", in, err)
		}
	}
}

// TestDirWritesAtMostMax: a Dir writes at most Max files.
func TestDirWritesAtMostMax(t *testing.T) {
	d := &Dir{Path: t.TempDir() + "/ev", Max: 3}
	s := world(t)
	for range 10 {
		d.Record(s, 1, nil)
	}
	ents, err := os.ReadDir(d.Path)
	if err != nil || len(ents) != 3 || d.Err() != nil {
		t.Fatalf("%d files, %v, %v; want 3", len(ents), err, d.Err())
	}
}
