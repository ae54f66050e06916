package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ttytanks/game"
	"ttytanks/netcode/desync"
)

// TestVerifyDesync: verify --desync names the first differing field of
// an evidence file and exits 1; with equal snapshots it exits 0; a file
// that is not evidence exits 1.
func TestVerifyDesync(t *testing.T) {
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var own game.Snapshot
	w.Save(&own)
	recv := own
	recv.Tanks[1].HP--
	dir := t.TempDir()
	write := func(name string, e desync.Evidence) string {
		p := filepath.Join(dir, name)
		var b bytes.Buffer
		if err := e.Write(&b); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p, b.Bytes(), 0o644)
		return p
	}
	var out, errb bytes.Buffer
	if code := Verify([]string{"--desync", write("d.json", desync.New(&recv, w.Hash(), &own))}, &out, &errb); code != 1 ||
		!strings.Contains(out.String(), "first differing field: Tanks[1].HP: received 2, own 3") {
		t.Fatalf("exit %d, %q %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := Verify([]string{"--desync", write("e.json", desync.New(&own, 1, &own))}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "equals the received one") {
		t.Fatalf("equal snapshots: exit %d, %q", code, out.String())
	}
	os.WriteFile(filepath.Join(dir, "x"), []byte("nope"), 0o644)
	if code := Verify([]string{"--desync", filepath.Join(dir, "x")}, &out, &errb); code != 1 {
		t.Fatalf("not evidence: exit %d", code)
	}
}
