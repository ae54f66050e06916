package cli

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ttytanks/known"
)

// TestKeyTrustWarnsOfMalformedLines: join's key check names every line of
// known_servers that does not parse, with its file and line number, and
// a damaged line for the server joined stops the join with the warning.
func TestKeyTrustWarnsOfMalformedLines(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := filepath.Join(state, "ttytanks")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, known.FileName)
	pub := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public().(ed25519.PublicKey)
	os.WriteFile(path, []byte("# servers\nbroken.example:1 ssh-ed25519 AAAA\ntanks.example:7777 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\n"), 0o600)

	other, err := serverTrust("fine.example:7777", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := other.check(pub); err != nil {
		t.Fatalf("a server without a damaged line: %v", err)
	}
	note := other.note()
	for _, want := range []string{path + ", line 2 does not parse", path + ", line 3 does not parse", "remembered the key of server fine.example:7777"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q does not say %q", note, want)
		}
	}

	damaged, _ := serverTrust("tanks.example:7777", "")
	var de *known.DamagedError
	if err := damaged.check(pub); !errors.As(err, &de) || de.Line != 3 || !errors.As(damaged.refused(), &de) {
		t.Fatalf("the server with a damaged line: %v; want its warning", err)
	}
}
