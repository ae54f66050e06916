package desync

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"ttytanks/game"
)

// MaxFileLen bounds what Read reads, in bytes.
const MaxFileLen = 1 << 20

// ErrNotEvidence means a file is not desync evidence.
var ErrNotEvidence = errors.New("desync: not a desync evidence file")

// Evidence is what a client saw when a State did not match its hash.
type Evidence struct {
	// Format is "ttytanks-desync-1".
	Format string `json:"format"`
	// Tick is the State's tick.
	Tick game.Tick `json:"tick"`
	// ServerHash is the hash the server sent with the State.
	ServerHash uint64 `json:"server_hash"`
	// Received is the State's snapshot as the client decoded it.
	Received game.Snapshot `json:"received"`
	// Own is the client's own snapshot of that tick, if it held one.
	Own *game.Snapshot `json:"own,omitempty"`
}

const format = "ttytanks-desync-1"

// New returns the evidence of a State: the snapshot received, the server's
// hash and the client's own snapshot (nil: none). It copies the snapshots.
func New(received *game.Snapshot, hash uint64, own *game.Snapshot) Evidence {
	e := Evidence{Format: format, Tick: received.Tick, ServerHash: hash, Received: *received}
	if own != nil {
		o := *own
		e.Own = &o
	}
	return e
}

// Write writes e as indented JSON.
func (e *Evidence) Write(w io.Writer) error {
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Read reads evidence written by Write, at most MaxFileLen bytes.
func Read(r io.Reader) (Evidence, error) {
	var e Evidence
	b, err := io.ReadAll(io.LimitReader(r, MaxFileLen+1))
	if err != nil {
		return e, err
	}
	if len(b) > MaxFileLen {
		return e, fmt.Errorf("%w: longer than %d bytes", ErrNotEvidence, MaxFileLen)
	}
	if err := json.Unmarshal(b, &e); err != nil {
		return e, fmt.Errorf("%w: %v", ErrNotEvidence, err)
	}
	if e.Format != format {
		return e, fmt.Errorf("%w: format %q", ErrNotEvidence, e.Format)
	}
	return e, nil
}
