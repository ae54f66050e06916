package resim

import (
	"errors"
	"fmt"
	"io"

	"ttytanks/game"
	"ttytanks/proto/recording"
)

// Summary describes a verified recording.
type Summary struct {
	Header recording.Header
	// Ticks is the number of ticks re-simulated; End the tick reached.
	Ticks int
	End   game.Tick
	// Rounds counts the rounds that finished; Checkpoints the hash
	// checkpoints that matched.
	Rounds, Checkpoints int
	// Ended is true when the recording holds the match's end; Winner is
	// then the seat with the highest score (−1 for a tie) and Scores the
	// final scores.
	Ended  bool
	Winner int
	Scores []uint16
	// Names are the seats' players at the end.
	Names [game.MaxPlayers]string
	// Interrupted, when the file ends inside a block (a recording cut
	// short), is the reader's error naming that block; everything before
	// it was verified.
	Interrupted error
}

// ErrNoTicks means a recording holds no tick to re-simulate: the file is
// truncated before its first block is complete, or the match it holds
// ended before its first tick. Verify never reports such a file as good.
var ErrNoTicks = errors.New("resim: no tick to verify")

// Verify reads a whole recording from r and re-simulates it: every block's
// checksum, every checkpoint of the hash chain and every recorded result
// must match. A recording cut off inside a block verifies up to its last
// complete block, with Summary.Interrupted set. The error names what
// failed: a *recording.BlockError (byte offset and ticks) for a block that
// cannot be read, a *recording.CheckpointError for the first checkpoint
// whose hash differs, an error wrapping ErrNoTicks for a file without a
// tick, recording.ErrMagic for one that is not a recording,
// recording.ErrShort for one cut inside its header, or ErrResult or
// recording.ErrSequence.
func Verify(r io.Reader) (Summary, error) {
	var sum Summary
	rd, err := recording.NewReader(r)
	if err != nil {
		return sum, err
	}
	sum.Header = rd.Header()
	s, err := newSim(sum.Header)
	if err != nil {
		return sum, err
	}
	fill := func() {
		sum.End = s.world.Tick()
		sum.Ticks = int(sum.End.Diff(sum.Header.Start))
		sum.Rounds, sum.Checkpoints, sum.Names = s.rounds, s.checks, s.names
		if s.end != nil {
			sum.Ended, sum.Winner, sum.Scores = true, int(s.end.Winner), s.end.Scores
		}
	}
	for {
		off := rd.Offset()
		k, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fill()
			if errors.Is(err, recording.ErrShort) {
				if sum.Ticks == 0 {
					return sum, fmt.Errorf("%w: truncated before its first block (%v)", ErrNoTicks, err)
				}
				sum.Interrupted = err
				return sum, nil
			}
			return sum, err
		}
		if err := s.block(&k, off, nil); err != nil {
			fill()
			return sum, err
		}
	}
	fill()
	switch {
	case sum.Ticks > 0:
		return sum, nil
	case sum.Ended:
		return sum, fmt.Errorf("%w: the match ended before its first tick", ErrNoTicks)
	case rd.Offset() == int64(sum.Header.Len()):
		return sum, fmt.Errorf("%w: truncated before its first block (the file is its header alone)", ErrNoTicks)
	}
	return sum, fmt.Errorf("%w: its blocks hold no tick", ErrNoTicks)
}
