package main

import (
	"fmt"
	"log/slog"

	"github.com/spf13/pflag"

	"ttytanks/netcode/recordings"
)

// recordFlags are serve's match recording flags.
type recordFlags struct {
	dir  string
	keep string
}

func (f *recordFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.dir, "record", "", "record every match to its own file in this directory (watch with 'ttytanks replay FILE', check with 'ttytanks verify FILE')")
	fs.StringVar(&f.keep, "record-keep", "500MB", "with --record, keep at most this many recordings (e.g. 50) or this total size (e.g. 100MB); the oldest go first")
}

func (f *recordFlags) check() error {
	if _, err := recordings.ParseKeep(f.keep); err != nil {
		return fmt.Errorf("--record-keep: %v", err)
	}
	return nil
}

// open returns the Recorder for --record, or nil without it.
func (f *recordFlags) open(logger *slog.Logger) (*recordings.Dir, error) {
	if f.dir == "" {
		return nil, nil
	}
	keep, _ := recordings.ParseKeep(f.keep)
	d, err := recordings.NewDir(f.dir, keep, "ttytanks "+version, logger)
	if err != nil {
		return nil, fmt.Errorf("--record: %v", err)
	}
	return d, nil
}
