//go:build !unix

package known

import (
	"errors"
	"fmt"
	"os"
	"runtime"
)

// openLocked has no file lock to take on this system: the store works on
// Unix only, as the server's key file does.
func openLocked(path string) (*os.File, error) {
	return nil, fmt.Errorf("known: %s: no file locking on %s: %w", path, runtime.GOOS, errors.ErrUnsupported)
}

// openKey cannot tell on this system who owns the key file or who else
// may read it, so it refuses to use one.
func openKey(path string) (*os.File, error) {
	return nil, &KeyFileError{Path: path, Why: "cannot be checked: no file owner and permission checks on " + runtime.GOOS, Err: errors.ErrUnsupported}
}
