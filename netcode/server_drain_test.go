package netcode

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// logLines decodes the JSON log lines in b, in order.
func logLines(t *testing.T, b *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// logLine returns the first log line with message msg, or nil.
func logLine(lines []map[string]any, msg string) map[string]any {
	for _, l := range lines {
		if l["msg"] == msg {
			return l
		}
	}
	return nil
}

// TestDrainLetsTheMatchEnd: a drain during a match refuses a newcomer
// with the draining Reject (ErrDraining), marks the room closing in the
// room list, lets the match play to its results with no rematch and no
// hash mismatch, then sends its player a shutdown Leave; the server is
// then drained. The counters and the log tell the story.
func TestDrainLetsTheMatchEnd(t *testing.T) {
	var logBuf bytes.Buffer
	n := newSimnet(t, ServerConfig{Players: 2, Bots: 1, NewBot: botPolicy, Rounds: 1, Seed: 7, MaxRooms: 4,
		Logger: slog.New(slog.NewJSONHandler(&logBuf, nil))})
	lat := transport.Impairment{Latency: 20 * time.Millisecond}
	p := n.addClient(botClient("p", 3), lat, lat, 1)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatalf("no match: %v", errText(p.c))
	}
	n.run(time.Second)
	n.routeFromServer(n.server.Drain(n.now), nil)
	if !n.server.Draining() || n.server.Drained() {
		t.Fatalf("draining %v drained %v during a match, want true, false", n.server.Draining(), n.server.Drained())
	}
	late := n.addClient(ClientConfig{Name: "late"}, lat, lat, 2)
	lobby := n.addLobby(n.saddr, 77, lat)
	var list RoomList
	if !n.runUntil(3*time.Second, func() bool { lobby.l.Rooms(&list); return late.c.Status() == StatusClosed && !list.Updated.IsZero() }) {
		t.Fatalf("the newcomer is %v, the lobby has no list", late.c.Status())
	}
	if !errors.Is(late.c.Err(), ErrDraining) {
		t.Errorf("the newcomer ended with %v, want ErrDraining", late.c.Err())
	}
	if !list.Draining() || len(list.Rooms) != 1 || !list.Rooms[0].Closing {
		t.Errorf("the lobby's list %+v does not show the drain", list.Rooms)
	}
	r := n.server.room0()
	first := r.match.matchID()
	var overAt time.Time
	if !n.runUntil(5*time.Minute, func() bool {
		if w := r.match.current(); w != nil && w.State().Round.Phase == game.PhaseMatchOver && overAt.IsZero() {
			overAt = n.now
		}
		return p.c.Status() == StatusClosed
	}) {
		t.Fatalf("the player is still %v", p.c.Status())
	}
	var ended *EndedError
	if !errors.As(p.c.Err(), &ended) || ended.Reason != proto.LeaveShutdown {
		t.Fatalf("the player ended with %v, want a shutdown Leave", p.c.Err())
	}
	t.Logf("match over at %v of virtual time, Leave %v later", overAt.Sub(simEpoch), n.now.Sub(overAt))
	if overAt.IsZero() || n.now.Sub(overAt) < drainResults {
		t.Errorf("the Leave came %v after the match's end (over at %v), want its results shown %v", n.now.Sub(overAt), overAt, drainResults)
	}
	if m := p.c.Metrics(); m.HashMismatches != 0 || m.Resyncs != 0 {
		t.Errorf("%d hash mismatches, %d resyncs", m.HashMismatches, m.Resyncs)
	}
	if !n.server.Drained() {
		t.Error("not drained after the last match")
	}
	if r.match.matchID() != first || r.match.live() {
		t.Errorf("a rematch opened in the drain: match %08x (was %08x), live %v", r.match.matchID(), first, r.match.live())
	}
	st := n.server.Stats()
	if st.MatchesStarted != 1 || st.MatchesFinished != 1 || st.Rejects[proto.RejectDraining] == 0 || st.Handshakes < 2 || !st.Drained {
		t.Errorf("started %d finished %d draining rejects %d handshakes %d drained %v; want 1, 1, ≥1, ≥2, true",
			st.MatchesStarted, st.MatchesFinished, st.Rejects[proto.RejectDraining], st.Handshakes, st.Drained)
	}
	lines := logLines(t, &logBuf)
	for _, want := range []struct {
		msg    string
		fields []string
	}{
		{"player joined", []string{"room", "name", "transport", "addr", "slot", "match"}},
		{"match started", []string{"room", "match", "players", "bots"}},
		{"draining", []string{"rooms"}},
		{"match over", []string{"room", "match", "winner", "duration", "rounds"}},
		{"player left", []string{"room", "name", "transport", "addr", "reason", "after"}},
		{"room drained", []string{"room", "match"}},
	} {
		l := logLine(lines, want.msg)
		if l == nil {
			t.Errorf("no %q line in the log:\n%s", want.msg, logBuf.String())
			continue
		}
		for _, f := range want.fields {
			if _, ok := l[f]; !ok {
				t.Errorf("the %q line lacks %q: %v", want.msg, f, l)
			}
		}
	}
	if l := logLine(lines, "player joined"); l != nil && (l["name"] != "p" || l["transport"] != "udp" || l["addr"] != p.addr.String()) {
		t.Errorf("joined line %v, want p over udp from %v", l, p.addr)
	}
	if l := logLine(lines, "player left"); l != nil && (l["reason"] != "server draining" || l["after"] == "0s") {
		t.Errorf("left line %v, want reason server draining after the match", l)
	}
}

// TestDrainSendsWaitingPlayersAway: a player waiting for a match when
// the drain starts gets the shutdown Leave at once (the match would never
// fill), and the server is drained.
func TestDrainSendsWaitingPlayersAway(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Seed: 3})
	lat := transport.Impairment{Latency: 10 * time.Millisecond}
	w := n.addClient(ClientConfig{Name: "w"}, lat, lat, 1)
	if !n.runUntil(2*time.Second, func() bool { return w.c.Status() == StatusWaiting }) {
		t.Fatalf("not waiting: %v", w.c.Status())
	}
	n.routeFromServer(n.server.Drain(n.now), nil)
	if !n.server.Drained() {
		t.Error("a server whose rooms wait is not drained at once")
	}
	if !n.runUntil(time.Second, func() bool { return w.c.Status() == StatusClosed }) {
		t.Fatalf("the waiting player is still %v", w.c.Status())
	}
	var ended *EndedError
	if !errors.As(w.c.Err(), &ended) || ended.Reason != proto.LeaveShutdown {
		t.Errorf("ended with %v, want a shutdown Leave", w.c.Err())
	}
	if again := n.server.Drain(n.now); len(again) != 0 {
		t.Errorf("a second Drain sent %d datagrams", len(again))
	}
}

// TestTickHistogram: durations land in the first bucket whose bound
// holds them, the rest above every bound.
func TestTickHistogram(t *testing.T) {
	var h tickHistogram
	for _, d := range []time.Duration{0, 50 * time.Microsecond, 51 * time.Microsecond, TickDuration, time.Second} {
		h.observe(d)
	}
	f := h.figures()
	want := map[int]uint64{0: 2, 1: 1, 8: 1, len(TickBuckets): 1}
	for i, c := range f.Counts {
		if c != want[i] {
			t.Errorf("bucket %d: %d, want %d", i, c, want[i])
		}
	}
	if f.Count != 5 || f.Sum != 101*time.Microsecond+TickDuration+time.Second {
		t.Errorf("count %d sum %v", f.Count, f.Sum)
	}
}
