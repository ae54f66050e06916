package known

import (
	"io/fs"
	"os"
	"path/filepath"
)

// stateDir is the directory of ttytanks's state files (known_servers and
// the server's key): $XDG_STATE_HOME/ttytanks, or
// ~/.local/state/ttytanks when XDG_STATE_HOME is unset or not absolute.
// Its error is the home directory lookup's.
func stateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "ttytanks"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state", "ttytanks"), nil
}

// A fileRule is what a state file must be besides a regular file, not a
// symbolic link, owned by this process's effective user: forbid holds the
// permission bits nobody but its owner may have, and open and fix say,
// in a refusal, what those bits let others do and how to take them away.
type fileRule struct {
	forbid    fs.FileMode
	open, fix string
}

var (
	// sharedRule is known_servers': readable by all, as known_hosts may
	// be, but written by its owner alone.
	sharedRule = fileRule{forbid: 0o022, open: "writable", fix: "chmod go-w it"}
	// privateRule is the server key's: its owner's alone, as sshd wants
	// of a host key.
	privateRule = fileRule{forbid: 0o077, open: "accessible", fix: "chmod 600 it"}
)

// createTemp creates a temporary file beside path, in its directory,
// named after it (mode 0600), for a whole new version of path.
func createTemp(path string) (*os.File, error) {
	return os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
}

// writeTemp writes data into tmp, a file from createTemp, with mode
// 0600, syncs and closes it; the caller then moves it into place (or
// removes it on error).
func writeTemp(tmp *os.File, data []byte) error {
	// CreateTemp makes the file 0600 already; Chmod states it.
	err := tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	return err
}
