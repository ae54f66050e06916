package sshplay

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
	"syscall"

	gossh "golang.org/x/crypto/ssh"
)

// HostKeyFile is the host key's file name under the state directory.
const HostKeyFile = "ssh_host_ed25519"

// DefaultHostKeyPath is where serve --ssh keeps its host key by default:
// $XDG_STATE_HOME/ttytanks/ssh_host_ed25519, or
// ~/.local/state/ttytanks/ssh_host_ed25519 when XDG_STATE_HOME is unset
// or not absolute.
func DefaultHostKeyPath() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "ttytanks", HostKeyFile), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("sshplay: no place for the host key (set --key): %w", err)
	}
	return filepath.Join(home, ".local", "state", "ttytanks", HostKeyFile), nil
}

// LoadOrCreateHostKey returns the host key kept at path, creating it on
// first use: an ed25519 key in the OpenSSH PEM format, written with mode
// 0600 (its directory created 0700 if missing). Creation is atomic: the
// key is written to a temporary file and linked into place, so a crash
// never leaves half a key, and of two servers starting at once both end up
// with the one key that won. created reports whether this call made it.
// A key file that others can read or write, that another user owns or
// that is a symbolic link is refused, as sshd does.
func LoadOrCreateHostKey(path string) (key gossh.Signer, created bool, err error) {
	priv, created, err := LoadOrCreateKey(path)
	if err != nil {
		return nil, false, err
	}
	key, err = gossh.NewSignerFromKey(priv)
	return key, created, err
}

// LoadOrCreateKey is LoadOrCreateHostKey's key itself: the server's
// long-term Ed25519 key, which is both its SSH host key and the key that
// signs its UDP handshakes, so one fingerprint names the host for both.
func LoadOrCreateKey(path string) (key ed25519.PrivateKey, created bool, err error) {
	key, err = loadHostKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, false, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, fmt.Errorf("sshplay: host key directory: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, false, err
	}
	key = priv
	block, err := gossh.MarshalPrivateKey(priv, "ttytanks host key")
	if err != nil {
		return nil, false, err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, false, fmt.Errorf("sshplay: host key: %w", err)
	}
	defer os.Remove(tmp.Name())
	// CreateTemp makes the file 0600 already; Chmod states it.
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(pem.EncodeToMemory(block))
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, false, fmt.Errorf("sshplay: writing the host key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) { // another server made it first
			key, err = loadHostKey(path)
			return key, false, err
		}
		return nil, false, fmt.Errorf("sshplay: writing the host key: %w", err)
	}
	return key, true, nil
}

// loadHostKey reads the key at path: a regular file, not a symbolic link,
// owned by this process's effective user and accessible by no one else,
// checked and read through the one open file.
func loadHostKey(path string) (ed25519.PrivateKey, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("sshplay: host key %s is a symbolic link: %w", path, err)
		}
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("sshplay: host key %s is not a regular file", path)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return nil, fmt.Errorf("sshplay: host key %s is owned by uid %d, not by this user (%d)", path, sys.Uid, os.Geteuid())
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("sshplay: host key %s is accessible by others (mode %#o): chmod 600 it", path, st.Mode().Perm())
	}
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, err
	}
	raw, err := gossh.ParseRawPrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("sshplay: host key %s: %w", path, err)
	}
	switch k := raw.(type) {
	case ed25519.PrivateKey:
		return k, nil
	case *ed25519.PrivateKey:
		return *k, nil
	}
	return nil, fmt.Errorf("sshplay: key file %s holds another kind of key (%T): the server's key must be Ed25519 (ssh-keygen -t ed25519)", path, raw)
}
