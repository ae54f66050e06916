package resim

import (
	"bytes"
	"errors"
	"testing"

	"ttytanks/game"
	"ttytanks/proto/recording"
	"ttytanks/proto/recording/rectest"
)

// TestVerifyAcceptsAMatch: a recorded match verifies, with its ticks,
// rounds, checkpoints and result.
func TestVerifyAcceptsAMatch(t *testing.T) {
	sum, err := Verify(bytes.NewReader(rectest.Sample(t)))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ticks != 7200 || !sum.Ended || sum.Rounds == 0 || sum.Checkpoints != 120 || sum.Interrupted != nil {
		t.Fatalf("summary %+v: want 7200 ticks, 120 checkpoints, rounds and an end", sum)
	}
	if sum.Names[1] != "zed" {
		t.Errorf("seat 1 at the end: %q, want zed", sum.Names[1])
	}
	t.Logf("%d ticks, %d rounds, winner %d, scores %v", sum.Ticks, sum.Rounds, sum.Winner, sum.Scores)
}

// TestVerifyNamesTheCorruptBlock: one input bit flipped in a copy makes
// Verify fail with a checksum error naming that block's offset and ticks.
func TestVerifyNamesTheCorruptBlock(t *testing.T) {
	file := bytes.Clone(rectest.Sample(t))
	ks, offs, _ := rectest.Blocks(file)
	v := len(ks) / 2
	file[offs[v]+12] ^= 0x04 // inside the input bits (tag, length, first, count, input length come first)
	_, err := Verify(bytes.NewReader(file))
	var be *recording.BlockError
	if !errors.As(err, &be) || !errors.Is(err, recording.ErrChecksum) || be.Offset != offs[v] || be.First != ks[v].First || be.Count != ks[v].Count {
		t.Fatalf("got %v; want a checksum error for the block at byte %d, ticks %d..", err, offs[v], ks[v].First)
	}
	t.Log(err)
}

// TestVerifyNamesTheCheckpoint: one bit of a checkpoint's hash chain
// flipped in a copy, with the block's CRC recomputed so only the
// simulation can catch it, makes Verify fail naming that checkpoint's
// tick and block.
func TestVerifyNamesTheCheckpoint(t *testing.T) {
	file := bytes.Clone(rectest.Sample(t))
	ks, offs, _ := rectest.Blocks(file)
	v := len(ks) / 3
	k := ks[v]
	k.Checkpoints[0].Chain ^= 1 << 17
	copy(file[offs[v]:], k.Append(nil))
	_, err := Verify(bytes.NewReader(file))
	var ce *recording.CheckpointError
	if !errors.As(err, &ce) || !errors.Is(err, recording.ErrHash) || ce.Tick != k.Checkpoints[0].Tick || ce.Offset != offs[v] {
		t.Fatalf("got %v; want a hash error at the checkpoint of tick %d in the block at byte %d", err, k.Checkpoints[0].Tick, offs[v])
	}
	t.Log(err)
}

// TestVerifyCatchesAChangedInput: inputs changed in a copy, with the CRC
// recomputed, make the simulation diverge: Verify names a checkpoint at or
// after the block's first tick, never one before. (A block played while
// every tank is dead or the round is over ignores its inputs, so the test
// tries blocks until one matters, and requires that one does.)
func TestVerifyCatchesAChangedInput(t *testing.T) {
	orig := rectest.Sample(t)
	ks, offs, _ := rectest.Blocks(orig)
	for v := len(ks) / 4; v < len(ks)/4+10; v++ {
		k := ks[v]
		k.Inputs = append([]game.Input(nil), k.Inputs...)
		for i := range k.Inputs {
			in := &k.Inputs[i]
			in.MoveX, in.MoveY = -in.MoveX, -in.MoveY
			if in.MoveX == 0 && in.MoveY == 0 {
				in.MoveX = 1
			}
			in.Buttons ^= game.ButtonFire
		}
		_, err := Verify(bytes.NewReader(splice(orig, offs, v, k.Append(nil))))
		if err == nil {
			continue
		}
		var ce *recording.CheckpointError
		if !errors.As(err, &ce) || ce.Tick.Before(k.First) {
			t.Fatalf("got %v; want a hash error at a checkpoint from tick %d on", err, k.First)
		}
		t.Log(err)
		return
	}
	t.Fatal("changing every input of 10 blocks changed no checkpoint")
}

// TestVerifyInterrupted: a recording cut inside a block verifies up to
// its last complete block and says it was interrupted there.
func TestVerifyInterrupted(t *testing.T) {
	file := rectest.Sample(t)
	ks, offs, _ := rectest.Blocks(file)
	v := len(ks) / 2
	sum, err := Verify(bytes.NewReader(file[:offs[v]+5]))
	if err != nil || sum.Interrupted == nil || sum.Ended || sum.End != ks[v].First {
		t.Fatalf("got %+v, %v; want interrupted at tick %d", sum, err, ks[v].First)
	}
	t.Log(sum.Interrupted)
}

// TestVerifyChecksResults: a round result that the simulation does not
// produce (the winner changed, CRC recomputed) fails with ErrResult.
func TestVerifyChecksResults(t *testing.T) {
	file := bytes.Clone(rectest.Sample(t))
	ks, offs, _ := rectest.Blocks(file)
	for v, k := range ks {
		for i := range k.Events {
			if k.Events[i].Kind != recording.EventRound {
				continue
			}
			k.Events[i].Winner = -1 - k.Events[i].Winner // a draw becomes a win of seat 0 and a win a draw
			if k.Events[i].Winner < -1 {
				k.Events[i].Winner = -1
			}
			file = splice(file, offs, v, k.Append(nil))
			if _, err := Verify(bytes.NewReader(file)); !errors.Is(err, ErrResult) {
				t.Fatalf("got %v, want ErrResult", err)
			}
			return
		}
	}
	t.Fatal("the sample has no round event")
}

// splice returns file with its block v (of those at offs) replaced by enc.
func splice(file []byte, offs []int64, v int, enc []byte) []byte {
	end := int64(len(file))
	if v+1 < len(offs) {
		end = offs[v+1]
	}
	return append(append(append([]byte(nil), file[:offs[v]]...), enc...), file[end:]...)
}

// TestVerifyRefusesOtherRules: a recording whose header names other game
// rules is refused with ErrRules, not re-simulated into a false mismatch.
func TestVerifyRefusesOtherRules(t *testing.T) {
	file := rectest.Sample(t)
	r, err := recording.NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	n := h.Len()
	h.Rules++
	other := append(h.Append(nil), file[n:]...)
	if _, err := Verify(bytes.NewReader(other)); !errors.Is(err, ErrRules) {
		t.Fatalf("got %v, want ErrRules", err)
	}
	if _, err := Load(bytes.NewReader(other)); !errors.Is(err, ErrRules) {
		t.Fatalf("Load: got %v, want ErrRules", err)
	}
}
