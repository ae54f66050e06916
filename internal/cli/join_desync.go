package cli

import (
	"github.com/spf13/pflag"

	"ttytanks/game"
	"ttytanks/netcode/desync"
)

// registerDesync adds join's --desync-dir to fs, stored in dir.
func registerDesync(fs *pflag.FlagSet, dir *string) {
	fs.StringVar(dir, "desync-dir", "", "when a State does not match the server's hash, write the evidence (the State and this client's own snapshot of that tick, at most 16 files) to this directory; 'ttytanks verify --desync FILE' explains one")
}

// desyncHook returns the client's OnDesync for --desync-dir dir, or nil
// when dir is "".
func desyncHook(dir string) func(received *game.Snapshot, hash uint64, own *game.Snapshot) {
	if dir == "" {
		return nil
	}
	d := &desync.Dir{Path: dir}
	return d.Record
}
