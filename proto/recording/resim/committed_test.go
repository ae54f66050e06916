package resim

import (
	"os"
	"testing"
)

// TestVerifyCommittedRecording verifies a recording made by "ttytanks
// serve --bots 2 --players 2 --rounds 2 --record" on linux/amd64 under
// rules version 4: the
// first match, played to its end (bot1 won it 2-0; the rematch went to a
// file of its own). Run on another architecture (arm64 in CI) it checks that a
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
	if sum.Ticks != 1703 || sum.Rounds != 2 || sum.Checkpoints != 29 || !sum.Ended || sum.Interrupted != nil || sum.Names[0] != "bot1" {
		t.Fatalf("summary %+v; want 1703 ticks, 2 rounds, 29 checkpoints, ended by the server", sum)
	}
}
