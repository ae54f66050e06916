package known

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestTruncatedLineOfTheServerStopsTheJoin: a known_servers line for the
// server being joined, cut short (its key lost to a damaged file), makes
// Check refuse whatever key the server offers, with a warning that names
// the file and line and how to accept the key; the file is not changed.
// Pinning the key's fingerprint replaces the damaged line, and the key is
// known from then on. Malformed lines of other servers are listed with
// their line numbers and do not stop anything.
func TestTruncatedLineOfTheServerStopsTheJoin(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	full := sshLine(t, "tanks.example:7777", testKey(1))
	other := sshLine(t, "other.example:7777", testKey(2))
	lines := []string{
		"# my servers",
		other[:len(other)-20], // 2: another server's line, cut
		full[:len(full)/2],    // 3: this server's line, cut: its key is lost
		"",
	}
	orig := strings.Join(lines, "\n")
	writeFile(t, path, orig, 0o600)
	s := Open(path)
	v, err := s.Check("tanks.example:7777", testKey(3)) // any key: the one remembered cannot be read
	var de *DamagedError
	if !errors.As(err, &de) || v != 0 || de.Line != 3 || de.Server != "tanks.example:7777" || de.Offered != Fingerprint(testKey(3)) {
		t.Fatalf("Check = %v, %v; want a DamagedError for line 3", v, err)
	}
	msg := err.Error()
	for _, want := range []string{"WARNING", path + ", line 3", "delete line 3 of " + path, "--server-key " + Fingerprint(testKey(3))} {
		if !strings.Contains(msg, want) {
			t.Errorf("warning %q does not say %q", msg, want)
		}
	}
	if got := readFile(t, path); got != orig {
		t.Fatalf("the file changed: %q", got)
	}
	bad := s.Malformed()
	if len(bad) != 2 || bad[0].Line != 2 || bad[0].Server != "other.example:7777" || bad[1].Line != 3 || bad[1].Server != "tanks.example:7777" {
		t.Fatalf("Malformed = %+v; want lines 2 (other.example) and 3 (tanks.example)", bad)
	}
	// Another server is not stopped by the damaged lines of others.
	if v, err := s.Check("new.example:1", testKey(4)); v != Added || err != nil {
		t.Fatalf("Check of another server = %v, %v; want added", v, err)
	}
	// The operator's fingerprint, pinned, replaces the damaged line.
	if err := s.CheckPinned("tanks.example:7777", testKey(3), Fingerprint(testKey(3))); err != nil {
		t.Fatalf("CheckPinned: %v", err)
	}
	if v, err := Open(path).Check("tanks.example:7777", testKey(3)); v != Known || err != nil {
		t.Fatalf("after the pin: Check = %v, %v; want known", v, err)
	}
	if got := readFile(t, path); strings.Contains(got, full[:len(full)/2]+"\n") || !strings.Contains(got, other[:len(other)-20]) {
		t.Fatalf("after the pin the file is %q: want the damaged line replaced, the other kept", got)
	}
}
