package sshterm

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
)

// watchedClient is what a test sees of one seated game client a session
// started: the newest tick it predicted and the newest State it took,
// each with a token when it moves.
type watchedClient struct {
	predicted, stated atomic.Int64
	moved             chan struct{}
}

// until waits, for at most d, until cond holds, checking it each time
// the client predicts a tick or takes a State.
func (w *watchedClient) until(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(d)
	for !cond() {
		select {
		case <-w.moved:
		case <-deadline:
			t.Fatalf("no %s after %v (predicted tick %d, newest State %d)", what, d, w.predicted.Load(), w.stated.Load())
		}
	}
}

// watchClients makes g report every seated game client its sessions
// start, with its driver once it runs.
func watchClients(g *Game) (started <-chan *watchedClient, drivers func() []*netcode.ClientDriver) {
	ch := make(chan *watchedClient, 16)
	g.tweak = func(c *netcode.ClientConfig) {
		if c.Spectate || c.Room.Kind == netcode.RoomLobby {
			return
		}
		w := &watchedClient{moved: make(chan struct{}, 1)}
		poke := func() {
			select {
			case w.moved <- struct{}{}:
			default:
			}
		}
		c.OnPredict = func(s *game.Snapshot) { w.predicted.Store(int64(s.Tick)); poke() }
		c.OnState = func(tick game.Tick) { w.stated.Store(int64(tick)); poke() }
		ch <- w
	}
	var mu sync.Mutex
	var all []*netcode.ClientDriver
	g.onClient = func(d *netcode.ClientDriver) {
		mu.Lock()
		all = append(all, d)
		mu.Unlock()
	}
	return ch, func() []*netcode.ClientDriver {
		mu.Lock()
		defer mu.Unlock()
		return append([]*netcode.ClientDriver(nil), all...)
	}
}

// TestNoResyncThroughStall: an SSH session's client, with its short
// history (clientHistory), never resyncs: not in play, and not when the
// game server stalls for 100 ticks (1.7 s; a long pause or a starved
// core) while the client predicts on, which leaves it that far ahead and
// makes it replay about as many ticks when the States come again.
func TestNoResyncThroughStall(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a match for several seconds")
	}
	r := newPlayRig(t, 2, nil)
	started, drivers := watchClients(r.game)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		stop()
		wg.Wait()
	}()
	for i, name := range []string{"ann", "bob"} {
		s := newFakeSession(name, 80, 24)
		wg.Add(2)
		go func() {
			defer wg.Done()
			s.play(ctx, uint64(i+1))
		}()
		go func() {
			defer wg.Done()
			r.game.Play(context.Background(), s)
		}()
	}
	var w *watchedClient
	select {
	case w = <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("no game client after 10 s")
	}

	// Play for two seconds.
	w.until(t, 10*time.Second, "first State", func() bool { return w.stated.Load() > 0 })
	from := w.stated.Load()
	w.until(t, 10*time.Second, "2 s of States", func() bool { return w.stated.Load() >= from+120 })

	// Stall the game server for 100 of the client's ticks.
	frozen, thaw := make(chan struct{}), make(chan struct{})
	go r.sd.Do(func(*netcode.Server) {
		close(frozen)
		<-thaw
	})
	<-frozen
	at := w.predicted.Load()
	w.until(t, 10*time.Second, "100 ticks predicted during the stall", func() bool { return w.predicted.Load() >= at+100 })
	last := w.stated.Load()
	close(thaw)
	w.until(t, 10*time.Second, "State after the stall", func() bool { return w.stated.Load() > last })

	// Play for two seconds more.
	from = w.stated.Load()
	w.until(t, 10*time.Second, "2 s of States after the stall", func() bool { return w.stated.Load() >= from+120 })

	ds := drivers()
	if len(ds) == 0 {
		t.Fatal("no client driver seen")
	}
	for _, d := range ds {
		var m netcode.Metrics
		d.Do(func(c *netcode.Client) { m = c.Metrics() })
		if m.Resyncs != 0 {
			t.Errorf("client resynced %d times (history %d ticks, longest replay %d)", m.Resyncs, clientHistory, m.ReplayMax)
		}
		if d.Err() == nil && m.ReplayMax < 80 {
			t.Errorf("longest replay %d ticks: the stall should have left the client about 100 ahead", m.ReplayMax)
		}
	}
}
