package admin

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ttytanks/netcode"
	"ttytanks/proto"
)

// fakeSource is a Sample whose figures and clock the test sets.
type fakeSource struct {
	mu  sync.Mutex
	f   Figures
	now time.Time
}

func (s *fakeSource) sample() Figures {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f
}

func (s *fakeSource) clock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

func (s *fakeSource) set(f func(f *Figures, now *time.Time)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.f, &s.now)
}

func newTestServer(t *testing.T) (*Server, *fakeSource) {
	t.Helper()
	src := &fakeSource{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s, err := New(Config{Sample: src.sample, Now: src.clock})
	if err != nil {
		t.Fatal(err)
	}
	return s, src
}

// get returns the status and body of a GET of path.
func get(t *testing.T, s *Server, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(b)
}

// TestHealth: before a sample both checks fail; a sample whose ticks grew
// makes the server live and ready; a stale sample, ticks that stop, a
// drain (at once, before any sample says so) or a tick p99 over budget
// each say why in a 503.
func TestHealth(t *testing.T) {
	s, src := newTestServer(t)
	for _, path := range []string{"/livez", "/readyz"} {
		if code, _ := get(t, s, path); code != http.StatusServiceUnavailable {
			t.Errorf("%s before a sample: %d, want 503", path, code)
		}
	}
	tick := func(n uint64) {
		src.set(func(f *Figures, now *time.Time) { f.Server.Ticks += n; *now = now.Add(time.Second) })
		s.Refresh()
	}
	tick(60)
	tick(60)
	steps := []struct {
		name       string
		change     func()
		live, rdy  int
		liveReason string
		rdyReason  string
	}{
		{"ticking", func() {}, 200, 200, "ticking", "ready"},
		{"stale", func() { src.set(func(_ *Figures, now *time.Time) { *now = now.Add(6 * time.Second) }) }, 503, 503, "not answered", "not answered"},
		{"fresh again", func() { tick(60) }, 200, 200, "ticking", "ready"},
		{"ticks stop", func() { tick(0) }, 503, 503, "does not tick", "does not tick"},
		{"ticks again", func() { tick(60) }, 200, 200, "ticking", "ready"},
		{"behind", func() {
			src.set(func(f *Figures, _ *time.Time) { f.Server.TickP99 = 2 * netcode.TickDuration })
			tick(60)
		}, 200, 503, "ticking", "falling behind"},
		{"caught up", func() {
			src.set(func(f *Figures, _ *time.Time) { f.Server.TickP99 = time.Millisecond })
			tick(60)
		}, 200, 200, "ticking", "ready"},
		{"draining", func() { s.SetDraining() }, 200, 503, "ticking", "draining"},
	}
	for _, st := range steps {
		st.change()
		if code, body := get(t, s, "/livez"); code != st.live || !strings.Contains(body, st.liveReason) {
			t.Errorf("%s: /livez %d %q, want %d %q", st.name, code, body, st.live, st.liveReason)
		}
		if code, body := get(t, s, "/readyz"); code != st.rdy || !strings.Contains(body, st.rdyReason) {
			t.Errorf("%s: /readyz %d %q, want %d %q", st.name, code, body, st.rdy, st.rdyReason)
		}
	}
}

// TestScrapeFamilies: a scrape has every family, named with the prefix,
// with the players, spectators and rooms counted by their labels and no
// label that names a player, an address or a room.
func TestScrapeFamilies(t *testing.T) {
	s, src := newTestServer(t)
	if code, _ := get(t, s, "/metrics"); code != http.StatusServiceUnavailable {
		t.Errorf("/metrics before a sample: %d, want 503", code)
	}
	src.set(func(f *Figures, _ *time.Time) {
		st := &f.Server
		st.Ticks = 100
		st.Players = []netcode.PlayerStats{
			{Name: "alice", Addr: "192.0.2.1:4000", Room: "secretroom"},
			{Name: "bob", SSH: true, SSHFrom: "192.0.2.2", Room: "secretroom"},
			{Name: "bot2", Bot: true, Room: "secretroom"},
		}
		st.Rooms = []netcode.RoomStats{
			{RoomInfo: netcode.RoomInfo{Name: "secretroom", State: netcode.RoomPlaying, Spectators: 3}, SpectatorsSSH: 1},
			{RoomInfo: netcode.RoomInfo{Name: "b", State: netcode.RoomWaiting}},
		}
		st.Drops[netcode.DropBadSeal] = 7
		st.Rejects[proto.RejectDraining] = 2
		st.Rejects[proto.RejectBusy] = 6
		st.Idled, st.Slips, st.SkippedTicks = 11, 1, 40
		st.MatchesStarted, st.MatchesFinished, st.Handshakes = 4, 3, 9
		st.TickHist.Counts[0], st.TickHist.Count, st.TickHist.Sum = 5, 5, 100*time.Microsecond
		f.SSHSessions, f.RecordingsWritten, f.RecordingsFailed = 1, 3, 1
	})
	s.Refresh()
	code, body := get(t, s, "/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{
		`ttytanks_players{transport="udp"} 1`, `ttytanks_players{transport="ssh"} 1`, `ttytanks_bots 1`,
		`ttytanks_spectators{transport="udp"} 2`, `ttytanks_spectators{transport="ssh"} 1`,
		`ttytanks_rooms{state="playing"} 1`, `ttytanks_rooms{state="waiting"} 1`, `ttytanks_rooms{state="results"} 0`,
		`ttytanks_draining 0`, `ttytanks_matches_started_total 4`, `ttytanks_matches_finished_total 3`,
		`ttytanks_dropped_datagrams_total{reason="bad-seal"} 7`, `ttytanks_admission_refusals_total{reason="draining"} 2`,
		`ttytanks_handshakes_total 9`, `ttytanks_ssh_sessions 1`, `ttytanks_recordings_written_total 3`,
		`ttytanks_recordings_failed_total 1`, `ttytanks_tick_duration_seconds_bucket{le="5e-05"} 5`,
		`ttytanks_tick_duration_seconds_count 5`, `ttytanks_received_datagrams_total`, `ttytanks_sent_bytes_total`,
		`process_cpu_seconds_total`, `ttytanks_ticks_total 100`, `ttytanks_admission_refusals_total{reason="busy"} 6`,
		`ttytanks_idle_seats_freed_total 11`, `ttytanks_clock_slips_total 1`, `ttytanks_skipped_ticks_total 40`,
	} {
		if !strings.Contains(body, want+"\n") && !strings.Contains(body, want+" ") {
			t.Errorf("the scrape lacks %q", want)
		}
	}
	for _, leak := range []string{"alice", "bob", "secretroom", "192.0.2."} {
		if strings.Contains(body, leak) {
			t.Errorf("the scrape names %q", leak)
		}
	}
}

// TestRefusalReasonsNamed: every Reject reason has its label value.
func TestRefusalReasonsNamed(t *testing.T) {
	for r := proto.RejectVersion; r <= proto.MaxRejectReason; r++ {
		if refusalReasons[r] == "" {
			t.Errorf("%v has no label value", r)
		}
	}
}

// TestScrapeGzip: a scraper that accepts gzip (Prometheus sends
// "Accept-Encoding: gzip") gets the same scrape compressed, one that
// does not, or refuses it with q=0, gets it plain.
func TestScrapeGzip(t *testing.T) {
	s, src := newTestServer(t)
	src.set(func(f *Figures, _ *time.Time) { f.Server.Ticks = 100 })
	s.Refresh()
	plain := func(accept string) (*http.Response, []byte) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		res := rec.Result()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("Accept-Encoding %q: status %d", accept, res.StatusCode)
		}
		if n, err := strconv.Atoi(res.Header.Get("Content-Length")); err != nil || n != len(b) {
			t.Errorf("Accept-Encoding %q: Content-Length %q for %d bytes", accept, res.Header.Get("Content-Length"), len(b))
		}
		return res, b
	}
	_, want := plain("")
	if !strings.Contains(string(want), "ttytanks_ticks_total 100") {
		t.Fatalf("the plain scrape lacks the ticks:\n%s", want)
	}
	for _, accept := range []string{"gzip", "deflate, gzip;q=0.5", "*", "GZIP"} {
		res, b := plain(accept)
		if res.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want gzip", accept, res.Header.Get("Content-Encoding"))
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Accept-Encoding %q: the gzipped scrape differs from the plain one (%v)", accept, err)
		}
		if len(b)*3 > len(want) {
			t.Errorf("gzipped %d bytes of %d", len(b), len(want))
		}
	}
	for _, accept := range []string{"identity", "gzip;q=0", "br, gzip; q=0.0"} {
		if res, b := plain(accept); res.Header.Get("Content-Encoding") != "" || !bytes.Equal(b, want) {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want the plain scrape", accept, res.Header.Get("Content-Encoding"))
		}
	}
}
