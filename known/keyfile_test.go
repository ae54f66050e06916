//go:build unix

package known

import (
	"bytes"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// TestHostKeyCreatedOnceAndKept: the first start creates the key 0600 in
// a 0700 directory; the second start reads the same bytes and key.
func TestHostKeyCreatedOnceAndKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "ttytanks")
	path := filepath.Join(dir, KeyFile)
	k1, created, err := LoadOrCreateKey(path)
	if err != nil || !created {
		t.Fatalf("first start: created=%v err=%v", created, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %#o, want 0600", st.Mode().Perm())
	}
	if dst, err := os.Stat(dir); err != nil || dst.Mode().Perm() != 0o700 {
		t.Errorf("key directory: %v mode %#o, want 0700", err, dst.Mode().Perm())
	}
	first, _ := os.ReadFile(path)
	if !bytes.HasPrefix(first, []byte("-----BEGIN OPENSSH PRIVATE KEY-----")) {
		t.Errorf("key file is not in the OpenSSH format:\n%s", first)
	}
	k2, created, err := LoadOrCreateKey(path)
	if err != nil || created {
		t.Fatalf("second start: created=%v err=%v", created, err)
	}
	second, _ := os.ReadFile(path)
	if !bytes.Equal(first, second) {
		t.Error("the key file changed on the second start")
	}
	if !k1.Public().(ed25519.PublicKey).Equal(k2.Public()) {
		t.Error("the second start has another key")
	}
	signer, err := gossh.NewSignerFromKey(k2)
	if err != nil {
		t.Fatal(err)
	}
	if typ := signer.PublicKey().Type(); typ != "ssh-ed25519" {
		t.Errorf("key type %s, want ssh-ed25519", typ)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the key directory holds %d entries, want just the key (no temporary files)", len(entries))
	}
}

func TestHostKeyOpenToOthersRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key")
	if _, _, err := LoadOrCreateKey(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateKey(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a 0644 host key: err %v, want a refusal", err)
	}
}

func TestHostKeyGarbageRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(path, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, created, err := LoadOrCreateKey(path); err == nil || created {
		t.Errorf("garbage key file: created=%v err=%v, want an error and no new key", created, err)
	}
}

func TestDefaultKeyPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/srv/state")
	if p, err := DefaultKeyPath(); err != nil || p != "/srv/state/ttytanks/ssh_host_ed25519" {
		t.Errorf("with XDG_STATE_HOME: %q, %v", p, err)
	}
	t.Setenv("XDG_STATE_HOME", "relative/ignored")
	t.Setenv("HOME", "/home/tank")
	if p, err := DefaultKeyPath(); err != nil || p != "/home/tank/.local/state/ttytanks/ssh_host_ed25519" {
		t.Errorf("without XDG_STATE_HOME: %q, %v", p, err)
	}
}

// TestHostKeySymlinkRefused: a host key path that is a symbolic link is
// refused, even to a good key.
func TestHostKeySymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if _, _, err := LoadOrCreateKey(real); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateKey(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a symlinked host key: %v, want a refusal", err)
	}
}

// TestHostKeyOtherOwnerRefused: a host key owned by another user is
// refused (needs root to make one).
func TestHostKeyOtherOwnerRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file away")
	}
	path := filepath.Join(t.TempDir(), "key")
	if _, _, err := LoadOrCreateKey(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateKey(path); err == nil || !strings.Contains(err.Error(), "owned by uid 4242") {
		t.Errorf("a host key of another user: %v, want a refusal", err)
	}
}
