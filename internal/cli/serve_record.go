package cli

import (
	"fmt"
	"log/slog"
	"sync"

	"github.com/spf13/pflag"

	"ttytanks/netcode"
	"ttytanks/netcode/recordings"
)

// recordFlags are serve's match recording flags.
type recordFlags struct {
	dir  string
	keep string
}

func (f *recordFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.dir, "record", "", "record every match to its own file in this directory (watch with 'ttytanks replay FILE', check with 'ttytanks verify FILE')")
	fs.StringVar(&f.keep, "record-keep", "500MB", "with --record, keep at most this many recordings (e.g. 50) or this total size (e.g. 100MB), matches in progress counted; the oldest finished recordings go first")
}

func (f *recordFlags) check() error {
	if _, err := recordings.ParseKeep(f.keep); err != nil {
		return fmt.Errorf("--record-keep: %v", err)
	}
	return nil
}

// roomRecorders gives each room its own recordings.Dir in the --record
// directory, all of one recordings.Store, so that --record-keep bounds
// the directory as a whole, matches in progress of every room included
// (files are named by match, so rooms do not collide), and closes them
// all at exit.
type roomRecorders struct {
	store  *recordings.Store
	writer string // the program that writes the recordings: "ttytanks VERSION"
	logger *slog.Logger
	mu     sync.Mutex // the server's loop opens, the exit closes
	open   []*recordings.Dir
}

// forRoom returns a new room's Recorder.
func (r *roomRecorders) forRoom(room string) netcode.Recorder {
	d := r.store.Dir(r.writer, r.logger.With("room", room))
	r.mu.Lock()
	r.open = append(r.open, d)
	r.mu.Unlock()
	return d
}

// counts returns the recordings written and failed in every room so far.
func (r *roomRecorders) counts() (written, failed uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.open {
		w, f := d.Counts()
		written, failed = written+w, failed+f
	}
	return written, failed
}

// Close closes every room's Recorder.
func (r *roomRecorders) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var first error
	for _, d := range r.open {
		if err := d.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// open returns the room recorders for --record, or nil without it; the
// recordings name ttytanks of this version as their writer. It makes the
// directory if needed and reads what it holds.
func (f *recordFlags) open(logger *slog.Logger, version string) (*roomRecorders, error) {
	if f.dir == "" {
		return nil, nil
	}
	keep, _ := recordings.ParseKeep(f.keep)
	st, err := recordings.NewStore(f.dir, keep, logger)
	if err != nil {
		return nil, fmt.Errorf("--record: %v", err)
	}
	return &roomRecorders{store: st, writer: "ttytanks " + version, logger: logger}, nil
}
