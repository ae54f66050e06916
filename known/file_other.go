//go:build !unix

package known

import (
	"errors"
	"fmt"
	"os"
	"runtime"
)

// openLocked has no file lock to take on this system: the store works on
// Unix only, as the SSH host key loader does.
func openLocked(path string) (*os.File, error) {
	return nil, fmt.Errorf("known: %s: no file locking on %s: %w", path, runtime.GOOS, errors.ErrUnsupported)
}
