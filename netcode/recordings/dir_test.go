package recordings

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
	"ttytanks/proto/recording/resim"
)

// playMatch tells d about a match of 2 seats and ticks ticks, as the
// server would: start, a seat change, every step; ended says whether
// MatchEnded comes.
func playMatch(t *testing.T, d *Dir, id uint32, ticks int, ended bool) {
	t.Helper()
	m := netcode.MatchInfo{ID: id, Slots: 2, Seed: uint64(id), Start: 100, Rounds: 3, StateEvery: 2, Names: []string{"ann", "bob"}}
	w, err := game.NewWorld(game.Config{Slots: m.Slots, Seed: m.Seed, StartTick: m.Start, Rounds: m.Rounds})
	if err != nil {
		t.Fatal(err)
	}
	d.MatchStarted(m)
	in := make([]game.Input, 2)
	for i := 0; i < ticks; i++ {
		if i == ticks/2 {
			w.Seat(1, false)
			d.Seated(w.Tick(), 1, "bob", false)
		}
		tk := w.Tick()
		for s := range in {
			in[s] = game.Input{Tick: tk, MoveX: int8((i/30+s)%3 - 1), MoveY: int8((i/45)%3 - 1), Buttons: game.Buttons(i / 20 % 2)}
		}
		w.Step(in)
		d.Stepped(tk, in, w.Hash())
	}
	if ended {
		d.MatchEnded(w.Tick())
	}
}

// newTestDir returns a Dir in a temp directory whose clock advances a
// minute per match, and the log it writes.
func newTestDir(t *testing.T, keep Keep) (*Dir, string, *bytes.Buffer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec")
	var log bytes.Buffer
	d, err := NewDir(path, keep, "test", slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d.now = func() time.Time { now = now.Add(time.Minute); return now }
	return d, path, &log
}

func listDir(t *testing.T, path string) []string {
	t.Helper()
	ents, err := os.ReadDir(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func verifyFile(t *testing.T, path string) resim.Summary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := resim.Verify(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return sum
}

// TestDirKeepsTheNewestFiles: with --record-keep 3, five matches leave
// the three newest files, named by start time and id, each verifying as a
// finished match.
func TestDirKeepsTheNewestFiles(t *testing.T) {
	d, path, _ := newTestDir(t, Keep{Files: 3})
	for id := uint32(1); id <= 5; id++ {
		playMatch(t, d, id, 300, true)
	}
	got := listDir(t, path)
	want := []string{"20260101-120300-m00000003.ttrec", "20260101-120400-m00000004.ttrec", "20260101-120500-m00000005.ttrec"}
	if !slices.Equal(got, want) {
		t.Fatalf("files %q, want %q", got, want)
	}
	for _, n := range got {
		if sum := verifyFile(t, filepath.Join(path, n)); !sum.Ended || sum.Ticks != 300 {
			t.Fatalf("%s: %+v, want a finished match of 300 ticks", n, sum)
		}
	}
}

// TestDirKeepsASize: with a size bound, the files left after each match
// total at most that size, and the newest is always kept.
func TestDirKeepsASize(t *testing.T) {
	d, path, _ := newTestDir(t, Keep{Bytes: 1500})
	for id := uint32(1); id <= 6; id++ {
		playMatch(t, d, id, 600, true)
		var total int64
		names := listDir(t, path)
		for _, n := range names {
			st, _ := os.Stat(filepath.Join(path, n))
			total += st.Size()
		}
		if total > 1500 && len(names) > 1 || !strings.Contains(names[len(names)-1], "m0000000"+string(rune('0'+id))) {
			t.Fatalf("after match %d: %d bytes in %q", id, total, names)
		}
		if id == 6 {
			if len(names) >= 6 {
				t.Fatalf("nothing was deleted: %q", names)
			}
			t.Logf("%d bytes in %q", total, names)
		}
	}
}

// TestDirCloseMidMatch: Close during a match writes what is pending; the
// file verifies up to the last step, as interrupted. Calls after Close do
// nothing.
func TestDirCloseMidMatch(t *testing.T) {
	d, path, _ := newTestDir(t, Keep{Files: 10})
	playMatch(t, d, 1, 250, false)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d.Stepped(350, []game.Input{{Tick: 350}, {Tick: 350}}, 0)
	d.MatchEnded(351)
	names := listDir(t, path)
	if len(names) != 1 {
		t.Fatalf("files %q", names)
	}
	if sum := verifyFile(t, filepath.Join(path, names[0])); sum.Ended || sum.Ticks != 250 {
		t.Fatalf("summary %+v, want 250 ticks, not ended", sum)
	}
}

// TestDirFailureIsLogged: when the match's file cannot be created, the
// failure is logged and the Recorder calls do nothing; the next match
// records again once the directory is back.
func TestDirFailureIsLogged(t *testing.T) {
	d, path, log := newTestDir(t, Keep{Files: 10})
	os.RemoveAll(path)
	os.WriteFile(path, nil, 0o644) // a file where the directory was
	playMatch(t, d, 1, 100, true)
	if !strings.Contains(log.String(), "cannot write") || !strings.Contains(log.String(), "not a directory") {
		t.Fatalf("log %q: want the failure", log.String())
	}
	if w, f := d.Counts(); w != 0 || f != 1 {
		t.Errorf("after the failure: %d written, %d failed; want 0, 1", w, f)
	}
	os.Remove(path)
	os.Mkdir(path, 0o755)
	playMatch(t, d, 2, 100, true)
	if names := listDir(t, path); len(names) != 1 {
		t.Fatalf("files %q, want the second match's", names)
	}
	if w, f := d.Counts(); w != 1 || f != 1 {
		t.Errorf("after the second match: %d written, %d failed; want 1, 1", w, f)
	}
	if !strings.Contains(log.String(), "recording written") {
		t.Errorf("log %q: no line for the file written", log.String())
	}
}

// TestParseKeep reads counts and sizes and rejects the rest.
func TestParseKeep(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Keep
		ok   bool
	}{
		{"50", Keep{Files: 50}, true},
		{"100MB", Keep{Bytes: 100 << 20}, true},
		{"1.5GB", Keep{Bytes: 3 << 29}, true},
		{"512kib", Keep{Bytes: 512 << 10}, true},
		{"2000B", Keep{Bytes: 2000}, true},
		{"0", Keep{}, false},
		{"-3", Keep{}, false},
		{"10XB", Keep{}, false},
		{"MB", Keep{}, false},
		{"", Keep{}, false},
	} {
		got, err := ParseKeep(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseKeep(%q) = %+v, %v; want %+v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestDirContainsAPanic: a panic inside a Recorder call (here from the
// clock MatchStarted reads, standing in for any bug) is logged with its
// stack and does not reach the caller, the server; the calls of that match
// then do nothing, and the next match records.
func TestDirContainsAPanic(t *testing.T) {
	d, path, log := newTestDir(t, Keep{Files: 10})
	now := d.now
	d.now = func() time.Time { panic("broken clock") }
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("the panic reached the caller: %v", p)
			}
		}()
		playMatch(t, d, 1, 100, true)
	}()
	if !strings.Contains(log.String(), "broken clock") || !strings.Contains(log.String(), "stack=") {
		t.Fatalf("log %q: want the panic and its stack", log.String())
	}
	d.now = now
	playMatch(t, d, 2, 100, true)
	if names := listDir(t, path); len(names) != 1 || !strings.Contains(names[0], "m00000002") {
		t.Fatalf("files %q, want the second match's", names)
	}
}
