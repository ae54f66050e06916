package tests

import (
	"context"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// serveUDP runs a server with cfg over real UDP on 127.0.0.1 until the
// test ends, and returns its driver and address.
func serveUDP(t *testing.T, cfg netcode.ServerConfig) (*netcode.ServerDriver, netip.AddrPort) {
	t.Helper()
	st, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := netcode.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sd := netcode.NewServerDriver(srv, st)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sd.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return sd, st.LocalAddr()
}

// TestUDPLoopbackMatch: a server and two clients over real UDP on
// 127.0.0.1 and the real handshake play 10 s of scripted inputs (3 s
// under -short), then go neutral; the clients' worlds then hash equal to
// the server's at the same tick, with no hash mismatch on the way.
func TestUDPLoopbackMatch(t *testing.T) {
	sd, saddr := serveUDP(t, netcode.ServerConfig{Players: 2, Seed: 11})

	var neutral atomic.Bool
	script := func(w *game.World, slot int) game.Input {
		if neutral.Load() {
			return game.Input{}
		}
		t := w.Tick()
		r := game.RNG{State: uint64(slot+1)*0x9e3779b97f4a7c15 ^ uint64(uint32(t)/40)}
		d := r.Intn(9)
		in := game.Input{MoveX: int8(d%3 - 1), MoveY: int8(d/3 - 1)}
		if uint32(t)%23 == uint32(slot) {
			in.Buttons = game.ButtonFire
		}
		return in
	}
	var clients []*netcode.ClientDriver
	for i := 0; i < 2; i++ {
		ct, err := transport.ListenUDP("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		c := netcode.NewClient(netcode.ClientConfig{Server: saddr, Name: "udp", LocalInput: script})
		clients = append(clients, netcode.StartClient(c, ct))
	}
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	// Scripted play: 10 s (3 under -short) after the match starts.
	play := 10 * time.Second
	if testing.Short() {
		play = 3 * time.Second
	}
	start := waitFor(t, 5*time.Second, "the match to start", func() bool {
		var running bool
		sd.Do(func(s *netcode.Server) { running = s.Running() })
		return running
	})
	time.Sleep(play - time.Since(start)) // real-time play; not synchronisation
	neutral.Store(true)
	// Once every input is neutral and has landed, each client's world at
	// the server's tick must hash equal to the server's: wait (bounded) for
	// it, then check it holds.
	var tick game.Tick
	var hash uint64
	equal := func() bool {
		sd.Do(func(s *netcode.Server) { tick, hash = s.World().Tick(), s.World().Hash() })
		for _, c := range clients {
			same := false
			c.Do(func(cl *netcode.Client) {
				snap, ok := cl.SnapshotAt(tick)
				same = ok && game.Hash(&snap) == hash
			})
			if !same {
				return false
			}
		}
		return true
	}
	waitFor(t, 5*time.Second, "the clients' worlds to hash equal to the server's", equal)
	for i, c := range clients {
		c.Do(func(cl *netcode.Client) {
			m := cl.Metrics()
			t.Logf("client %d: tick %d, rollbacks %d, RTT %v, mismatches %d, resyncs %d", i, m.LocalTick, m.Rollbacks, m.RTT, m.HashMismatches, m.Resyncs)
			if m.HashMismatches != 0 {
				t.Errorf("client %d saw %d hash mismatches", i, m.HashMismatches)
			}
		})
	}
	t.Logf("equal hashes at server tick %d: %016x", tick, hash)
}
