package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"ttytanks/game"
	"ttytanks/proto/recording"
)

// TestVerifySummary: verify of a finished match prints one line with its
// ticks, game time, rounds, checkpoints and the winner by score, and
// exits 0; without a file it is a usage error.
func TestVerifySummary(t *testing.T) {
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, recording.Header{Rules: game.RulesVersion, Match: 5, Seed: 11, Slots: 2, Names: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	world, _ := game.NewWorld(w.Header().Config())
	in := make([]game.Input, 2)
	for i := 0; i < 3600; i++ {
		// ann circles and fires; bob stands still: ann wins rounds.
		in[0] = game.Input{Tick: world.Tick(), MoveX: int8(i/90%3 - 1), MoveY: int8(i/150%3 - 1), Buttons: game.Buttons(i / 10 % 2)}
		in[1] = game.Input{Tick: world.Tick()}
		tk := world.Tick()
		world.Step(in)
		if err := w.Step(tk, in, world.Hash()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "m.ttrec")
	os.WriteFile(file, buf.Bytes(), 0o644)
	var out, errb bytes.Buffer
	code := Verify([]string{file}, &out, &errb)
	want := regexp.MustCompile(`^.*m\.ttrec: OK match 5: 3600 ticks \(1m0s\), \d+ rounds?, 60 checkpoints, (won by (ann|bob) \(score \d+\)|a tie); verified at \d+ ticks/s \(\d+x real time\)\n$`)
	if code != 0 || !want.MatchString(out.String()) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	t.Log(out.String())
	if code := Verify(nil, &out, &errb); code != 2 {
		t.Fatalf("verify without a file: exit %d, want 2", code)
	}
}
