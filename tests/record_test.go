package tests

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"ttytanks/proto/recording"
	"ttytanks/proto/recording/rectest"
	"ttytanks/proto/recording/resim"
)

// TestRecordVerifyTamper records a bots-only match through the real
// server (serve --bots 2 --players 2 --record DIR) for a few seconds and
// stops it with SIGINT: ttytanks verify accepts the file, as interrupted.
// Then, in copies: one input bit flipped makes verify exit 1 naming that
// block's offset and ticks (its checksum fails); one bit of a checkpoint's
// hash flipped, with the block's CRC recomputed so only re-simulation can
// catch it, makes verify exit 1 naming that checkpoint's tick; a copy cut
// inside a block verifies up to the block before it.
func TestRecordVerifyTamper(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--bots", "2", "--players", "2", "--record", dir, "--record-keep", "5")
	// The server writes a block every second; wait (polling the file, the
	// only thing there is to watch) until 4 s of play are on disk.
	var file string
	deadline := time.Now().Add(30 * time.Second)
	for {
		if fs, _ := filepath.Glob(filepath.Join(dir, "*.ttrec")); len(fs) == 1 {
			file = fs[0]
			if f, err := os.Open(file); err == nil {
				sum, _ := resim.Verify(f)
				f.Close()
				if sum.Ticks >= 240 {
					break
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no recording with 4 s of play after 30 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := srv.stop(t, os.Interrupt, 30*time.Second); err != nil {
		t.Fatalf("serve: %v", err)
	}

	code, out, errs := runBin(t, "verify", file)
	if code != 0 || !strings.Contains(out, "OK") || !strings.Contains(out, "interrupted at tick") {
		t.Fatalf("verify: exit %d, stdout %q, stderr %q; want 0 and an interrupted match", code, out, errs)
	}
	t.Logf("verify: %s", strings.TrimSpace(out))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ks, offs, err := rectest.Blocks(data)
	if err != nil {
		t.Fatal(err)
	}
	v := len(ks) / 2
	write := func(name string, b []byte) string {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	// One input bit: the first input byte is 12 bytes in (tag, 1-byte
	// length, first tick, count, input length), well within 60 ticks'
	// input bits.
	flipped := bytes.Clone(data)
	flipped[offs[v]+12] ^= 0x08
	code, _, errs = runBin(t, "verify", write("input.ttrec", flipped))
	want := fmt.Sprintf("block at byte %d (ticks %d..%d): checksum mismatch", offs[v], ks[v].First, int(ks[v].First)+ks[v].Count-1)
	if code != 1 || !strings.Contains(errs, want) {
		t.Fatalf("verify of a flipped input bit: exit %d, stderr %q; want 1 and %q", code, errs, want)
	}
	t.Logf("input bit: %s", strings.TrimSpace(errs))

	// One hash bit, CRC recomputed.
	k := ks[v]
	k.Checkpoints = append([]recording.Checkpoint(nil), k.Checkpoints...)
	k.Checkpoints[0].Chain ^= 1 << 40
	hashed := bytes.Clone(data)
	copy(hashed[offs[v]:], k.Append(nil))
	code, _, errs = runBin(t, "verify", write("hash.ttrec", hashed))
	want = fmt.Sprintf("checkpoint at tick %d (block at byte %d)", k.Checkpoints[0].Tick, offs[v])
	if code != 1 || !strings.Contains(errs, want) {
		t.Fatalf("verify of a flipped hash bit: exit %d, stderr %q; want 1 and %q", code, errs, want)
	}
	t.Logf("hash bit: %s", strings.TrimSpace(errs))

	// Cut inside block v.
	code, out, errs = runBin(t, "verify", write("cut.ttrec", data[:offs[v]+7]))
	want = fmt.Sprintf("interrupted at tick %d", ks[v].First)
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("verify of a cut file: exit %d, stdout %q, stderr %q; want 0 and %q", code, out, errs, want)
	}
}

// TestVerifyUsage: verify without a file is a usage error (exit 2); a
// file that is not a recording fails (exit 1), saying so.
func TestVerifyUsage(t *testing.T) {
	if code, _, _ := runBin(t, "verify"); code != 2 {
		t.Errorf("verify with no file: exit %d, want 2", code)
	}
	p := filepath.Join(t.TempDir(), "x.ttrec")
	os.WriteFile(p, []byte("not a recording"), 0o644)
	if code, _, errs := runBin(t, "verify", p); code != 1 || !strings.Contains(errs, "not a ttytanks recording") {
		t.Errorf("verify of a non-recording: exit %d, %q; want 1 and not a ttytanks recording", code, errs)
	}
}

var statusTick = regexp.MustCompile(`(PLAY|PAUSE) \S+x  tick (\d+)`)

// replayStatus returns the state and tick of the replay's status line.
func replayStatus(screen string) (string, int) {
	m := statusTick.FindStringSubmatch(screen)
	if m == nil {
		return "", -1
	}
	n, _ := strconv.Atoi(m[2])
	return m[1], n
}

// TestReplayInTerminal plays a recording made by the real server in a
// real terminal (tmux at 100x30): the maze, the tanks and the status line
// appear and the tick advances; space pauses (the tick stops); → seeks
// exactly 5 s forward while paused; q quits with exit status 0. replay
// --help lists the keys.
func TestReplayInTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	code, out, _ := runBin(t, "replay", "--help")
	for _, k := range []string{"space", "+ / -", "← / →", "[ / ]", "1-8", "q, Esc"} {
		if code != 0 || !strings.Contains(out, k) {
			t.Fatalf("replay --help (exit %d) does not list %q:\n%s", code, k, out)
		}
	}
	file := recordBots(t, 8*time.Second)
	tm := startTmux(t, "replay", 100, 30, binary(t), "replay", file)
	tm.waitScreen(10*time.Second, "the maze, tanks and a moving tick", func(s string) bool {
		st, tick := replayStatus(s)
		return st == "PLAY" && tick > 60 && strings.Contains(s, "██") && len(tanks(s)) >= 2 && strings.Contains(s, "ROUND")
	})
	tm.keys("Space")
	s := tm.waitScreen(5*time.Second, "paused", func(s string) bool { st, _ := replayStatus(s); return st == "PAUSE" })
	_, paused := replayStatus(s)
	tm.keys("Right")
	s = tm.waitScreen(5*time.Second, "a seek of 300 ticks", func(s string) bool { _, tick := replayStatus(s); return tick != paused })
	if st, tick := replayStatus(s); st != "PAUSE" || tick != paused+300 {
		t.Fatalf("after → while paused at tick %d: %s at tick %d, want PAUSE at %d\n%s", paused, st, tick, paused+300, s)
	}
	tm.keys("q")
	if st := tm.waitExit(); st != "0" {
		t.Fatalf("replay exited with %s", st)
	}
}

// recordBots runs serve --bots 2 --record until the recording holds at
// least d of play, stops it, and returns the file.
func recordBots(t *testing.T, d time.Duration) string {
	t.Helper()
	dir := t.TempDir()
	srv := serveBin(t, context.Background(), "127.0.0.1:0", "--bots", "2", "--players", "2", "--record", dir)
	want := int(d.Seconds() * 60)
	deadline := time.Now().Add(d + 20*time.Second)
	for {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.ttrec"))
		if len(fs) == 1 {
			if f, err := os.Open(fs[0]); err == nil {
				sum, _ := resim.Verify(f)
				f.Close()
				if sum.Ticks >= want {
					srv.cmd.Process.Signal(os.Interrupt)
					srv.wait()
					return fs[0]
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recording of %v", d) // the server's log follows
		}
		time.Sleep(100 * time.Millisecond)
	}
}
