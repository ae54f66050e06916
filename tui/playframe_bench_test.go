package tui

import (
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode"
)

// discardTty is a terminal that takes every byte and never types: a
// screen on it costs what an SSH session's screen costs the server, less
// the SSH write itself.
type discardTty struct {
	mu     sync.Mutex
	w, h   int
	bytes  int64
	closed chan struct{}
}

func (t *discardTty) Start() error               { return nil }
func (t *discardTty) Stop() error                { return nil }
func (t *discardTty) Drain() error               { return nil }
func (t *discardTty) NotifyResize(func())        {}
func (t *discardTty) Close() error               { return nil }
func (t *discardTty) Read(p []byte) (int, error) { <-t.closed; return 0, nil }
func (t *discardTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: t.w, Height: t.h}, nil
}
func (t *discardTty) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.bytes += int64(len(p))
	t.mu.Unlock()
	return len(p), nil
}

// benchPlayFrames draws frames of a four-bot match in the default maze on
// an xterm-256color screen of w×h at fps, as an SSH session does: 60/fps
// ticks pass between frames, the sidebar's figures change. It reports the
// bytes written per frame.
func benchPlayFrames(b *testing.B, w, h, fps int) {
	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		b.Fatal(err)
	}
	tty := &discardTty{w: w, h: h, closed: make(chan struct{})}
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		b.Fatal(err)
	}
	if err := scr.Init(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { close(tty.closed); scr.Fini() })
	world, err := game.NewWorld(game.Config{Slots: 4, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	bots := make([]*bot.Bot, 4)
	for i := range bots {
		bots[i] = bot.New(uint64(i + 1))
	}
	v := &netcode.View{Status: netcode.StatusPlaying, Slot: 0}
	for i, n := range [...]string{"alice", "bob", "carol", "dave"} {
		v.Names[i], v.Connected[i] = n, true
	}
	// The match is played first (the bots' thinking is not a frame's cost):
	// a minute of frames, drawn in a loop.
	type frame struct {
		world game.Snapshot
		maze  *game.Maze
	}
	frames := make([]frame, 60*fps)
	in := make([]game.Input, 4)
	var maze *game.Maze
	for k := range frames {
		for range 60 / fps {
			st := world.State()
			for i := range in {
				in[i] = bots[i].Input(st, world.Maze(), i)
			}
			world.Step(in)
		}
		if maze == nil || maze.Seed != world.Maze().Seed {
			m := *world.Maze()
			maze = &m
		}
		world.Save(&frames[k].world)
		frames[k].maze = maze
	}
	show := func(k int) {
		f := &frames[k%len(frames)]
		v.World, v.Maze = f.world, *f.maze
		m := &v.Metrics
		m.LocalTick = v.World.Tick
		m.ServerTick = v.World.Tick - 4
		m.RTT = time.Duration(20+v.World.Tick%7) * time.Millisecond
		m.RTTSpark[v.World.Tick%netcode.SparkLen] = float64(m.RTT)
		m.RTTSparkN = min(m.RTTSparkN+1, netcode.SparkLen)
		m.ReplayCostLast = time.Duration(v.World.Tick%50) * time.Microsecond
	}
	r := NewRenderer(scr, Options{FPS: fps})
	now := time.Unix(0, 0)
	for k := range 10 * fps { // into the match, the sidebar's sparklines full
		show(k)
		now = now.Add(time.Second / time.Duration(fps))
		r.DrawAt(v, now)
	}
	tty.mu.Lock()
	tty.bytes = 0
	tty.mu.Unlock()
	b.ReportAllocs()
	b.ResetTimer()
	for k := 0; b.Loop(); k++ {
		show(10*fps + k)
		now = now.Add(time.Second / time.Duration(fps))
		r.DrawAt(v, now)
	}
	b.StopTimer()
	tty.mu.Lock()
	b.ReportMetric(float64(tty.bytes)/float64(b.N), "B/frame")
	tty.mu.Unlock()
}

// BenchmarkPlayFrame80x24 and BenchmarkPlayFrame120x40 are a frame of a
// four-bot match at 30 fps, as an SSH player's screen costs the server,
// less the SSH write.
func BenchmarkPlayFrame80x24(b *testing.B)  { benchPlayFrames(b, 80, 24, 30) }
func BenchmarkPlayFrame120x40(b *testing.B) { benchPlayFrames(b, 120, 40, 30) }
