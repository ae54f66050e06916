package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"ttytanks/game"
	"ttytanks/proto/recording"
	"ttytanks/proto/recording/rectest"
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

// recordTicks returns a 2-seat recording of ticks ticks, ended or not.
func recordTicks(t *testing.T, ticks int, end bool) []byte {
	t.Helper()
	m := rectest.NewMatch(t, recording.Header{Rules: game.RulesVersion, Match: 6, Seed: 3, Slots: 2, Names: []string{"ann", "bob"}},
		func(w *game.World, s int) game.Input {
			i := int(w.Tick())
			return game.Input{MoveX: int8(i/40%3 - 1), MoveY: int8((i/70+s)%3 - 1)}
		})
	for range ticks {
		m.Step()
	}
	if end {
		return m.End()
	}
	return m.Flush()
}

// TestVerifyBadFiles: verify tells a foreign file, one cut before its
// first block, a header alone and an empty file apart, each with exit 1,
// and never says OK for zero ticks; an interrupted recording names the
// block it is cut in.
func TestVerifyBadFiles(t *testing.T) {
	full := recordTicks(t, 600, false)
	header, err := recording.NewReader(bytes.NewReader(full))
	if err != nil {
		t.Fatal(err)
	}
	h := header.Header()
	hlen := h.Len()
	ended0 := recordTicks(t, 0, true)
	_, offs, _ := blocksOf(t, full)
	for _, c := range []struct {
		name string
		data []byte
		code int
		want string
	}{
		{"foreign", []byte("#!/bin/sh\necho this is a shell script, long enough to be anything\n"), 1, `FAILED: not a ttytanks recording\n$`},
		{"cutfirstblock", full[:hlen+20], 1, `FAILED: truncated before its first block \(.*block at byte \d+: short data.*\)\n$`},
		{"headeronly", full[:hlen], 1, `FAILED: truncated before its first block \(the file is its header alone\)\n$`},
		{"cutheader", full[:hlen-3], 1, `FAILED: truncated before its first block \(the file ends inside its header\)\n$`},
		{"empty", nil, 1, `FAILED: truncated before its first block \(the file ends inside its header\)\n$`},
		{"endedbefore", ended0, 1, `FAILED: the match ended before its first tick\n$`},
		{"cut", full[:offs[5]+9], 0, `OK match 6: 300 ticks .*interrupted at tick 300 \(the file ends inside the block at byte ` + itoa(offs[5]) + `\);`},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), c.name+".ttrec")
			os.WriteFile(file, c.data, 0o644)
			var out, errb bytes.Buffer
			code := Verify([]string{file}, &out, &errb)
			got := out.String() + errb.String()
			if code != c.code || !regexp.MustCompile(c.want).MatchString(got) {
				t.Fatalf("exit %d, output %q; want exit %d and %s", code, got, c.code, c.want)
			}
			t.Log(got)
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// blocksOf returns the blocks of file and their offsets.
func blocksOf(t *testing.T, file []byte) ([]recording.Block, []int64, error) {
	t.Helper()
	r, err := recording.NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var ks []recording.Block
	var offs []int64
	for {
		off := r.Offset()
		k, err := r.Next()
		if err != nil {
			return ks, offs, err
		}
		ks, offs = append(ks, k), append(offs, off)
	}
}
