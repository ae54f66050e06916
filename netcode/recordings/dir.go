package recordings

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
	"ttytanks/proto"
	"ttytanks/proto/recording"
)

// Ext is the file name extension of a recording.
const Ext = ".ttrec"

// Dir is a netcode.Recorder that writes each match to its own file in a
// directory, named by the match's start time (UTC) and id, such as
// 20260101-120000-m0000002a.ttrec. A block is written every second of
// play, so a server that dies leaves a file readable up to its last
// second. After each match, and before each new one, the oldest
// recordings are deleted until the Keep bound holds.
//
// A failure to write is logged once per match and ends that match's
// recording, and so does a panic in recording (logged with its stack); it
// never reaches the server. Dir is safe for concurrent use:
// Close may run while the server still calls it.
type Dir struct {
	path   string
	keep   Keep
	server string
	log    *slog.Logger
	now    func() time.Time

	mu       sync.Mutex
	f        *os.File
	w        *recording.Writer
	name     string
	diverged bool // this match's divergence was logged
	closed   bool
	// written counts the recordings finished and closed, failed those
	// that stopped on an error.
	written, failed uint64
}

// NewDir creates the directory path if needed and returns a Dir that
// records into it, bounded by keep. server is the server's version string
// written in each header; log receives failures and each file's name.
func NewDir(path string, keep Keep, server string, log *slog.Logger) (*Dir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("recordings: %w", err)
	}
	if len(server) > recording.MaxServerLen {
		server = server[:recording.MaxServerLen]
	}
	return &Dir{path: path, keep: keep, server: server, log: log, now: time.Now}, nil
}

var _ netcode.Recorder = (*Dir)(nil)

// MatchStarted opens a new file for the match (closing any match still
// open, which then ends interrupted) and writes its header.
func (d *Dir) MatchStarted(m netcode.MatchInfo) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.contain()
	if d.closed {
		return
	}
	d.closeFile()
	d.prune(1)
	start := d.now().UTC()
	d.name = filepath.Join(d.path, fmt.Sprintf("%s-m%08x%s", start.Format("20060102-150405"), m.ID, Ext))
	f, err := os.OpenFile(d.name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		d.log.Error("recording: cannot create the match's file", "err", err)
		d.failed++
		return
	}
	names := make([]string, m.Slots)
	for i := range names {
		if i < len(m.Names) {
			names[i] = proto.SanitizeName(m.Names[i])
		}
	}
	h := recording.Header{Rules: game.RulesVersion, Match: m.ID, Seed: m.Seed, Slots: m.Slots,
		MazeW: m.MazeW, MazeH: m.MazeH, Start: m.Start, Rounds: m.Rounds, Started: start.Unix(), Server: d.server, Names: names}
	w, err := recording.NewWriter(f, h)
	if err != nil {
		d.log.Error("recording: cannot write the header", "file", d.name, "err", err)
		f.Close()
		d.failed++
		return
	}
	d.f, d.w, d.diverged = f, w, false
	d.log.Info("recording match", "file", d.name, "match", m.ID)
}

// Seated records a seat change.
func (d *Dir) Seated(t game.Tick, slot int, name string, seated bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.contain()
	if d.w != nil {
		d.fail(d.w.Seat(slot, proto.SanitizeName(name), seated))
	}
}

// Stepped records a tick.
func (d *Dir) Stepped(t game.Tick, inputs []game.Input, hash uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.contain()
	if d.w == nil {
		return
	}
	err := d.w.Step(t, inputs, hash)
	if errors.Is(err, recording.ErrHash) {
		// The server's world and the recording's disagree: keep
		// recording, this file is the evidence.
		if !d.diverged {
			d.log.Error("recording: the server's hash differs from the recorded inputs' simulation", "file", d.name, "err", err)
		}
		d.diverged = true
		return
	}
	d.fail(err)
}

// MatchEnded records the match's end, closes its file and applies the
// Keep bound.
func (d *Dir) MatchEnded(t game.Tick) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.contain()
	if d.w != nil {
		d.fail(d.w.End())
	}
	d.closeFile()
	d.prune(0)
}

// Close writes what is pending of a match in progress, which ends
// interrupted, and closes its file. Later calls of the Recorder methods
// do nothing.
func (d *Dir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return d.closeFile()
}

// contain recovers a panic in recording, logs it with its stack and ends
// the match's recording: a fault in the recorder never reaches the server.
func (d *Dir) contain() {
	if p := recover(); p != nil {
		d.log.Error("recording: panic; the match's recording stops here", "file", d.name, "panic", p, "stack", string(debug.Stack()))
		if d.f != nil {
			d.f.Close()
			d.failed++
		}
		d.f, d.w = nil, nil
	}
}

// fail logs err, if any, and ends the match's recording: a Writer that
// cannot write stays broken.
func (d *Dir) fail(err error) {
	if err == nil {
		return
	}
	d.log.Error("recording: the match's recording stops here", "file", d.name, "err", err)
	d.f.Close()
	d.f, d.w = nil, nil
	d.failed++
}

func (d *Dir) closeFile() error {
	if d.f == nil {
		return nil
	}
	err := d.w.Flush()
	if cerr := d.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		d.log.Error("recording: closing the match's file", "file", d.name, "err", err)
		d.failed++
	} else {
		d.written++
		d.log.Info("recording written", "file", d.name)
	}
	d.f, d.w = nil, nil
	return err
}

// Counts returns how many recordings were written (finished or cut
// short by Close, and closed) and how many stopped on an error.
func (d *Dir) Counts() (written, failed uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.written, d.failed
}

// prune deletes the oldest recordings until the Keep bound holds with
// room for more new files.
func (d *Dir) prune(room int) {
	ents, err := os.ReadDir(d.path)
	if err != nil {
		d.log.Error("recording: listing the directory", "err", err)
		return
	}
	type file struct {
		name string
		size int64
	}
	var files []file
	var total int64
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), Ext) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{e.Name(), info.Size()})
		total += info.Size()
	}
	// Names start with the UTC start time, so name order is age order.
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.name, b.name) })
	for len(files) > 0 && (d.keep.Files > 0 && len(files)+room > d.keep.Files || d.keep.Bytes > 0 && total > d.keep.Bytes) {
		if err := os.Remove(filepath.Join(d.path, files[0].name)); err != nil {
			d.log.Error("recording: deleting an old recording", "err", err)
			return
		}
		total -= files[0].size
		files = files[1:]
	}
}
