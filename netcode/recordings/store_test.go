package recordings

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
	"ttytanks/proto/recording/resim"
)

// memFS is an FS in memory whose disk holds capacity bytes (0: no
// limit): a write that does not fit writes what fits and fails with
// ENOSPC, as a full disk does.
type memFS struct {
	files    map[string]*bytes.Buffer
	capacity int64
	used     int64
}

func newMemFS() *memFS { return &memFS{files: map[string]*bytes.Buffer{}} }

func (m *memFS) List() ([]FileInfo, error) {
	var out []FileInfo
	for n, b := range m.files {
		out = append(out, FileInfo{n, int64(b.Len())})
	}
	return out, nil
}

func (m *memFS) Create(name string) (io.WriteCloser, error) {
	if _, ok := m.files[name]; ok {
		return nil, os.ErrExist
	}
	b := &bytes.Buffer{}
	m.files[name] = b
	return memFile{m, b}, nil
}

func (m *memFS) Remove(name string) error {
	b, ok := m.files[name]
	if !ok {
		return os.ErrNotExist
	}
	m.used -= int64(b.Len())
	delete(m.files, name)
	return nil
}

func (m *memFS) names() []string {
	var out []string
	for n := range m.files {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

type memFile struct {
	fs *memFS
	b  *bytes.Buffer
}

func (f memFile) Write(p []byte) (int, error) {
	if f.fs.capacity > 0 && f.fs.used+int64(len(p)) > f.fs.capacity {
		n := int(max(f.fs.capacity-f.fs.used, 0))
		f.b.Write(p[:n])
		f.fs.used += int64(n)
		return n, &os.PathError{Op: "write", Path: "rec", Err: syscall.ENOSPC}
	}
	f.b.Write(p)
	f.fs.used += int64(len(p))
	return len(p), nil
}

func (f memFile) Close() error { return nil }

// match plays a match into a Recorder tick by tick, as the server would,
// with random inputs.
type match struct {
	t     *testing.T
	rec   netcode.Recorder
	world *game.World
	rng   *rand.Rand
	in    []game.Input
}

func startMatch(t *testing.T, rec netcode.Recorder, id uint32, slots, rounds int) *match {
	t.Helper()
	m := netcode.MatchInfo{ID: id, Slots: slots, Seed: uint64(id) * 77, Start: 100, Rounds: rounds, StateEvery: 2}
	for i := 0; i < slots; i++ {
		m.Names = append(m.Names, fmt.Sprintf("p%d", i))
	}
	w, err := game.NewWorld(game.Config{Slots: m.Slots, Seed: m.Seed, StartTick: m.Start, Rounds: m.Rounds})
	if err != nil {
		t.Fatal(err)
	}
	rec.MatchStarted(m)
	return &match{t: t, rec: rec, world: w, rng: rand.New(rand.NewPCG(uint64(id), 3)), in: make([]game.Input, slots)}
}

func (m *match) step() {
	tk := m.world.Tick()
	for s := range m.in {
		if m.rng.IntN(8) == 0 {
			m.in[s] = game.Input{MoveX: int8(m.rng.IntN(3) - 1), MoveY: int8(m.rng.IntN(3) - 1), Buttons: game.Buttons(m.rng.IntN(2))}
		}
		m.in[s].Tick = tk
	}
	m.world.Step(m.in)
	m.rec.Stepped(tk, m.in, m.world.Hash())
}

func (m *match) end() { m.rec.MatchEnded(m.world.Tick()) }

// newMemStore returns a Store on a memFS and a Dir of it whose clock
// advances a minute per match, and the log both write.
func newMemStore(t *testing.T, keep Keep) (*memFS, *Store, *Dir, *bytes.Buffer) {
	t.Helper()
	fs := newMemFS()
	var log bytes.Buffer
	s, err := NewStoreFS(fs, keep, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return fs, s, testDir(s), &log
}

func testDir(s *Store) *Dir {
	d := s.Dir("test", s.log)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	d.now = func() time.Time { now = now.Add(time.Minute); return now }
	return d
}

// verifyMem verifies every file of fs: each must re-simulate with at
// least one tick; it returns their summaries by name.
func verifyMem(t *testing.T, fs *memFS) map[string]resim.Summary {
	t.Helper()
	out := map[string]resim.Summary{}
	for _, n := range fs.names() {
		sum, err := resim.Verify(bytes.NewReader(fs.files[n].Bytes()))
		if err != nil {
			t.Fatalf("%s (%d bytes): %v", n, fs.files[n].Len(), err)
		}
		if sum.Ticks == 0 {
			t.Fatalf("%s (%d bytes): no tick recorded", n, fs.files[n].Len())
		}
		out[n] = sum
	}
	return out
}

// TestStoreBoundsAMatchInProgress: with --record-keep 5KB, an endless
// 8-tank match grows its file a block a second: the older finished
// recordings are deleted (each logged) as it grows, the directory never
// holds more than 5 KB, and when the match alone would outgrow the bound
// its recording stops, is kept, verifies as interrupted and is logged.
func TestStoreBoundsAMatchInProgress(t *testing.T) {
	const bound = 5 << 10
	fs, s, d, log := newMemStore(t, Keep{Bytes: bound})
	for id := uint32(1); id <= 3; id++ { // finished recordings first
		m := startMatch(t, d, id, 2, 0)
		for range 1200 {
			m.step()
		}
		m.end()
	}
	if len(fs.files) != 3 {
		t.Fatalf("files %q before the endless match", fs.names())
	}
	m := startMatch(t, d, 4, 8, 0)
	most := int64(0)
	for i := range 20 * 60 * game.TickRate { // 20 minutes
		m.step()
		if fs.used > bound || s.Bytes() != fs.used {
			t.Fatalf("tick %d: %d bytes on disk (the Store counts %d), bound %d", i, fs.used, s.Bytes(), bound)
		}
		most = max(most, fs.used)
	}
	m.end()
	sums := verifyMem(t, fs)
	names := fs.names()
	last := names[len(names)-1]
	if !strings.Contains(last, "m00000004") || sums[last].Ended {
		t.Fatalf("files %q: want the endless match's recording kept, interrupted", names)
	}
	if n := strings.Count(log.String(), "recording deleted"); n != 3 {
		t.Errorf("%d deletions logged, want the 3 older recordings'", n)
	}
	if n := strings.Count(log.String(), "would outgrow --record-keep"); n != 1 {
		t.Errorf("%d lines about the match outgrowing the bound, want 1:\n%s", n, log.String())
	}
	t.Logf("at most %d bytes on disk; the endless match's recording: %d ticks (%s)", most, sums[last].Ticks, time.Duration(sums[last].Ticks)*time.Second/game.TickRate)
}

// TestStoreCountsEveryRoom: two rooms share a Store bounded to 3 files:
// a match in progress in one room counts, and is never deleted, while the
// other room's finished recordings go oldest first.
func TestStoreCountsEveryRoom(t *testing.T) {
	fs, s, a, log := newMemStore(t, Keep{Files: 3})
	b := testDir(s)
	long := startMatch(t, a, 100, 2, 0)
	for range 90 {
		long.step()
	}
	for id := uint32(1); id <= 4; id++ {
		m := startMatch(t, b, id, 2, 0)
		for range 90 {
			m.step()
			long.step()
		}
		m.end()
		if len(fs.files) > 3 {
			t.Fatalf("after match %d: %q", id, fs.names())
		}
	}
	long.end()
	got := fs.names()
	if len(got) != 3 || !slices.ContainsFunc(got, func(n string) bool { return strings.Contains(n, "m00000064") }) ||
		!strings.Contains(got[len(got)-1], "m00000004") {
		t.Fatalf("files %q: want the long match's and the two newest", got)
	}
	verifyMem(t, fs)
	if n := strings.Count(log.String(), "recording deleted"); n != 2 {
		t.Errorf("%d deletions logged, want 2", n)
	}
}

// TestDirDiskFull: a disk that fills up before a match's first block
// leaves no file (not even the header) and one log line; one that fills
// mid-match leaves the blocks written, which verify as interrupted
// naming the cut block, and one log line; when space returns, the next
// match records again.
func TestDirDiskFull(t *testing.T) {
	fs, _, d, log := newMemStore(t, Keep{})
	fs.capacity = 30 // less than a header and its first block
	m := startMatch(t, d, 1, 4, 0)
	for range 600 {
		m.step()
	}
	m.end()
	if len(fs.files) != 0 {
		t.Fatalf("files %q on a full disk", fs.names())
	}
	if n := strings.Count(log.String(), "cannot write"); n != 1 {
		t.Fatalf("%d failures logged for the match, want 1:\n%s", n, log.String())
	}
	fs.capacity = 1500 // the disk fills in the middle of match 2
	m = startMatch(t, d, 2, 4, 0)
	for range 3000 {
		m.step()
	}
	m.end()
	sums := verifyMem(t, fs)
	sum := sums[fs.names()[0]]
	if len(sums) != 1 || sum.Ended || sum.Interrupted == nil || !strings.Contains(sum.Interrupted.Error(), "block at byte") {
		t.Fatalf("%q: %+v; want the second match interrupted at a cut block", fs.names(), sum)
	}
	t.Logf("cut: %v", sum.Interrupted)
	if n := strings.Count(log.String(), "cannot write"); n != 2 {
		t.Fatalf("%d failures logged, want one per match (2)", n)
	}
	fs.capacity = 0 // space returns
	m = startMatch(t, d, 3, 4, 3)
	for range 900 {
		m.step()
	}
	m.end()
	sums = verifyMem(t, fs)
	if len(sums) != 2 || !sums[fs.names()[1]].Ended {
		t.Fatalf("files %q, %+v: want the third match finished", fs.names(), sums)
	}
	if w, f := d.Counts(); w != 1 || f != 2 {
		t.Errorf("%d written, %d failed; want 1, 2", w, f)
	}
}

// TestDirNoFileBeforeTheFirstTick: a match that ends (or whose room
// closes) before its first tick leaves no file; the header never
// appears alone.
func TestDirNoFileBeforeTheFirstTick(t *testing.T) {
	fs, _, d, log := newMemStore(t, Keep{})
	startMatch(t, d, 1, 2, 0).end()
	startMatch(t, d, 2, 2, 0)
	d.Close()
	if len(fs.files) != 0 {
		t.Fatalf("files %q for matches without a tick", fs.names())
	}
	if n := strings.Count(log.String(), "before its first tick"); n != 2 {
		t.Fatalf("%d lines about matches without a tick, want 2", n)
	}
}
