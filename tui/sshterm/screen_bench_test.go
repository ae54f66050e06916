package sshterm

import (
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode"
	"ttytanks/tui"
)

// countingWriter counts the bytes written to it and keeps none.
type countingWriter struct{ n atomic.Int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return len(p), nil
}

// benchSessionFrames draws frames of a four-bot match at 30 fps on a w×h
// session screen (a streamScreen, or tcell's screen when tcellScreen) on
// a ChannelTty whose channel discards the output, as a session's frames
// cost the server less the SSH write: 2 ticks between frames, the
// sidebar's figures changing. It reports the bytes written per frame.
func benchSessionFrames(b *testing.B, w, h int, tcellScreen bool) {
	out := &countingWriter{}
	kr, kw := io.Pipe()
	defer kw.Close()
	tty := NewChannelTty(pipeChannel{Reader: kr, Writer: out}, w, h)
	go tty.Pump()
	defer tty.Close()
	_, ti := lookupTerm("xterm-256color")
	var scr tcell.Screen
	var err error
	if tcellScreen {
		scr, err = tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	} else {
		scr, err = newStreamScreen(tty, ti)
	}
	if err != nil {
		b.Fatal(err)
	}
	if err := scr.Init(); err != nil {
		b.Fatal(err)
	}
	defer scr.Fini()
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
	const fps = 30
	type frame struct {
		world game.Snapshot
		maze  *game.Maze
	}
	frames := make([]frame, 60*fps) // a minute of play, drawn in a loop
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
	}
	r := tui.NewRenderer(scr, tui.Options{FPS: fps})
	now := time.Unix(0, 0)
	for k := range 10 * fps {
		show(k)
		now = now.Add(time.Second / fps)
		r.DrawAt(v, now)
	}
	before := out.n.Load()
	b.ReportAllocs()
	b.ResetTimer()
	for k := 0; b.Loop(); k++ {
		show(10*fps + k)
		now = now.Add(time.Second / fps)
		r.DrawAt(v, now)
	}
	b.StopTimer()
	b.ReportMetric(float64(out.n.Load()-before)/float64(b.N), "B/frame")
}

// BenchmarkSessionFrame80x24 is a frame of an SSH session at 80x24 (a
// streamScreen), BenchmarkSessionFrameTcell80x24 the same frames on
// tcell's screen, as sessions drew them before.
func BenchmarkSessionFrame80x24(b *testing.B)      { benchSessionFrames(b, 80, 24, false) }
func BenchmarkSessionFrameTcell80x24(b *testing.B) { benchSessionFrames(b, 80, 24, true) }

// BenchmarkSessionFrame120x40 and BenchmarkSessionFrameTcell120x40: the
// same at 120x40.
func BenchmarkSessionFrame120x40(b *testing.B)      { benchSessionFrames(b, 120, 40, false) }
func BenchmarkSessionFrameTcell120x40(b *testing.B) { benchSessionFrames(b, 120, 40, true) }
