package tests

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"ttytanks/proto/recording/resim"
)

// TestRecordKeepBoundsAnEndlessMatch runs the real binary: an endless
// match of 8 bots (no round wins the match) recorded with --record-keep
// 5KB. The directory, polled every 50 ms, never holds more than 5 KB; when
// the match alone would outgrow the bound its recording stops, is kept,
// verifies as interrupted, and the server logs why.
func TestRecordKeepBoundsAnEndlessMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel() // a minute of waiting on the wall clock, little work: it runs beside the others
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "recs")
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "8", "--bots", "8", "--rounds", "0", "--record", dir, "--record-keep", "5KB")
	outgrown := regexp.MustCompile(`msg="recording: the match alone would outgrow --record-keep[^\n]*`)
	var most int64
	deadline := time.Now().Add(2 * time.Minute)
	for !outgrown.MatchString(srv.stderr.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("no recording stopped at the bound in 2 minutes; %d bytes at most", most)
		}
		most = max(most, dirBytes(t, dir))
		if most > 5<<10 {
			t.Fatalf("the directory holds %d bytes, over --record-keep 5KB", most)
		}
		time.Sleep(50 * time.Millisecond) // polling a real server's directory on the wall clock
	}
	time.Sleep(2 * time.Second) // the match plays on, unrecorded: nothing grows
	if n := dirBytes(t, dir); n > 5<<10 {
		t.Fatalf("the directory holds %d bytes after the stop", n)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("%d files, want the endless match's", len(ents))
	}
	f, err := os.Open(filepath.Join(dir, ents[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := resim.Verify(f)
	if err != nil || sum.Ended || sum.Ticks == 0 {
		t.Fatalf("%s: %+v, %v; want an interrupted recording", ents[0].Name(), sum, err)
	}
	t.Logf("at most %d bytes; %s kept: %d ticks; %s", most, ents[0].Name(), sum.Ticks, outgrown.FindString(srv.stderr.String()))
}

// dirBytes returns the total size of the files in dir (0 if it has none).
func dirBytes(t *testing.T, dir string) int64 {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range ents {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}
