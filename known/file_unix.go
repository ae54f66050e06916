//go:build unix

package known

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// lockWait is how long openLocked waits for another Store, in this
// process or another, to release the file.
const lockWait = 10 * time.Second

// openLocked opens the known_servers file at path for reading and
// appending, creating it (mode 0600, its directory 0700) if missing, and
// returns it under an exclusive flock, taken on the file that is at path
// once the lock is held. It refuses (ErrUnsafeFile) a symbolic link, a
// file that is not regular, that another user owns, or that group or
// others may write (sharedRule), as openKey and sshd do; unlike a
// private key, the file may be readable by all.
func openLocked(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("known: directory for %s: %w", path, err)
	}
	deadline := time.Now().Add(lockWait)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
		if err != nil {
			if errors.Is(err, syscall.ELOOP) {
				return nil, fmt.Errorf("%w: %s is a symbolic link", ErrUnsafeFile, path)
			}
			return nil, fmt.Errorf("known: %w", err)
		}
		if err := checkFile(f, path); err != nil {
			f.Close()
			return nil, err
		}
		if err := flock(f, path, deadline); err != nil {
			f.Close()
			return nil, err
		}
		// A Store that replaced the file while this one waited for the
		// lock left f on the old file: open the new one.
		fst, ferr := f.Stat()
		pst, perr := os.Lstat(path)
		if ferr == nil && perr == nil && os.SameFile(fst, pst) {
			return f, nil
		}
		f.Close()
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("known: %s kept changing while waiting to lock it", path)
		}
	}
}

// checkFile refuses a file that someone else could have written.
func checkFile(f *os.File, path string) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("known: %w", err)
	}
	if why := sharedRule.refuses(st); why != "" {
		return fmt.Errorf("%w: %s %s", ErrUnsafeFile, path, why)
	}
	return nil
}

// openKey opens the server's key file at path for reading, never through
// a symbolic link, and refuses it unless privateRule allows it: a
// regular file owned by this process's effective user and accessible by
// no one else, checked on the one open file that is then read.
func openKey(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, &KeyFileError{Path: path, Why: "is a symbolic link", Err: err}
		}
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if why := privateRule.refuses(st); why != "" {
		f.Close()
		return nil, &KeyFileError{Path: path, Why: why}
	}
	return f, nil
}

// refuses says why r refuses the file st describes ("is not a regular
// file", ...), or "" if it allows it.
func (r fileRule) refuses(st fs.FileInfo) string {
	if !st.Mode().IsRegular() {
		return "is not a regular file"
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Sprintf("is owned by uid %d, not by this user (%d)", sys.Uid, os.Geteuid())
	}
	if st.Mode().Perm()&r.forbid != 0 {
		return fmt.Sprintf("is %s by others (mode %#o): %s", r.open, st.Mode().Perm(), r.fix)
	}
	return ""
}

// flock takes an exclusive flock on f, polling until deadline.
func flock(f *os.File, path string, deadline time.Time) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return fmt.Errorf("known: locking %s: %w", path, err)
	}
	pause := time.Millisecond
	for {
		var lerr error
		if err := rc.Control(func(fd uintptr) {
			lerr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
		}); err != nil {
			return fmt.Errorf("known: locking %s: %w", path, err)
		}
		switch {
		case lerr == nil:
			return nil
		case !errors.Is(lerr, syscall.EWOULDBLOCK) && !errors.Is(lerr, syscall.EINTR):
			return fmt.Errorf("known: locking %s: %w", path, lerr)
		case time.Now().After(deadline):
			return fmt.Errorf("known: %s stayed locked by another ttytanks for %v", path, lockWait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 10*time.Millisecond)
	}
}
