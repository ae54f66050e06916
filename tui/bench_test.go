package tui

import (
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
)

// bigView is the heaviest frame the game can produce: the largest maze,
// eight tanks, every bullet slot in flight and full sparklines.
func bigView(b testing.TB) *netcode.View {
	v := &netcode.View{Status: netcode.StatusPlaying, Slot: 3}
	v.Maze.Generate(42, game.MaxMazeW, game.MaxMazeH)
	w := &v.World
	w.Slots = game.MaxPlayers
	w.Round = game.Round{Number: 12, Timer: 4000, Winner: -1, MazeW: game.MaxMazeW, MazeH: game.MaxMazeH}
	names := [...]string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"}
	for i := range game.MaxPlayers {
		v.Names[i], v.Connected[i] = names[i], true
		x, y := at(1+2*(i*3%31), 1+2*(i%15))
		w.Tanks[i] = game.Tank{X: x, Y: y, AimX: int8(i%3 - 1), AimY: 1, HP: int8(1 + i%3), Alive: i != 5, Seated: true, Score: uint16(i)}
	}
	w.NumBullets = game.MaxBullets
	for i := range game.MaxBullets {
		x, y := at(1+i%61, 1+i%29)
		w.Bullets[i] = game.Bullet{X: x, Y: y, Owner: uint8(i % game.MaxPlayers), Life: 10}
	}
	m := &v.Metrics
	*m = netcode.Metrics{LocalTick: 99999, ServerTick: 99990, Rollbacks: 123456, ReplayLast: 8, ReplayMax: 40,
		ReplayCostLast: 50 * time.Microsecond, ReplayCostP95: 90 * time.Microsecond, ReplayCostP99: 140 * time.Microsecond,
		RTT: 87 * time.Millisecond, InputLead: 7, ArrivalMargin: -3 * time.Millisecond, LossUp: 0.05, LossDown: 0.01, LossUpMeasured: true, LossDownMeasured: true,
		StateDelay: 5, HashMismatches: 1, Resyncs: 1, BytesUpPerSec: 2900, BytesDownPerSec: 5900,
		RTTSparkN: netcode.SparkLen, ReplaySparkN: netcode.SparkLen}
	for i := range netcode.SparkLen {
		m.RTTSpark[i] = float64(60 + i%17)
		m.ReplaySpark[i] = float64(30 + i%23)
	}
	return v
}

// BenchmarkFrame200x60 is one full frame at 200×60 as Run draws it (a
// Renderer kept across frames, DrawAt on a frame clock, then Show): the
// largest maze, eight tanks, 64 bullets and the full sidebar, with a figure
// changing every frame and a tank corrected every frame, so correction
// smoothing always has an offset to decay. Target: ≤ 1 ms/op.
func BenchmarkFrame200x60(b *testing.B) {
	scr := newScreen(b, 200, 60)
	v := bigView(b)
	r := NewRenderer(scr, Options{})
	now := time.Unix(0, 0)
	r.DrawAt(v, now)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Metrics.LocalTick++ // a changing figure, as in a real game
		v.World.Tick++
		v.World.Tanks[3].X ^= game.SubTile / 2 // a correction
		now = now.Add(time.Second / DefaultFPS)
		r.DrawAt(v, now)
	}
}

// BenchmarkDraw200x60 is the same frame drawn by the stateless Draw, which
// writes every cell of the screen.
func BenchmarkDraw200x60(b *testing.B) {
	scr := newScreen(b, 200, 60)
	v := bigView(b)
	Draw(scr, v, Options{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Metrics.LocalTick++
		Draw(scr, v, Options{})
	}
}

// BenchmarkShow200x60 is tcell's own cost of showing an unchanged 200×60
// simulation screen: the floor under every frame above.
func BenchmarkShow200x60(b *testing.B) {
	scr := newScreen(b, 200, 60)
	Draw(scr, bigView(b), Options{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scr.Show()
	}
}
