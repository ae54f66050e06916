package netcode

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.uber.org/goleak"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// TestDriversOverMemTransport plays a real-time match between a server
// driver and two client drivers over the in-memory transport (with the
// simulator on one client), then shuts everything down; goleak (TestMain)
// proves no goroutine is left behind.
func TestDriversOverMemTransport(t *testing.T) {
	net := transport.NewMemNetwork()
	st := net.Listen()
	srv, err := NewServer(ServerConfig{Players: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	sd := NewServerDriver(srv, st)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sd.Run(ctx) }()

	mk := func(name string, sim bool) *ClientDriver {
		var tr transport.Transport = net.Listen()
		if sim {
			imp := transport.Impairment{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.05}
			tr = transport.NewSimTransport(tr, imp, imp, 9)
		}
		return StartClient(NewClient(ClientConfig{Server: st.LocalAddr(), Name: name,
			LocalInput: func(w *game.World, slot int) game.Input { return scripted(3, slot, w.Tick()) }}), tr)
	}
	a, b := mk("alice", false), mk("bob", true)
	// Wait (by polling the views, bounded) until both predict past tick 120.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var va, vb View
		a.View(&va)
		b.View(&vb)
		if va.Status == StatusPlaying && vb.Status == StatusPlaying && va.Metrics.ServerTick > 120 && vb.Metrics.ServerTick > 120 {
			if va.Names[0] != "alice" && va.Names[1] != "alice" {
				t.Fatalf("roster %q lacks alice", va.Names)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("clients did not get going: %v %v", va.Status, vb.Status)
		}
		time.Sleep(10 * time.Millisecond)
	}
	a.Close()
	select {
	case <-a.Done():
	default:
		t.Fatal("Done not closed after Close")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The server's Leave on shutdown ends b's session.
	select {
	case <-b.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("client b did not see the server leave")
	}
	var vb View
	b.View(&vb)
	if vb.Status != StatusClosed || vb.Message == "" {
		t.Fatalf("b: status %v, message %q", vb.Status, vb.Message)
	}
	b.Close()
}

// TestCloseWaitsForTheLeaveUnlessToldNotTo: Close returns once the server
// has acknowledged the Leave, so the seat is free; with a server that has
// gone (a process stopping with its own server, serve --play on SIGTERM),
// Close waits out its bound while CloseNow returns at once.
func TestCloseWaitsForTheLeaveUnlessToldNotTo(t *testing.T) {
	net := transport.NewMemNetwork()
	st := net.Listen()
	srv, err := NewServer(ServerConfig{Players: 2, Bots: 1, NewBot: func(int, uint64) InputSource { return walker{} }})
	if err != nil {
		t.Fatal(err)
	}
	sd := NewServerDriver(srv, st)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sd.Run(ctx) }()
	playing := func(d *ClientDriver) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			var v View
			d.View(&v)
			if v.Status == StatusPlaying && v.World.Slots > 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("client status %v", v.Status)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	a := StartClient(NewClient(ClientConfig{Server: st.LocalAddr()}), net.Listen())
	playing(a)
	a.Close() // returns once the seat is free
	var need int
	sd.Do(func(s *Server) { need = s.Stats().Need })
	if need != 1 {
		t.Fatalf("after Close the server still needs %d players, want 1 (the seat free)", need)
	}

	b := StartClient(NewClient(ClientConfig{Server: st.LocalAddr()}), net.Listen())
	playing(b)
	_ = st.Close() // the server's socket goes, without a word: nobody will acknowledge a Leave
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	cancel()
	closed := make(chan struct{})
	go func() { b.CloseNow(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(leaveFor / 2):
		t.Fatalf("CloseNow still waiting after %v for an acknowledgement that cannot come", leaveFor/2)
	}
	if !errors.Is(b.Err(), ErrQuit) {
		t.Fatalf("the client ended with %v, want ErrQuit (it should have sent its Leave)", b.Err())
	}
}
