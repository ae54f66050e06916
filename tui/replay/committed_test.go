package replay

import (
	"os"
	"testing"
)

// TestVerifyCommittedRecording verifies a recording made by "ttytanks
// serve --bots 2 --players 2 --record" on linux/amd64 and stopped after
// 45 s. Run on another architecture (arm64 in CI) it checks that a
// recording made on one verifies on the other; anywhere, it fails if a
// change to the game's rules or the format breaks old recordings (which
// then needs a rules or format version bump, and a new file here).
func TestVerifyCommittedRecording(t *testing.T) {
	f, err := os.Open("testdata/serve-2bots.ttrec")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := Verify(f)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ticks != 2694 || sum.Rounds != 3 || sum.Checkpoints != 45 || sum.Ended || sum.Interrupted != nil || sum.Names[0] != "bot1" {
		t.Fatalf("summary %+v; want 2694 ticks, 3 rounds, 45 checkpoints, stopped by the server", sum)
	}
}
