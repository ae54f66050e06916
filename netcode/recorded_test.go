package netcode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto/recording"
	"ttytanks/proto/recording/resim"
)

// memRecordings records every match of every room of a server in memory,
// as recordings.Dir does on disk (one file per match, the header when it
// starts, a block a second, End when it ends, Flush on Close), so that a
// test can verify every recording a server made.
type memRecordings struct {
	files []*memFile
	recs  []*memRecorder
	// finished and interrupted count the recordings verified so far.
	finished, interrupted int
}

// memFile is one match's recording.
type memFile struct {
	room     string
	buf      bytes.Buffer
	ended    bool // MatchEnded came
	closed   bool // the room's Close came first: interrupted
	diverged error
	broken   error // the recorder's own error, if any
	checked  bool  // verified by check
	ticked   bool  // a tick was recorded: recordings.Dir keeps no file of a match without one
}

// memRecorder is a room's Recorder.
type memRecorder struct {
	all  *memRecordings
	room string
	f    *memFile
	w    *recording.Writer
}

func (m *memRecordings) forRoom(room string) Recorder {
	r := &memRecorder{all: m, room: room}
	m.recs = append(m.recs, r)
	return r
}

// closeAll ends every match still recorded as interrupted, as a server
// that stops closes its rooms' recorders.
func (m *memRecordings) closeAll() {
	for _, r := range m.recs {
		r.finish()
	}
}

func (r *memRecorder) MatchStarted(mi MatchInfo) {
	r.finish()
	f := &memFile{room: r.room}
	r.all.files = append(r.all.files, f)
	names := make([]string, mi.Slots)
	copy(names, mi.Names)
	w, err := recording.NewWriter(&f.buf, recording.Header{Rules: game.RulesVersion, Match: mi.ID, Seed: mi.Seed, Slots: mi.Slots,
		MazeW: mi.MazeW, MazeH: mi.MazeH, Start: mi.Start, Rounds: mi.Rounds, Server: "test", Names: names})
	if err != nil {
		f.broken = err
		return
	}
	r.f, r.w = f, w
}

func (r *memRecorder) Seated(t game.Tick, slot int, name string, seated bool) {
	if r.w == nil {
		return
	}
	if t != r.w.Tick() {
		r.f.broken = fmt.Errorf("seat change for tick %d, the recording is at %d", t, r.w.Tick())
	}
	if err := r.w.Seat(slot, name, seated); err != nil && r.f.broken == nil {
		r.f.broken = err
	}
}

func (r *memRecorder) Stepped(t game.Tick, inputs []game.Input, hash uint64) {
	if r.w == nil {
		return
	}
	r.f.ticked = true
	err := r.w.Step(t, inputs, hash)
	if errors.Is(err, recording.ErrHash) {
		if r.f.diverged == nil {
			r.f.diverged = err
		}
	} else if err != nil && r.f.broken == nil {
		r.f.broken = err
	}
}

func (r *memRecorder) MatchEnded(game.Tick) {
	if r.w == nil {
		return
	}
	if err := r.w.End(); err != nil && r.f.broken == nil {
		r.f.broken = err
	}
	r.f.ended = true
	r.f, r.w = nil, nil
}

// Close ends the match in progress as interrupted, as the room's close
// does to a recordings.Dir.
func (r *memRecorder) Close() error {
	r.finish()
	return nil
}

func (r *memRecorder) finish() {
	if r.w == nil {
		return
	}
	if err := r.w.Flush(); err != nil && r.f.broken == nil {
		r.f.broken = err
	}
	r.f.closed = true
	r.f, r.w = nil, nil
}

var _ io.Closer = (*memRecorder)(nil)

// check verifies every recording finished since the last check: each
// re-simulates with every checkpoint matching, the recorder saw no
// divergence, and one that ended holds its end while one cut by its
// room's close is interrupted. It returns what failed ("" if nothing) and
// counts the rest in m.finished and m.interrupted.
func (m *memRecordings) check() (failure string) {
	var bad []string
	for i, f := range m.files {
		if f.checked || !f.ended && !f.closed || !f.ticked {
			continue // checked, still being played, or no file (no tick)
		}
		f.checked = true
		if f.broken != nil || f.diverged != nil {
			bad = append(bad, fmt.Sprintf("recording %d (room %s): recorder: %v %v", i, f.room, f.broken, f.diverged))
			continue
		}
		sum, err := resim.Verify(bytes.NewReader(f.buf.Bytes()))
		switch {
		case err != nil:
			bad = append(bad, fmt.Sprintf("recording %d (room %s, %d bytes, ended %v): FAILED after %d good ticks: %v", i, f.room, f.buf.Len(), f.ended, sum.Ticks, err))
		case sum.Ended != f.ended:
			bad = append(bad, fmt.Sprintf("recording %d (room %s): verify says ended %v, the match ended %v", i, f.room, sum.Ended, f.ended))
		case f.ended:
			m.finished++
		default:
			m.interrupted++
		}
		f.buf = bytes.Buffer{} // verified: its memory can go
	}
	return strings.Join(bad, "\n")
}

// recordedNet is a 2-seat server without bots whose matches are recorded
// in rec, with two players a and b on a lossy path.
func recordedNet(t *testing.T, rec *memRecordings) (n *simnet, a, b *simClient) {
	n = newSimnet(t, ServerConfig{Players: 2, NewRecorder: rec.forRoom})
	path := transport.Impairment{Latency: 15 * time.Millisecond, Loss: 0.03}
	a = n.addClient(ClientConfig{Name: "a", LocalInput: func(w *game.World, slot int) game.Input { return scripted(3, slot, w.Tick()) }}, path, path, 1)
	b = n.addClient(ClientConfig{Name: "b", LocalInput: func(w *game.World, slot int) game.Input { return scripted(4, slot, w.Tick()) }}, path, path, 2)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("match did not start")
	}
	return n, a, b
}

// drop takes c off the network: nothing it sends or is sent arrives.
func (n *simnet) drop(c *simClient) {
	for i, x := range n.clients {
		if x == c {
			n.clients = append(n.clients[:i], n.clients[i+1:]...)
			return
		}
	}
}

// TestRecordingOfAMatchEndedByItsLastLeave: the match ends because its
// last human leaves (a Leave) or times out (FreeAfter of silence): the
// leave, the end and the last checkpoint fall at the same tick, and the
// recording verifies as a finished match all the same.
func TestRecordingOfAMatchEndedByItsLastLeave(t *testing.T) {
	for _, how := range []string{"leave", "timeout"} {
		t.Run(how, func(t *testing.T) {
			rec := &memRecordings{}
			n, a, b := recordedNet(t, rec)
			n.run(7*time.Second + 333*time.Millisecond) // the end falls inside a block
			n.route(a.addr, a.up, a.c.Close())
			n.run(2 * time.Second)
			if how == "leave" {
				n.route(b.addr, b.up, b.c.Close())
				n.run(2 * time.Second)
			} else {
				n.drop(b)
				n.run(FreeAfter + 2*time.Second)
			}
			if n.server.room0().match.live() {
				t.Fatal("the match goes on without players")
			}
			if failure := rec.check(); failure != "" {
				t.Fatal(failure)
			}
			if rec.finished != 1 || rec.interrupted != 0 {
				t.Fatalf("%d finished and %d interrupted recordings, want the one match finished", rec.finished, rec.interrupted)
			}
		})
	}
}
