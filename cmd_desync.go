package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"ttytanks/game"
	"ttytanks/netcode/desync"
)

// desyncDir is join's --desync-dir: where the client writes desync
// evidence ("" for nowhere).
var desyncDir string

func registerDesync(fs *pflag.FlagSet) {
	fs.StringVar(&desyncDir, "desync-dir", "", "when a State does not match the server's hash, write the evidence (the State and this client's own snapshot of that tick, at most 16 files) to this directory; 'ttytanks verify --desync FILE' explains one")
}

// desyncHook returns the client's OnDesync for --desync-dir, or nil.
func desyncHook() func(received *game.Snapshot, hash uint64, own *game.Snapshot) {
	if desyncDir == "" {
		return nil
	}
	d := &desync.Dir{Path: desyncDir}
	return d.Record
}

// verifyDesync is "ttytanks verify --desync FILE": it explains a desync
// evidence file. Exit 1 when the received and own snapshots differ (the
// report names the first differing field) or the file cannot be read, 0
// when they are equal.
func verifyDesync(name string, stdout, stderr io.Writer) int {
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks verify: %v\n", err)
		return 1
	}
	defer f.Close()
	e, err := desync.Read(f)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks verify: %s: %v\n", name, err)
		return 1
	}
	rep, differs := desync.Explain(&e)
	fmt.Fprintf(stdout, "%s: %s", name, rep)
	if differs {
		return 1
	}
	return 0
}
