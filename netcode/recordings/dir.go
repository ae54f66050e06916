package recordings

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
	"ttytanks/proto"
	"ttytanks/proto/recording"
)

// Ext is the file name extension of a recording.
const Ext = ".ttrec"

// Dir is a netcode.Recorder that writes each match of a room to its own
// file of a Store, named by the match's start time (UTC) and id, such as
// 20260101-120000-m0000002a.ttrec. A block is written every second of
// play, so a server that dies leaves a file readable up to its last
// second. The file appears with its first block, its header written in
// the same write: there is no empty or header-only file, and a match
// that ends before its first tick leaves none.
//
// The Store's Keep bound holds at all times: the oldest finished
// recordings are deleted as the match in progress grows, and a match
// that would outgrow the bound alone has its recording stopped, kept
// (interrupted) and logged.
//
// A failure to write (a full disk) is logged once per match and ends that
// match's recording, as interrupted; the next match records again. A
// panic in recording is logged with its stack and ends the match's
// recording too; it never reaches the server. Dir is safe for concurrent
// use: Close may run while the server still calls it.
type Dir struct {
	store  *Store
	server string
	log    *slog.Logger
	now    func() time.Time

	mu       sync.Mutex
	out      *matchFile // nil: no match recorded
	w        *recording.Writer
	diverged bool // this match's divergence was logged
	closed   bool
	// written counts the recordings finished or cut short and closed,
	// failed those that stopped on an error.
	written, failed uint64
}

// NewDir creates the directory path if needed and returns a Dir that
// records into it, bounded by keep, in a Store of its own. server is the
// server's version string written in each header; log receives failures,
// deletions and each file's name.
func NewDir(path string, keep Keep, server string, log *slog.Logger) (*Dir, error) {
	s, err := NewStore(path, keep, log)
	if err != nil {
		return nil, err
	}
	return s.Dir(server, log), nil
}

// Dir returns a new Recorder (for one room) writing into s.
func (s *Store) Dir(server string, log *slog.Logger) *Dir {
	if len(server) > recording.MaxServerLen {
		server = server[:recording.MaxServerLen]
	}
	return &Dir{store: s, server: server, log: log, now: time.Now}
}

var _ netcode.Recorder = (*Dir)(nil)

// MatchStarted begins a new recording for the match (ending any match
// still recorded, which then ends interrupted).
func (d *Dir) MatchStarted(m netcode.MatchInfo) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.contain()
	if d.closed {
		return
	}
	d.closeMatch(false)
	start := d.now().UTC()
	name := fmt.Sprintf("%s-m%08x%s", start.Format("20060102-150405"), m.ID, Ext)
	if err := d.store.begin(name); err != nil {
		d.log.Error("recording: the match is not recorded", "file", name, "err", err)
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
	out := &matchFile{store: d.store, name: name}
	w, err := recording.NewWriter(out, h)
	if err != nil {
		d.log.Error("recording: cannot write the header", "file", name, "err", err)
		d.store.finish(name, true)
		d.failed++
		return
	}
	d.out, d.w, d.diverged = out, w, false
	d.log.Info("recording match", "file", name, "match", m.ID)
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
	d.out.ready = true // the recording has a tick: its file may appear
	err := d.w.Step(t, inputs, hash)
	if errors.Is(err, recording.ErrHash) {
		// The server's world and the recording's disagree: keep
		// recording, this file is the evidence.
		if !d.diverged {
			d.log.Error("recording: the server's hash differs from the recorded inputs' simulation", "file", d.out.name, "err", err)
		}
		d.diverged = true
		return
	}
	d.fail(err)
}

// MatchEnded records the match's end and closes its file.
func (d *Dir) MatchEnded(t game.Tick) {
	d.mu.Lock()
	defer d.mu.Unlock()
	defer d.contain()
	d.closeMatch(true)
}

// Close writes what is pending of a match in progress, which ends
// interrupted, and closes its file. Later calls of the Recorder methods
// do nothing.
func (d *Dir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return d.closeMatch(false)
}

// contain recovers a panic in recording, logs it with its stack and ends
// the match's recording: a fault in the recorder never reaches the server.
func (d *Dir) contain() {
	if p := recover(); p != nil {
		name := ""
		if d.out != nil {
			name = d.out.name
			d.out.close(d.store)
			d.failed++
		}
		d.log.Error("recording: panic; the match's recording stops here", "file", name, "panic", p, "stack", string(debug.Stack()))
		d.out, d.w = nil, nil
	}
}

// fail logs err, if any, and ends the match's recording, keeping what
// reached the disk (it verifies as interrupted): a Writer that cannot
// write stays broken. A match that outgrew the Keep bound counts as
// written, any other failure as failed.
func (d *Dir) fail(err error) {
	if err == nil {
		return
	}
	kept := d.out.close(d.store)
	if errors.Is(err, ErrOutgrow) {
		d.log.Warn("recording: the match alone would outgrow --record-keep; its recording stops here and is kept, interrupted",
			"file", d.out.name, "bytes", d.out.size, "kept", kept, "err", err)
		d.written++
	} else {
		d.log.Error("recording: cannot write; the match's recording stops here (the next match records again)",
			"file", d.out.name, "bytes", d.out.size, "kept", kept, "err", err)
		d.failed++
	}
	d.out, d.w = nil, nil
}

// closeMatch ends the match recorded, if any: with its end when ended,
// else interrupted; a match without a tick leaves no file.
func (d *Dir) closeMatch(ended bool) error {
	if d.out == nil {
		return nil
	}
	if !d.out.ready {
		d.log.Info("recording: the match ended before its first tick; nothing recorded", "file", d.out.name)
		d.out.close(d.store)
		d.out, d.w = nil, nil
		return nil
	}
	var err error
	if ended {
		err = d.w.End()
	} else {
		err = d.w.Flush()
	}
	if err != nil {
		d.fail(err)
		return err
	}
	out := d.out
	d.out, d.w = nil, nil
	if cerr := out.f.Close(); cerr != nil {
		d.log.Error("recording: closing the match's file", "file", out.name, "err", cerr)
		d.store.finish(out.name, false)
		d.failed++
		return cerr
	}
	d.store.finish(out.name, false)
	d.written++
	d.log.Info("recording written", "file", out.name, "bytes", out.size, "ended", ended)
	return nil
}

// Counts returns how many recordings were written (finished or cut
// short, and closed) and how many stopped on an error.
func (d *Dir) Counts() (written, failed uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.written, d.failed
}

// matchFile is the io.Writer a match's recording.Writer writes to: it
// holds the header until the first block (ready: the match has a tick),
// creates the file then and writes both in one write, and reserves every
// write's bytes in the Store first. A first write that fails leaves no
// file; a later one leaves the blocks before it.
type matchFile struct {
	store *Store
	name  string
	ready bool
	f     io.WriteCloser // nil until the first block
	buf   []byte         // the header, until then
	size  int64          // bytes written
}

func (m *matchFile) Write(p []byte) (int, error) {
	if m.f == nil && !m.ready {
		m.buf = append(m.buf, p...)
		return len(p), nil
	}
	data := p
	if m.f == nil {
		data = append(m.buf, p...)
	}
	if err := m.store.grow(m.name, len(data)); err != nil {
		return 0, err
	}
	if m.f == nil {
		f, err := m.store.fs.Create(m.name)
		if err != nil {
			m.store.shrink(m.name, len(data))
			return 0, err
		}
		n, err := f.Write(data)
		if err != nil {
			f.Close()
			m.store.shrink(m.name, len(data))
			if rerr := m.store.fs.Remove(m.name); rerr != nil {
				m.store.grow(m.name, n) // it stays, as big as it is
				return 0, fmt.Errorf("%w (and removing the file: %v)", err, rerr)
			}
			return 0, err
		}
		m.f, m.buf, m.size = f, nil, int64(n)
		return len(p), nil
	}
	n, err := m.f.Write(data)
	m.size += int64(n)
	if n < len(data) {
		m.store.shrink(m.name, len(data)-n)
	}
	return n, err
}

// close closes the file, if any, and tells the Store the recording is
// finished; it reports whether a file is kept.
func (m *matchFile) close(s *Store) (kept bool) {
	if m.f == nil {
		s.finish(m.name, true)
		return false
	}
	m.f.Close()
	s.finish(m.name, false)
	return true
}
