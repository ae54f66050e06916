package resim

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"ttytanks/game"
	"ttytanks/proto/recording/rectest"
)

// TestSeekEqualsPlaying: seeking to any tick, forwards or back, gives the
// world, names and hash that playing from the start reaches there.
func TestSeekEqualsPlaying(t *testing.T) {
	tl, err := Load(bytes.NewReader(rectest.Sample(t)))
	if err != nil || tl.Err() != nil {
		t.Fatal(err, tl.Err())
	}
	n := int(tl.End().Diff(tl.Start()))
	hashes := make([]uint64, n+1)
	names := make([][game.MaxPlayers]string, n+1)
	for i := 0; ; i++ {
		hashes[i] = tl.world.Hash()
		names[i] = tl.names
		if !tl.Step() {
			break
		}
	}
	if tl.Tick() != tl.End() || n != 7200 {
		t.Fatalf("played to %d of %d (%d ticks)", tl.Tick(), tl.End(), n)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		i := rng.IntN(n + 1)
		tl.Seek(tl.Start().Add(int32(i)))
		if tl.Tick() != tl.Start().Add(int32(i)) || tl.world.Hash() != hashes[i] || tl.names != names[i] {
			t.Fatalf("seek to +%d: at %d, hash %016x names %q; playing gave %016x %q", i, tl.Tick(), tl.world.Hash(), tl.names, hashes[i], names[i])
		}
	}
}

// TestRoundStarts: the round starts step through the rounds, each
// landing on a tick whose round number is one more than the last.
func TestRoundStarts(t *testing.T) {
	tl, err := Load(bytes.NewReader(rectest.Sample(t)))
	if err != nil {
		t.Fatal(err)
	}
	prev := tl.Round()
	for tl.Tick() != tl.End() {
		tl.Seek(tl.RoundStart(1))
		if tl.Tick() == tl.End() {
			break
		}
		if tl.Round() != prev+1 {
			t.Fatalf("next round at tick %d is round %d, after round %d", tl.Tick(), tl.Round(), prev)
		}
		prev = tl.Round()
	}
	if prev != tl.Rounds() {
		t.Fatalf("stepped through %d rounds, the timeline has %d", prev, tl.Rounds())
	}
	tl.Seek(tl.RoundStart(-1))
	if tl.Round() != prev-1 {
		t.Fatalf("previous round from the end: round %d, want %d", tl.Round(), prev-1)
	}
}

// TestLoadCutFile: a file cut mid-block loads up to its last complete
// block and says it was interrupted.
func TestLoadCutFile(t *testing.T) {
	file := rectest.Sample(t)
	ks, offs, _ := rectest.Blocks(file)
	tl, err := Load(bytes.NewReader(file[:offs[10]+3]))
	if err != nil || tl.End() != ks[10].First || !tl.Interrupted() {
		t.Fatalf("got end %d, interrupted %v, %v; want end %d, interrupted", tl.End(), tl.Interrupted(), err, ks[10].First)
	}
}
