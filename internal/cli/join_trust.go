package cli

import (
	"crypto/ed25519"
	"fmt"
	"strings"
	"sync"

	"ttytanks/known"
)

// keyTrust checks a server's key for join: with a pin (--server-key),
// the key must have that fingerprint, and known_servers remembers it;
// without, known_servers decides as OpenSSH's known_hosts does: a key seen
// before passes, a first key is remembered, a changed key is refused with
// the warning. The file lives under $XDG_STATE_HOME/ttytanks/. It is safe
// for concurrent use: the client's goroutine checks, the command reads
// the outcome at exit.
type keyTrust struct {
	server, pin string
	store       *known.Store

	mu     sync.Mutex
	added  string   // a note for the player: a first key was remembered
	warn   []string // the lines of known_servers that do not parse
	refuse error    // the first refusal
}

// serverTrust returns the check of the server's key for a join of server
// (HOST:PORT as the player typed it), pinned to pin unless it is empty.
func serverTrust(server, pin string) (*keyTrust, error) {
	if pin != "" {
		if _, err := known.ParseFingerprint(pin); err != nil {
			return nil, fmt.Errorf("--server-key: %w", err)
		}
	}
	if _, err := known.CanonicalServer(server); err != nil {
		return nil, err
	}
	path, err := known.DefaultPath()
	if err != nil {
		return nil, err
	}
	return &keyTrust{server: server, pin: pin, store: known.Open(path)}, nil
}

// check is the client's TrustKey.
func (k *keyTrust) check(key ed25519.PublicKey) error {
	var err error
	if k.pin != "" {
		err = k.store.CheckPinned(k.server, key, k.pin)
	} else {
		var v known.Verdict
		v, err = k.store.Check(k.server, key)
		if v == known.Added {
			k.mu.Lock()
			k.added = fmt.Sprintf("ttytanks: remembered the key of server %s, %s, in %s", k.server, known.Fingerprint(key), k.store.Path())
			k.mu.Unlock()
		}
	}
	var warn []string
	for _, m := range k.store.Malformed() {
		warn = append(warn, fmt.Sprintf("ttytanks: warning: %s, line %d does not parse (%v); it is ignored: fix or delete it", k.store.Path(), m.Line, m.Reason))
	}
	k.mu.Lock()
	k.warn = warn
	if err != nil && k.refuse == nil {
		k.refuse = err
	}
	k.mu.Unlock()
	return err
}

// refused returns the first refusal of a key, or nil.
func (k *keyTrust) refused() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.refuse
}

// note returns what to tell the player at exit about the key (a first
// key remembered) and the lines of known_servers that do not parse, each
// with its file and line number, or "".
func (k *keyTrust) note() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	lines := append([]string(nil), k.warn...)
	if k.added != "" {
		lines = append(lines, k.added)
	}
	return strings.Join(lines, "\n")
}
