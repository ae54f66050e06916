package known

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// FileName is the known_servers file's name under the state directory.
const FileName = "known_servers"

// MaxFileSize bounds the known_servers file, in bytes: 1 MiB, room for
// some ten thousand servers. A larger file is refused unread, and a line
// that would make it larger is not added; both with ErrTooLarge.
const MaxFileSize = 1 << 20

// DefaultPath is where the client keeps its known servers by default:
// $XDG_STATE_HOME/ttytanks/known_servers, or
// ~/.local/state/ttytanks/known_servers when XDG_STATE_HOME is unset or
// not absolute (the directory of serve's SSH host key).
func DefaultPath() (string, error) {
	dir, err := stateDir()
	if err != nil {
		return "", fmt.Errorf("known: no place for %s (set XDG_STATE_HOME or HOME): %w", FileName, err)
	}
	return filepath.Join(dir, FileName), nil
}

// Verdict is what Check found. On error it is 0, neither Known nor Added.
type Verdict int

const (
	// Known: a line of the file holds the server with this key.
	Known Verdict = iota + 1
	// Added: the file had no line for the server; now it has one, with
	// this key.
	Added
)

func (v Verdict) String() string {
	switch v {
	case Known:
		return "known"
	case Added:
		return "added"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Store is a known_servers file. It is safe for concurrent use, by several
// goroutines and alongside other Stores and processes on the same file.
type Store struct {
	path string

	mu        sync.Mutex // guards the field below
	malformed []MalformedLine
}

// MalformedLine is a line of the file that does not parse: it is
// ignored, and left in the file untouched.
type MalformedLine struct {
	Line int // from 1
	// Server is the server the line names, as CanonicalServer names it,
	// when its first field is a server address; "" otherwise.
	Server string
	Reason error // why it does not parse
}

// Open returns the Store of the known_servers file at path, typically
// DefaultPath(). It does no IO: the file (and its directory) is read, and
// created if missing, by Check and CheckPinned.
func Open(path string) *Store { return &Store{path: path} }

// Path is the file's path, as given to Open.
func (s *Store) Path() string { return s.path }

// Skipped reports the lines that did not parse at the last reading of the
// file: how many, and the number (from 1) of the first of them, 0 if none.
// They stay in the file untouched.
func (s *Store) Skipped() (n, first int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.malformed) > 0 {
		first = s.malformed[0].Line
	}
	return len(s.malformed), first
}

// Malformed returns the lines that did not parse at the last reading of
// the file, in order.
func (s *Store) Malformed() []MalformedLine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]MalformedLine(nil), s.malformed...)
}

// Check looks up server (any address CanonicalServer takes) and the key it
// offered. It returns Known when a line of the file holds the server with
// this key, and Added when the file has no line for the server: then it
// appends one, creating the file (mode 0600, its directory 0700) if
// missing. When the file's lines for the server hold only other keys, it
// adds nothing and returns a *ChangedError; when no line for the server
// holds the key and a malformed line names the server (its remembered
// key may be lost), it adds nothing and returns a *DamagedError. Other
// malformed lines are ignored (Malformed lists them). A bad server or key, an unsafe
// or oversized file (ErrUnsafeFile, ErrTooLarge) or an IO failure is an
// error too.
func (s *Store) Check(server string, key ed25519.PublicKey) (Verdict, error) {
	name, err := checkArgs(server, key)
	if err != nil {
		return 0, err
	}
	f, data, err := s.load()
	if err != nil {
		return 0, err
	}
	defer f.Close()
	found, bad := s.lookup(data, name)
	for _, l := range found {
		if l.key.Equal(key) {
			return Known, nil
		}
	}
	if len(found) > 0 {
		return 0, &ChangedError{Server: name, Path: s.path, Line: found[0].num,
			Remembered: Fingerprint(found[0].key), Offered: Fingerprint(key)}
	}
	if len(bad) > 0 {
		return 0, &DamagedError{Server: name, Path: s.path, Line: bad[0].Line, Reason: bad[0].Reason, Offered: Fingerprint(key)}
	}
	if err := s.appendLine(f, data, entry{server: name, key: key}); err != nil {
		return 0, err
	}
	return Added, nil
}

// CheckPinned checks that key, offered by server, has the fingerprint the
// user gave (the form ParseFingerprint takes), and remembers it: the file
// ends up with one line for the server, holding key, in place of the
// first line the server had (or appended, as Check adds; malformed lines
// that name the server go, the pin vouching for the key). A key with
// another fingerprint is a *PinError, and leaves the file unread and
// unchanged; a malformed fingerprint wraps ErrBadFingerprint. The other
// errors are Check's.
func (s *Store) CheckPinned(server string, key ed25519.PublicKey, fingerprint string) error {
	name, err := checkArgs(server, key)
	if err != nil {
		return err
	}
	pin, err := ParseFingerprint(fingerprint)
	if err != nil {
		return err
	}
	if got := Fingerprint(key); got != pin {
		return &PinError{Server: name, Pinned: pin, Offered: got}
	}
	f, data, err := s.load()
	if err != nil {
		return err
	}
	defer f.Close() // after replace: the lock is held until the new file is in place
	e := entry{server: name, key: key}
	switch found, bad := s.lookup(data, name); {
	case len(found) == 0 && len(bad) == 0:
		return s.appendLine(f, data, e)
	case len(found) == 1 && found[0].key.Equal(key) && len(bad) == 0:
		return nil
	}
	return s.replace(data, e)
}

// checkArgs returns the canonical name of server, and checks the key's
// length.
func checkArgs(server string, key ed25519.PublicKey) (string, error) {
	name, err := CanonicalServer(server)
	if err != nil {
		return "", err
	}
	if len(key) != ed25519.PublicKeySize {
		return "", fmt.Errorf("%w (%d bytes, want %d)", ErrBadKey, len(key), ed25519.PublicKeySize)
	}
	return name, nil
}

// load opens the file, locked, and reads it whole. Closing the file
// releases the lock.
func (s *Store) load() (*os.File, []byte, error) {
	f, err := openLocked(s.path)
	if err != nil {
		return nil, nil, err
	}
	data, err := readCapped(f, s.path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if testHookLoaded != nil {
		testHookLoaded()
	}
	return f, data, nil
}

// testHookLoaded, when set by a test, runs between reading the file and
// changing it, to widen the window the lock closes.
var testHookLoaded func()

// readCapped reads f whole, refusing it beyond MaxFileSize bytes, so that
// a hostile file costs at most that much memory.
func readCapped(f *os.File, path string) ([]byte, error) {
	tooLarge := func(size int64) error {
		return fmt.Errorf("%w: %s is %d bytes or more, over the limit of %d (1 MiB); remove the servers you no longer play on",
			ErrTooLarge, path, size, MaxFileSize)
	}
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("known: %w", err)
	}
	if st.Size() > MaxFileSize {
		return nil, tooLarge(st.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("known: reading %s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, tooLarge(int64(len(data)))
	}
	return data, nil
}

// serverLine is a line of the file for the server looked up.
type serverLine struct {
	num int // from 1
	key ed25519.PublicKey
}

// lookup returns the lines of data for server, in order, and the
// malformed lines that name it; it records in s every malformed line.
func (s *Store) lookup(data []byte, server string) (found []serverLine, bad []MalformedLine) {
	var all []MalformedLine
	eachLine(data, func(num int, line []byte) {
		e, ok, err := parseFileLine(line)
		switch {
		case err != nil:
			m := MalformedLine{Line: num, Server: lineServer(line), Reason: err}
			all = append(all, m)
			if m.Server == server {
				bad = append(bad, m)
			}
		case ok && e.server == server:
			found = append(found, serverLine{num: num, key: e.key})
		}
	})
	s.mu.Lock()
	s.malformed = all
	s.mu.Unlock()
	return found, bad
}

// lineServer returns the server a line that does not parse names in its
// first field (read from its first maxLineLen bytes), or "".
func lineServer(line []byte) string {
	if len(line) > maxLineLen {
		line = line[:maxLineLen]
	}
	rest := strings.TrimLeft(string(line), lineSpace)
	if rest == "" || rest[0] == '#' {
		return ""
	}
	field, _ := nextField(rest)
	name, err := CanonicalServer(field)
	if err != nil {
		return ""
	}
	return name
}

// parseFileLine is parseLine for a line of the file, which it does not
// copy when it is too long to be one.
func parseFileLine(line []byte) (entry, bool, error) {
	if len(line) > maxLineLen {
		return entry{}, false, errLineTooLong
	}
	return parseLine(string(line))
}

// appendLine adds e at the end of the file f, whose contents are data,
// with one write.
func (s *Store) appendLine(f *os.File, data []byte, e entry) error {
	line := formatLine(e) + "\n"
	if len(data) > 0 && data[len(data)-1] != '\n' {
		line = "\n" + line
	}
	if len(data)+len(line) > MaxFileSize {
		return fmt.Errorf("%w: adding %s would take %s over %d bytes (1 MiB); remove the servers you no longer play on",
			ErrTooLarge, e.server, s.path, MaxFileSize)
	}
	_, err := f.WriteString(line)
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return fmt.Errorf("known: adding %s to %s: %w", e.server, s.path, err)
	}
	return nil
}

// replace rewrites the file, whose contents are data, with e in place of
// the first line for its server and without the others (malformed lines
// that name it included); every other line, comments and skipped lines
// included, is kept as it was. The new file is
// written beside the old and renamed over it.
func (s *Store) replace(data []byte, e entry) error {
	var out bytes.Buffer
	out.Grow(len(data) + maxLineLen)
	done := false
	eachLine(data, func(_ int, line []byte) {
		old, ok, err := parseFileLine(line)
		if ok && old.server == e.server || err != nil && lineServer(line) == e.server {
			if !done {
				out.WriteString(formatLine(e))
				out.WriteByte('\n')
				done = true
			}
			return
		}
		out.Write(line)
		out.WriteByte('\n')
	})
	if out.Len() > MaxFileSize {
		return fmt.Errorf("%w: replacing the key of %s would take %s over %d bytes (1 MiB)",
			ErrTooLarge, e.server, s.path, MaxFileSize)
	}
	if err := writeReplacing(s.path, out.Bytes()); err != nil {
		return fmt.Errorf("known: replacing the key of %s in %s: %w", e.server, s.path, err)
	}
	return nil
}

// writeReplacing puts data at path through a temporary file (mode 0600)
// in the same directory, synced and renamed into place, so that a reader
// sees the old file or the new, whole.
func writeReplacing(path string, data []byte) error {
	tmp, err := createTemp(path)
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			os.Remove(tmp.Name())
		}
	}()
	if err := writeTemp(tmp, data); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	renamed = true
	return nil
}
