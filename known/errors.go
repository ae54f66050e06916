package known

import (
	"errors"
	"fmt"
)

var (
	// ErrBadFingerprint is wrapped by ParseFingerprint's errors, and by
	// CheckPinned's for a malformed fingerprint.
	ErrBadFingerprint = errors.New("known: bad server key fingerprint")
	// ErrBadServer is wrapped by CanonicalServer's errors: a server
	// address that is not HOST:PORT.
	ErrBadServer = errors.New("known: bad server address")
	// ErrBadKey is returned for a public key that is not
	// ed25519.PublicKeySize bytes long.
	ErrBadKey = errors.New("known: the server key is not an Ed25519 public key")
	// ErrTooLarge is wrapped when the known_servers file is, or would
	// grow, larger than MaxFileSize.
	ErrTooLarge = errors.New("known: known_servers file too large")
	// ErrUnsafeFile is wrapped when the known_servers file is a symbolic
	// link, not a regular file, owned by another user, or writable by
	// group or others: then someone else could choose which keys it trusts.
	ErrUnsafeFile = errors.New("known: unsafe known_servers file")
)

// ChangedError is Check's refusal of a server whose remembered key differs
// from the one it offers. Its message is the whole warning for the user.
type ChangedError struct {
	Server     string // the server, as CanonicalServer names it
	Path       string // the known_servers file
	Line       int    // the line, from 1, that holds the remembered key
	Remembered string // the remembered key's fingerprint
	Offered    string // the offered key's fingerprint
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf(`WARNING: the key of game server %s has CHANGED.
Someone may be intercepting your connection (a man-in-the-middle attack),
or the server's operator may have replaced its key.
  remembered key  %s  (%s, line %d)
  offered key     %s
Not connecting. Check the offered fingerprint with the server's operator
("ttytanks serve" logs its fingerprint when it starts). If it is right,
accept it: delete line %d of %s,
or join with --server-key %s`,
		e.Server, e.Remembered, e.Path, e.Line, e.Offered, e.Line, e.Path, e.Offered)
}

// PinError is CheckPinned's refusal of a server whose key does not have
// the pinned fingerprint.
type PinError struct {
	Server  string // the server, as CanonicalServer names it
	Pinned  string // the fingerprint the user gave
	Offered string // the offered key's fingerprint
}

func (e *PinError) Error() string {
	return fmt.Sprintf(`the key of game server %s does not match --server-key.
  pinned key   %s
  offered key  %s
Not connecting: someone may be intercepting your connection, or the
fingerprint was mistyped; check it with the server's operator.`,
		e.Server, e.Pinned, e.Offered)
}

// DamagedError is Check's refusal of a server that no line of the file
// holds with the offered key while a line that does not parse names it:
// the key remembered for the server may have been lost (a truncated or
// damaged file), so the offered key is not trusted on first use. Its
// message is the whole warning for the user.
type DamagedError struct {
	Server  string // the server, as CanonicalServer names it
	Path    string // the known_servers file
	Line    int    // the first malformed line, from 1, that names the server
	Reason  error  // why that line does not parse
	Offered string // the offered key's fingerprint
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf(`WARNING: the remembered key of game server %s cannot be read.
  %s, line %d: %v
The file may have been truncated or damaged, or changed by someone else;
the key it held for this server is lost, so the key offered now is not
trusted on first use.
  offered key     %s
Not connecting. Check the offered fingerprint with the server's operator
("ttytanks serve" logs its fingerprint when it starts). If it is right,
accept it: fix or delete line %d of %s,
or join with --server-key %s`,
		e.Server, e.Path, e.Line, e.Reason, e.Offered, e.Line, e.Path, e.Offered)
}

// KeyFileError says why a key file (the server's, a player's) cannot be
// used. Why is in the user's words and follows the file's name: "is a
// symbolic link", "is not an OpenSSH private key (…)"; Err is the cause,
// if any.
type KeyFileError struct {
	Path, Why string
	Err       error
}

func (e *KeyFileError) Error() string { return "known: key file " + e.Path + " " + e.Why }

// Unwrap returns the cause.
func (e *KeyFileError) Unwrap() error { return e.Err }
