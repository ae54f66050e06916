package known

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// KeyFile is the server key's file name under the state directory.
const KeyFile = "ssh_host_ed25519"

// PlayerKeyFile is the player key's file name under the state directory:
// the key join proves who the player is with (PROTOCOL.md §4.15), made
// on the first join like the server's, by LoadOrCreateKey.
const PlayerKeyFile = "player_ed25519"

// DefaultPlayerKeyPath is where join keeps the player's key by default:
// $XDG_STATE_HOME/ttytanks/player_ed25519 (or under ~/.local/state).
func DefaultPlayerKeyPath() (string, error) {
	dir, err := stateDir()
	if err != nil {
		return "", fmt.Errorf("known: no place for the player key (set --player-key): %w", err)
	}
	return filepath.Join(dir, PlayerKeyFile), nil
}

// DefaultKeyPath is where serve keeps its key by default:
// $XDG_STATE_HOME/ttytanks/ssh_host_ed25519, or
// ~/.local/state/ttytanks/ssh_host_ed25519 when XDG_STATE_HOME is unset
// or not absolute (beside known_servers).
func DefaultKeyPath() (string, error) {
	dir, err := stateDir()
	if err != nil {
		return "", fmt.Errorf("known: no place for the host key (set --key): %w", err)
	}
	return filepath.Join(dir, KeyFile), nil
}

// LoadOrCreateKey returns the server's long-term Ed25519 key kept at
// path, which is both its SSH host key and the key that signs its UDP
// handshakes, so one fingerprint names the host for both. It creates the
// key on first use: an ed25519 key in the OpenSSH PEM format, written
// with mode 0600 (its directory created 0700 if missing). Creation is
// atomic: the key is written to a temporary file and linked into place,
// so a crash never leaves half a key, and of two servers starting at
// once both end up with the one key that won. created reports whether
// this call made it. A key file that others can read or write, that
// another user owns or that is a symbolic link is refused, as sshd does;
// off Unix, where that cannot be checked, every key file is refused with
// an error wrapping errors.ErrUnsupported.
func LoadOrCreateKey(path string) (key ed25519.PrivateKey, created bool, err error) {
	key, err = loadKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, fmt.Errorf("known: key directory: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, false, err
	}
	key = priv
	block, err := gossh.MarshalPrivateKey(priv, "ttytanks key")
	if err != nil {
		return nil, false, err
	}
	tmp, err := createTemp(path)
	if err != nil {
		return nil, false, fmt.Errorf("known: key %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := writeTemp(tmp, pem.EncodeToMemory(block)); err != nil {
		return nil, false, fmt.Errorf("known: writing the key %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) { // another server made it first
			key, err = loadKey(path)
			return key, false, err
		}
		return nil, false, fmt.Errorf("known: writing the key %s: %w", path, err)
	}
	return key, true, nil
}

// LoadKey returns the key kept at path, checked as LoadOrCreateKey
// checks it, without making one: a missing file is an error wrapping
// fs.ErrNotExist. Commands that only read who the player is (top, me)
// use it, so that asking makes no key.
func LoadKey(path string) (ed25519.PrivateKey, error) {
	return loadKey(path)
}

// loadKey reads the key at path, opened and checked by openKey.
func loadKey(path string) (ed25519.PrivateKey, error) {
	f, err := openKey(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, err
	}
	raw, err := gossh.ParseRawPrivateKey(data)
	if err != nil {
		return nil, &KeyFileError{Path: path, Why: "is not an OpenSSH private key (ssh-keygen -t ed25519 writes one)", Err: err}
	}
	switch k := raw.(type) {
	case ed25519.PrivateKey:
		return k, nil
	case *ed25519.PrivateKey:
		return *k, nil
	}
	return nil, &KeyFileError{Path: path, Why: fmt.Sprintf("holds another kind of key (%T): a ttytanks key must be Ed25519 (ssh-keygen -t ed25519)", raw)}
}
