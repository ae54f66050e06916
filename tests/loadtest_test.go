package tests

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// loadReport is the part of loadtest --json this test reads.
type loadReport struct {
	Clients        int            `json:"clients"`
	Connected      int            `json:"connected"`
	PlayingAtEnd   int            `json:"playing_at_end"`
	StatesReceived int64          `json:"states_received"`
	StatesExpected int64          `json:"states_expected"`
	TicksPlayed    int64          `json:"ticks_played"`
	HashMismatches uint64         `json:"hash_mismatches"`
	RTTP50ms       float64        `json:"rtt_p50_ms"`
	Errors         map[string]int `json:"errors"`
	LoadCPUPerS    float64        `json:"loadgen_cpu_per_s"`
	LoadCores      int            `json:"loadgen_cores"`
	LoadDeadlines  uint64         `json:"loadgen_deadlines"`
	LoadLateP99ms  *float64       `json:"loadgen_late_p99_ms"`
	LoadBound      *bool          `json:"loadgen_bound"`
	Server         *struct {
		CPUPerS          float64 `json:"cpu_per_s"`
		DatagramsInPerS  float64 `json:"datagrams_in_per_s"`
		DatagramsOutPerS float64 `json:"datagrams_out_per_s"`
		Players          int     `json:"players"`
		Rooms            int     `json:"rooms"`
		TickP99us        float64 `json:"tick_p99_us"`
	} `json:"server_load"`
}

// TestLoadtest runs the built binary's loadtest against its serve: 50
// predicting clients from many loopback addresses, in 4-seat rooms, for a
// few seconds — every client connected, no error, no hash mismatch, the
// States arrive, the generator's own figures are there, and the server's
// (read from its --stats-every file) count the players and their
// datagrams.
func TestLoadtest(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := startServe(t, ctx, "--players", "4", "--max-rooms", "32", "--stats-every", "500ms")
	out := filepath.Join(t.TempDir(), "load.json")
	cmd := exec.CommandContext(ctx, binary(t), "loadtest", srv.addr, "--clients", "50", "--ramp", "100", "--duration", "6s",
		"--predict", "--json", out, "--server-stats", srv.stats)
	text, err := cmd.CombinedOutput()
	t.Logf("loadtest:\n%s", text)
	if err != nil {
		t.Fatalf("loadtest: %v", err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r loadReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Clients != 50 || r.Connected != 50 || r.PlayingAtEnd != 50 {
		t.Errorf("%d clients, %d connected, %d playing at the end; want 50 each", r.Clients, r.Connected, r.PlayingAtEnd)
	}
	if len(r.Errors) != 0 || r.HashMismatches != 0 {
		t.Errorf("errors %v, %d hash mismatches", r.Errors, r.HashMismatches)
	}
	// Over loopback nearly every State arrives; 50 clients play for ~5 s.
	if r.StatesExpected < 50*100 || r.StatesReceived*100 < r.StatesExpected*95 {
		t.Errorf("%d of %d States received", r.StatesReceived, r.StatesExpected)
	}
	if r.TicksPlayed < 50*200 || r.RTTP50ms <= 0 || r.LoadCPUPerS <= 0 {
		t.Errorf("%d ticks played, RTT p50 %.2f ms, load generator CPU %.3f", r.TicksPlayed, r.RTTP50ms, r.LoadCPUPerS)
	}
	// The report says how late the generator ran its clients' deadlines
	// and whether it was the bound (which one depends on the machine).
	if r.LoadCores < 1 || r.LoadDeadlines < uint64(r.TicksPlayed)/2 || r.LoadLateP99ms == nil || r.LoadBound == nil {
		t.Errorf("load generator: %d cores, %d deadlines run, late p99 %v, bound %v", r.LoadCores, r.LoadDeadlines, r.LoadLateP99ms, r.LoadBound)
	}
	s := r.Server
	if s == nil {
		t.Fatal("the report holds no server figures")
	}
	// 50 clients each send an Input every second tick (more while their
	// keys change: on loopback nothing is lost, PROTOCOL.md §4) and get a
	// State every other tick.
	if s.Players < 50 || s.Rooms < 13 || s.CPUPerS <= 0 || s.DatagramsInPerS < 50*25 || s.DatagramsOutPerS < 50*20 || s.TickP99us <= 0 {
		t.Errorf("server figures %+v", *s)
	}
}

// sshLoadReport is the part of loadtest --ssh --json this test reads.
type sshLoadReport struct {
	Sessions      int            `json:"sessions"`
	Size          string         `json:"size"`
	Connected     int            `json:"connected"`
	InGame        int            `json:"in_game"`
	BytesPerS     float64        `json:"bytes_per_s_per_session"`
	KeysSent      int64          `json:"keys_sent"`
	Errors        map[string]int `json:"errors"`
	LoadCPUPerS   float64        `json:"loadgen_cpu_per_s"`
	ServerPerSess float64        `json:"server_cpu_per_session"`
	ServerLoad    *struct {
		CPUPerS float64 `json:"cpu_per_s"`
		Players int     `json:"players"`
	} `json:"server_load"`
}

// TestLoadtestSSH runs loadtest --ssh against the built binary's serve
// --ssh: six real SSH sessions with 80x24 PTYs from several loopback
// addresses each reach a game through the lobby and stream its screen,
// with no error, and the report divides the server's CPU by the sessions.
func TestLoadtestSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv := startServe(t, ctx, "--ssh", "127.0.0.1:0", "--ssh-host-key", filepath.Join(dir, "host_key"), "--players", "4",
		"--stats-every", "500ms")
	out := filepath.Join(dir, "load.json")
	text, err := exec.CommandContext(ctx, binary(t), "loadtest", "--ssh", srv.sshAddr(t), "--clients", "6", "--ramp", "20",
		"--duration", "6s", "--size", "80x24", "--per-addr", "2", "--json", out, "--server-stats", srv.stats).CombinedOutput()
	t.Logf("loadtest --ssh:\n%s", text)
	if err != nil {
		t.Fatalf("loadtest --ssh: %v", err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r sshLoadReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Sessions != 6 || r.Connected != 6 || r.InGame != 6 || r.Size != "80x24" {
		t.Errorf("%d sessions at %s, %d connected, %d in a game; want 6 each at 80x24", r.Sessions, r.Size, r.Connected, r.InGame)
	}
	if len(r.Errors) != 0 {
		t.Errorf("errors %v", r.Errors)
	}
	// A game screen streams at least a few hundred bytes a second, and the
	// sessions steer once they play.
	if r.BytesPerS < 500 || r.KeysSent < 6*10 || r.LoadCPUPerS <= 0 {
		t.Errorf("%.0f B/s per session, %d keys sent, load generator CPU %.3f", r.BytesPerS, r.KeysSent, r.LoadCPUPerS)
	}
	if r.ServerLoad == nil || r.ServerLoad.CPUPerS <= 0 || r.ServerPerSess <= 0 || r.ServerPerSess > r.ServerLoad.CPUPerS {
		t.Errorf("server figures %+v, %.4f per session", r.ServerLoad, r.ServerPerSess)
	}
}
