package game

import (
	"strings"
	"testing"
)

// benchWorld returns a world on the default maze after its countdown and
// some play.
func benchWorld(b *testing.B, slots int) (*World, [][]Input) {
	w, err := NewWorld(Config{Slots: slots, Seed: 42})
	if err != nil {
		b.Fatal(err)
	}
	rng := RNG{State: 9}
	in := make([][]Input, 64)
	for k := range in {
		in[k] = make([]Input, slots)
	}
	for k := 0; k < CountdownTicks+120; k++ {
		randomInputs(&rng, w.Tick(), in[0])
		for j := range in[0] {
			in[0][j].Buttons = 0 // keep everyone alive
		}
		w.Step(in[0])
	}
	if s := w.State(); s.Round.Phase != PhasePlaying || !s.Tanks[0].Alive || !s.Tanks[1].Alive {
		b.Fatal("bench world is not mid-round")
	}
	return w, in
}

func BenchmarkStep2Tanks(b *testing.B) {
	w, in := benchWorld(b, 2)
	rng := RNG{State: 1}
	for k := range in {
		randomInputs(&rng, 0, in[k])
	}
	var base Snapshot
	w.Save(&base)
	// The benchmark replays windows of 32 ticks from base: check that they
	// stay mid-round (never the cheap round-over pause) with both alive.
	for i := 0; i < 32; i++ {
		cur := in[i%len(in)]
		for j := range cur {
			cur[j].Tick = w.Tick()
		}
		w.Step(cur)
	}
	if s := w.State(); s.Round.Phase != PhasePlaying || !s.Tanks[0].Alive || !s.Tanks[1].Alive || s.NumBullets == 0 {
		b.Fatal("the benchmark window does not stay mid-round with bullets flying")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%32 == 0 {
			w.Restore(&base)
		}
		cur := in[i%len(in)]
		for j := range cur {
			cur[j].Tick = w.Tick()
		}
		w.Step(cur)
	}
}

// arena is an open room: 8 tanks in a row, 64 bullets flying in the space
// below them. It stays busy for the 32 ticks between restores.
func arena(b *testing.B) *World {
	rows := make([]string, 29)
	for y := range rows {
		if y == 0 || y == len(rows)-1 {
			rows[y] = strings.Repeat("#", 61)
		} else {
			rows[y] = "#" + strings.Repeat(".", 59) + "#"
		}
	}
	m, err := ParseMaze(rows...)
	if err != nil {
		b.Fatal(err)
	}
	w, err := NewWorldWithMaze(8, 1, m)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 8; i++ {
		w.SetTank(i, at(4+7*i, 3))
	}
	for k := 0; k < MaxBullets; k++ {
		x := int32(2+(k%16)*3)*SubTile + 100
		y := int32(8+k/16*4)*SubTile + 300
		vx, vy := int32(BulletDiagSpeed), int32(BulletDiagSpeed)
		if k%2 == 1 {
			vx, vy = -BulletSpeed, 0
		}
		w.AddBullet(Bullet{X: x, Y: y, VX: vx, VY: vy, Owner: uint8(k % 8), Life: BulletLife})
	}
	return w
}

func BenchmarkStep8Tanks64Bullets(b *testing.B) {
	w := arena(b)
	var base Snapshot
	w.Save(&base)
	in := make([]Input, 8)
	moves := [][2]int8{{1, 0}, {-1, 0}, {0, 1}, {1, 1}, {-1, 1}, {0, -1}, {1, -1}, {-1, -1}}
	step := func(i int) {
		for j := range in {
			mv := moves[(j+i/16)%len(moves)]
			in[j] = Input{Tick: w.Tick(), MoveX: mv[0], MoveY: mv[1]}
		}
		w.Step(in)
	}
	for i := 0; i < 32; i++ {
		step(i)
	}
	if n := w.State().NumBullets; n < 60 {
		b.Fatalf("only %d bullets left after 32 ticks; the scene does not measure 64", n)
	}
	w.Restore(&base)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%32 == 0 {
			w.Restore(&base)
		}
		step(i % 32)
	}
}

func BenchmarkSaveRestore(b *testing.B) {
	w, _ := benchWorld(b, 2)
	var s Snapshot
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Save(&s)
		w.Restore(&s)
	}
}

// BenchmarkRestoreReplay60 is what a client does on a State 60 ticks old:
// restore it, then step and save 60 ticks.
func BenchmarkRestoreReplay60(b *testing.B) {
	w, _ := benchWorld(b, 2)
	var base Snapshot
	w.Save(&base)
	rng := RNG{State: 5}
	in := make([][]Input, 60)
	for k := range in {
		in[k] = make([]Input, 2)
		randomInputs(&rng, base.Tick.Add(int32(k)), in[k])
	}
	var hist [60]Snapshot
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Restore(&base)
		for k := range in {
			w.Step(in[k])
			w.Save(&hist[k])
		}
	}
}

func BenchmarkHash2Tanks(b *testing.B) {
	w, _ := benchWorld(b, 2)
	var sink uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += w.Hash()
	}
	_ = sink
}

func BenchmarkMazeGenerate(b *testing.B) {
	var m Maze
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m.Generate(uint64(i), DefaultMazeW, DefaultMazeH)
	}
}
