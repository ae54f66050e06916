package desync

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"ttytanks/game"
)

// DefaultMax is how many evidence files a Dir writes when Max is zero.
const DefaultMax = 16

// Dir writes desync evidence files into a directory, at most Max of them
// (so a broken server cannot fill the disk), named by tick and count:
// desync-<tick>-<n>.json. The directory is created on the first write.
// Failures are kept in Err; nothing is printed (the terminal is the
// game's). Dir is safe for concurrent use.
type Dir struct {
	Path string
	Max  int

	mu      sync.Mutex
	written int
	err     error
}

// Record writes the evidence of one State; it has the signature of
// netcode.ClientConfig.OnDesync.
func (d *Dir) Record(received *game.Snapshot, hash uint64, own *game.Snapshot) {
	d.mu.Lock()
	defer d.mu.Unlock()
	max := d.Max
	if max <= 0 {
		max = DefaultMax
	}
	if d.written >= max || d.err != nil {
		return
	}
	e := New(received, hash, own)
	d.written++
	if err := os.MkdirAll(d.Path, 0o755); err != nil {
		d.err = err
		return
	}
	name := filepath.Join(d.Path, fmt.Sprintf("desync-%d-%d.json", e.Tick, d.written))
	f, err := os.Create(name)
	if err != nil {
		d.err = err
		return
	}
	if err := e.Write(f); err != nil {
		d.err = err
	}
	if err := f.Close(); err != nil && d.err == nil {
		d.err = err
	}
}

// Err returns the first failure to write, if any.
func (d *Dir) Err() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// Written returns how many files were written.
func (d *Dir) Written() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.written
}
