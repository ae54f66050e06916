package recording

import (
	"errors"
	"fmt"
	"strings"

	"ttytanks/game"
)

// Decoding errors. Every Parse function and the Reader return one of these,
// possibly wrapped with detail; test for them with errors.Is.
var (
	// ErrShort means the bytes end before the header or block does.
	ErrShort = errors.New("recording: short data")
	// ErrMagic means the data does not start with Magic: it is not a
	// recording.
	ErrMagic = errors.New("recording: not a ttytanks recording (bad magic)")
	// ErrVersion means the recording's format version is not FormatVersion.
	ErrVersion = errors.New("recording: unsupported format version")
	// ErrChecksum means a header's or block's CRC-32C does not match its
	// bytes: the data was corrupted.
	ErrChecksum = errors.New("recording: checksum mismatch")
	// ErrTooLarge means a length, count or tick range is beyond the
	// format's limits (MaxBlockLen, MaxBlockTicks, MaxEvents, ...).
	ErrTooLarge = errors.New("recording: length or count beyond the format's limits")
	// ErrMalformed means a field holds a value the format does not allow
	// (a varint that overflows, an unknown event kind, a slot out of
	// range, a non-canonical input encoding, bytes left over).
	ErrMalformed = errors.New("recording: malformed field")
	// ErrTag means a block does not start with BlockTag.
	ErrTag = errors.New("recording: bad block tag")
)

// Simulation errors, from the Writer's own check and from Verify.
var (
	// ErrHash means a re-simulated world hash differs from the recorded one.
	ErrHash = errors.New("recording: world hash differs")
	// ErrSequence means blocks, ticks or events are out of order: a block
	// does not start where the previous one ended, or an event is for a
	// tick that is not the current one.
	ErrSequence = errors.New("recording: out of sequence")
)

// BlockError reports a block that cannot be read: where it starts in the
// file and, when its body could be parsed, the ticks it covers. Err is one
// of the sentinels above (ErrShort for a block cut off by the end of the
// file). errors.Is(err, Err) holds.
type BlockError struct {
	// Offset is the byte offset of the block's first byte in the file.
	Offset int64
	// First and Count are the block's tick range, valid when Ticks is set.
	First game.Tick
	Count int
	Ticks bool
	// Err says what is wrong.
	Err error
}

// Error returns a message such as
// "recording: block at byte 1234 (ticks 600..659): checksum mismatch".
func (e *BlockError) Error() string {
	msg := strings.TrimPrefix(e.Err.Error(), "recording: ")
	if e.Ticks {
		return fmt.Sprintf("recording: block at byte %d (ticks %d..%d): %s", e.Offset, e.First, int64(e.First)+int64(e.Count)-1, msg)
	}
	return fmt.Sprintf("recording: block at byte %d: %s", e.Offset, msg)
}

// Unwrap returns Err.
func (e *BlockError) Unwrap() error { return e.Err }

// CheckpointError reports the first checkpoint whose re-simulated hash
// chain differs from the recorded one. errors.Is(err, ErrHash) holds.
type CheckpointError struct {
	// Tick is the checkpoint's tick: the world after stepping Tick−1.
	Tick game.Tick
	// Offset is the byte offset of the block holding the checkpoint.
	Offset int64
	// Got is the re-simulated chain value; Want the recorded one.
	Got, Want uint64
}

// Error returns a message naming the checkpoint's tick and block.
func (e *CheckpointError) Error() string {
	return fmt.Sprintf("recording: checkpoint at tick %d (block at byte %d): hash chain %016x, recorded %016x",
		e.Tick, e.Offset, e.Got, e.Want)
}

// Unwrap returns ErrHash.
func (e *CheckpointError) Unwrap() error { return ErrHash }
