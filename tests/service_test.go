package tests

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The binary run as a service: serve --admin's metrics and health, the
// drain on SIGTERM, the log of who came and went.

// adminListeningRE finds the address in serve --admin's log line.
var adminListeningRE = regexp.MustCompile(`msg="admin listening" addr=(\S+)`)

// adminAddr returns the address serve --admin logged it listens on.
func (s *binServer) adminAddr(t *testing.T) string {
	t.Helper()
	return s.stderr.Await(t, 10*time.Second, s.exited, "serve --admin to log where it listens", adminListeningRE)[1]
}

// httpGet returns the status and body of GET url.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, string(b)
}

// scrape is one /metrics scrape: each series' value by its name and
// labels as written ("ttytanks_players{transport=\"udp\"}"), and each
// family's type.
type scrape struct {
	text   string
	values map[string]float64
	types  map[string]string
}

// scrapeMetrics scrapes http://addr/metrics.
func scrapeMetrics(t *testing.T, addr string) scrape {
	t.Helper()
	code, body := httpGet(t, "http://"+addr+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", code, body)
	}
	s := scrape{text: body, values: map[string]float64{}, types: map[string]string{}}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if f := strings.Fields(line); len(f) == 4 && f[0] == "#" && f[1] == "TYPE" {
			s.types[f[2]] = f[3]
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if i < 0 || err != nil {
			t.Fatalf("scrape line %q", line)
		}
		s.values[line[:i]] = v
	}
	return s
}

// family returns the family a series belongs to (a histogram's _bucket,
// _sum and _count belong to it).
func (s *scrape) family(series string) string {
	name, _, _ := strings.Cut(series, "{")
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if base := strings.TrimSuffix(name, suffix); base != name && s.types[base] == "histogram" {
			return base
		}
	}
	return name
}

// theFamilies are the families serve --admin must serve.
var theFamilies = []string{
	"ttytanks_players", "ttytanks_spectators", "ttytanks_bots", "ttytanks_rooms", "ttytanks_draining",
	"ttytanks_matches_started_total", "ttytanks_matches_finished_total", "ttytanks_tick_duration_seconds",
	"ttytanks_received_datagrams_total", "ttytanks_sent_datagrams_total", "ttytanks_received_bytes_total",
	"ttytanks_sent_bytes_total", "ttytanks_dropped_datagrams_total", "ttytanks_handshakes_total",
	"ttytanks_admission_refusals_total", "ttytanks_ssh_sessions", "ttytanks_recordings_written_total",
	"ttytanks_recordings_failed_total", "ttytanks_connections", "ttytanks_ticks_total",
	"process_cpu_seconds_total", "process_resident_memory_bytes", "go_goroutines",
}

// TestMetricsDuringAMatch: scrapes of serve --admin during a match have
// every family, count the player and the playing room, and their
// counters only grow from one scrape to the next; promtool (Debian's
// prometheus package) finds nothing to say about a scrape; /livez and
// /readyz are 200.
func TestMetricsDuringAMatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2", "--bots", "1", "--admin", "127.0.0.1:0")
	admin := srv.adminAddr(t)
	srv.headless(t, ctx, "alice", "--bot", "--duration", "60s")
	var first scrape
	waitFor(t, 20*time.Second, "a playing room in the metrics", func() bool {
		first = scrapeMetrics(t, admin)
		return first.values[`ttytanks_rooms{state="playing"}`] == 1
	})
	var second scrape
	waitFor(t, 10*time.Second, "a newer sample", func() bool {
		second = scrapeMetrics(t, admin)
		return second.values["ttytanks_ticks_total"] > first.values["ttytanks_ticks_total"]
	})
	for _, f := range theFamilies {
		if second.types[f] == "" {
			t.Errorf("family %s missing", f)
		}
	}
	for series, want := range map[string]float64{
		`ttytanks_players{transport="udp"}`: 1, `ttytanks_players{transport="ssh"}`: 0, "ttytanks_bots": 1,
		"ttytanks_draining": 0, "ttytanks_matches_started_total": 1, "ttytanks_handshakes_total": 1,
	} {
		if got, ok := second.values[series]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", series, got, ok, want)
		}
	}
	grew := 0
	for series, v := range first.values {
		fam := first.family(series)
		if first.types[fam] != "counter" && first.types[fam] != "histogram" {
			continue
		}
		after, ok := second.values[series]
		switch {
		case !ok:
			t.Errorf("counter series %s gone in the second scrape", series)
		case after < v:
			t.Errorf("counter %s went down: %v → %v", series, v, after)
		case after > v:
			grew++
		}
	}
	if grew == 0 {
		t.Error("no counter grew between the scrapes")
	}
	promtool(t, second.text)
	for _, path := range []string{"/livez", "/readyz"} {
		if code, body := httpGet(t, "http://"+admin+path); code != http.StatusOK {
			t.Errorf("%s: %d %s", path, code, body)
		}
	}
}

// promtool runs promtool check metrics on a scrape and fails the test on
// anything it says.
func promtool(t *testing.T, text string) {
	t.Helper()
	path, err := execLookPath("promtool")
	if err != nil {
		t.Fatalf("promtool is not installed (Debian's prometheus package has it; .ci/run installs it): %v", err)
	}
	out, err := runWithInput(path, text, "check", "metrics")
	if err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// TestServeDrainsOnSIGTERM: SIGTERM during a match of network bots makes
// /readyz 503 within 100 ms; a new player is told the server restarts;
// the match plays on to its results with no hash mismatch; its player is
// then sent away, and serve exits 0 by itself. The log tells the drain.
func TestServeDrainsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: a whole match; runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2", "--rounds", "1", "--maze", "15x11", "--admin", "127.0.0.1:0")
	admin := srv.adminAddr(t)
	a := srv.headless(t, ctx, "alice", "--bot", "--duration", "3m")
	b := srv.headless(t, ctx, "bob", "--bot", "--duration", "3m")
	srv.stderr.Await(t, 20*time.Second, srv.exited, "the match to start", regexp.MustCompile(`msg="match started"`))
	sent := time.Now()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var code int
	for code != http.StatusServiceUnavailable && time.Since(sent) < 100*time.Millisecond {
		code, _ = httpGet(t, "http://"+admin+"/readyz")
	}
	if took := time.Since(sent); code != http.StatusServiceUnavailable {
		t.Fatalf("/readyz still %d %v after SIGTERM", code, took)
	} else {
		t.Logf("/readyz 503 %v after SIGTERM", took.Round(time.Microsecond))
	}
	srv.stderr.Await(t, 5*time.Second, srv.exited, "the drain to start", regexp.MustCompile(`msg="drain started"`))
	refused, _, errText := runBin(t, "join", srv.addr, "--headless", "--duration", "5s", "--name", "late")
	if refused != 1 || !strings.Contains(errText, "this server is restarting, try again in a minute") {
		t.Errorf("a newcomer during the drain: exit %d, said %q; want 1 and the restart message", refused, errText)
	}
	select {
	case <-srv.exited:
	case <-time.After(3 * time.Minute):
		t.Fatal("serve did not exit by itself after the last match")
	}
	if srv.err != nil {
		t.Errorf("serve exited with %v, want 0", srv.err)
	}
	for _, j := range []*joinProc{a, b} {
		_ = j.wait()
		st, raw, err := j.stats()
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		if st.MatchesEnded < 1 || st.HashMismatches != 0 || !strings.Contains(st.Message, "shutting down") {
			t.Errorf("%s: %d matches ended, %d hash mismatches, message %q; want the match to its end, 0, told of the shutdown\n%s",
				j.name, st.MatchesEnded, st.HashMismatches, st.Message, raw)
		}
	}
	log := srv.stderr.String()
	for _, re := range []string{`msg="match over" room=a match=\d+ winner=\S+ duration=\S+`, `msg="room drained" room=a`, `msg=drained after=\S+`,
		`msg="player left" room=a name=(alice|bob) transport=udp addr=127\.0\.0\.1:\d+ reason="server draining" after=\S+`} {
		if !regexp.MustCompile(re).MatchString(log) {
			t.Errorf("the log has no line like %s", re)
		}
	}
}

// TestServeDrainTimesOut: with a short --drain-timeout, a match that
// would go on for ever (no round limit) is cut at the timeout: serve
// exits 0 then, and its player is told the server shuts down.
func TestServeDrainTimesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2", "--bots", "1", "--rounds", "0", "--drain-timeout", "2s")
	cl := srv.headless(t, ctx, "alice", "--bot", "--duration", "50s")
	srv.stderr.Await(t, 20*time.Second, srv.exited, "the match to start", regexp.MustCompile(`msg="match started"`))
	took, err := srv.stop(t, syscall.SIGTERM, 15*time.Second)
	if err != nil {
		t.Fatalf("serve exited with %v after the drain's timeout", err)
	}
	if took < 2*time.Second {
		t.Errorf("serve exited %v after SIGTERM, before the 2 s drain timeout", took)
	}
	t.Logf("SIGTERM to exit: %v", took.Round(time.Millisecond))
	_ = cl.wait()
	st, raw, err := cl.stats()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Message, "shutting down") {
		t.Errorf("the player was told %q, want the shutdown\n%s", st.Message, raw)
	}
	if !strings.Contains(srv.stderr.String(), `msg="drain timed out"`) {
		t.Error("the log does not say the drain timed out")
	}
}

// TestServeLogsWhoCameAndWent: serve's log off a terminal has a line for
// the player who joined (name, transport, address, room), for the match
// that started, and for the player who left (why, after how long).
func TestServeLogsWhoCameAndWent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2", "--bots", "1")
	cl := srv.headless(t, ctx, "alice", "--bot", "--duration", "2s")
	_ = cl.result(t)
	for _, re := range []string{
		`msg="player joined" room=a name=alice transport=udp addr=127\.0\.0\.1:\d+ slot=0 match=\d+`,
		`msg="match started" room=a match=\d+ players=1 bots=1 seats=2`,
		`msg="player left" room=a name=alice transport=udp addr=127\.0\.0\.1:\d+ reason=quit after=\d`,
	} {
		srv.stderr.Await(t, 5*time.Second, srv.exited, "a log line like "+re, regexp.MustCompile(re))
	}
}

// TestPrometheusScrapesTheServer: a real Prometheus (Debian's package),
// on a port of its own choosing with its data in the test's directory,
// scrapes serve --admin and answers a query for ttytanks_players with the
// one player seated.
func TestPrometheusScrapesTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := serveBin(t, ctx, "127.0.0.1:0", "--players", "2", "--admin", "127.0.0.1:0")
	admin := srv.adminAddr(t)
	srv.headless(t, ctx, "alice", "--duration", "60s")
	prom := startPrometheus(t, ctx, admin)
	query := "http://" + prom + `/api/v1/query?query=ttytanks_players%7Btransport%3D%22udp%22%7D`
	var last string
	waitFor(t, 45*time.Second, "Prometheus to have scraped ttytanks_players = 1", func() bool {
		_, last = httpGet(t, query)
		return regexp.MustCompile(`"value":\[[0-9.]+,"1"\]`).MatchString(last)
	})
	t.Logf("Prometheus says %s", last)
}

// prometheusListeningRE finds the address in Prometheus's log line.
var prometheusListeningRE = regexp.MustCompile(`msg="Listening on" address=(\S+)`)

// startPrometheus starts Prometheus scraping target every 200 ms, with
// its configuration and data in the test's temp dir, on a port it picks
// (its log says which); it returns its address.
func startPrometheus(t *testing.T, ctx context.Context, target string) string {
	t.Helper()
	path, err := execLookPath("prometheus")
	if err != nil {
		t.Fatalf("prometheus is not installed (Debian's prometheus package; .ci/run installs it): %v", err)
	}
	dir := t.TempDir()
	conf := dir + "/prometheus.yml"
	yml := fmt.Sprintf("global:\n  scrape_interval: 200ms\n  scrape_timeout: 150ms\nscrape_configs:\n  - job_name: ttytanks\n    static_configs:\n      - targets: [%q]\n", target)
	if err := os.WriteFile(conf, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startCommand(t, ctx, path, "--config.file="+conf, "--storage.tsdb.path="+dir+"/data",
		"--web.listen-address=127.0.0.1:0", "--log.level=info")
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
		}
		if t.Failed() {
			t.Logf("prometheus log:\n%s", p.stderr.String())
		}
	})
	return p.stderr.Await(t, 20*time.Second, p.exited, "Prometheus to say where it listens", prometheusListeningRE)[1]
}

// execLookPath finds a program on PATH.
func execLookPath(name string) (string, error) { return exec.LookPath(name) }

// runWithInput runs path with args and stdin in, and returns its output
// (stdout and stderr together).
func runWithInput(path, in string, args ...string) (string, error) {
	c := exec.Command(path, args...)
	c.Stdin = strings.NewReader(in)
	out, err := c.CombinedOutput()
	return string(out), err
}

// startCommand starts the program at path with args, keeping its
// stderr; ctx's end kills it, and so does the end of the test if it
// still runs.
func startCommand(t *testing.T, ctx context.Context, path string, args ...string) *binProc {
	t.Helper()
	p := &binProc{cmd: exec.CommandContext(ctx, path, args...), exited: make(chan struct{})}
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
	return p
}
