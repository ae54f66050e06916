package bot

import (
	"testing"

	"ttytanks/game"
)

// A straight corridor: whoever is shot at in it has nowhere to go.
var corridor = []string{
	"#############",
	"#...........#",
	"#############",
}

// A vertical shaft.
var shaft = []string{
	"###",
	"#.#",
	"#.#",
	"#.#",
	"#.#",
	"#.#",
	"#.#",
	"#.#",
	"#.#",
	"###",
}

func TestFiresAlongClearLine(t *testing.T) {
	cases := []struct {
		name   string
		rows   []string
		me, it game.Tank
		mx, my int8
	}{
		// The bot starts facing the wall right behind it: it must turn first.
		{"east", corridor, at(1, 1, -1, 0), at(8, 1, 1, 0), 1, 0},
		{"west", corridor, at(11, 1, 1, 0), at(3, 1, 1, 0), -1, 0},
		{"south", shaft, at(1, 1, 0, -1), at(1, 7, 1, 0), 0, 1},
		{"north", shaft, at(1, 8, 0, 1), at(1, 3, 1, 0), 0, -1},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 8; seed++ {
			w := scene(t, c.rows, c.me, c.it)
			b := New(seed)
			fired := false
			for k := 0; k < 4 && !fired; k++ {
				in := step(w, b)
				if in.MoveX != c.mx || in.MoveY != c.my {
					t.Fatalf("%s seed %d: input %d is %+v, want to face (%d,%d)", c.name, seed, k, in, c.mx, c.my)
				}
				fired = in.Fire()
			}
			if !fired {
				t.Fatalf("%s seed %d: no shot in the first 4 ticks", c.name, seed)
			}
			s := w.State()
			if s.NumBullets != 1 || s.Bullets[0].Owner != 0 ||
				sign32(s.Bullets[0].VX) != c.mx || sign32(s.Bullets[0].VY) != c.my {
				t.Fatalf("%s seed %d: bullets %v, want one of slot 0 flying (%d,%d)",
					c.name, seed, s.Bullets[:s.NumBullets], c.mx, c.my)
			}
			// And it hits.
			for k := 0; k < 90 && w.State().Tanks[1].HP == game.TankHP; k++ {
				step(w, b)
			}
			if hp := w.State().Tanks[1].HP; hp != game.TankHP-1 {
				t.Fatalf("%s seed %d: target HP %d after the shot", c.name, seed, hp)
			}
		}
	}
}

// A dead end: the bot sits at its closed west end, facing that wall, and
// the enemy is round two corners, out of any line.
var deadEnd = []string{
	"##########",
	"#......###",
	"######.###",
	"######...#",
	"##########",
}

// The enemy is in the bot's row, but behind the wall the bot faces.
var behindWall = []string{
	"##########",
	"#....#...#",
	"#.####.#.#",
	"#......#.#",
	"##########",
}

func TestNoPointBlankFireIntoWall(t *testing.T) {
	cases := []struct {
		name   string
		rows   []string
		me, it game.Tank
		// never: no shot at all is allowed (nothing can be hit).
		never bool
	}{
		{"dead end", deadEnd, at(1, 1, -1, 0), at(8, 3, -1, 0), true},
		{"enemy behind the wall", behindWall, at(4, 1, 1, 0), at(7, 1, -1, 0), false},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 16; seed++ {
			w := scene(t, c.rows, c.me, c.it)
			m := w.Maze()
			b := New(seed)
			for k := 0; k < 30; k++ {
				me := w.State().Tanks[0]
				in := step(w, b)
				if !in.Fire() {
					continue
				}
				if c.never {
					t.Fatalf("%s seed %d tick %d: fired with no enemy in line", c.name, seed, k)
				}
				// Where the tank fired: its aim after this input.
				ax, ay := me.AimX, me.AimY
				if in.MoveX != 0 || in.MoveY != 0 {
					ax, ay = in.MoveX, in.MoveY
				}
				tx, ty := int(me.X>>10), int(me.Y>>10)
				if (ax == 0 || ay == 0) && m.IsWall(tx+int(ax), ty+int(ay)) {
					t.Fatalf("%s seed %d tick %d: fired (%d,%d) into the wall next to tile (%d,%d)",
						c.name, seed, k, ax, ay, tx, ty)
				}
			}
			if w.State().Tanks[0].HP != game.TankHP {
				t.Fatalf("%s seed %d: the bot shot itself", c.name, seed)
			}
		}
	}
}

// A corridor with one side opening below tile 6; the enemy sits in a
// walled-off pocket at the bottom so it plays no part.
var sideOpening = []string{
	"#############",
	"#...........#",
	"######.######",
	"######.######",
	"#############",
	"#..##########",
	"#############",
}

func TestDodgesIncomingBullet(t *testing.T) {
	cases := []struct {
		name   string
		bullet game.Bullet
	}{
		{"enemy bullet from the east", game.Bullet{X: 11*game.SubTile + 512, Y: game.SubTile + 512,
			VX: -game.BulletSpeed, Owner: 1, Life: game.BulletLife}},
		{"enemy bullet from the west", game.Bullet{X: 1*game.SubTile + 512, Y: game.SubTile + 500,
			VX: game.BulletSpeed, Owner: 1, Life: game.BulletLife}},
		// Its own bullet, flying away, comes back off the east wall.
		{"own ricochet", game.Bullet{X: 7*game.SubTile + 512, Y: game.SubTile + 520,
			VX: game.BulletSpeed, Owner: 0, Life: game.BulletLife}},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 8; seed++ {
			w := scene(t, sideOpening, at(6, 1, 1, 0), at(1, 5, 1, 0))
			w.AddBullet(c.bullet)
			b := New(seed)
			left := false
			for k := 0; k < 120; k++ {
				step(w, b)
				me := w.State().Tanks[0]
				if me.HP != game.TankHP {
					t.Fatalf("%s seed %d: hit at tick %d, tank at (%d,%d)", c.name, seed, k, me.X, me.Y)
				}
				if me.Y-game.SubTile-game.SubTile/2 >= game.TankHalf {
					left = true
				}
			}
			if !left {
				t.Fatalf("%s seed %d: never stepped out of the corridor's line", c.name, seed)
			}
		}
	}
}

// Without an opening there is nothing to do but the bot must not make it
// worse, e.g. by firing into the wall next to it; and a bot that can't
// dodge is hit, which shows the scene is a real threat.
func TestDodgeSceneIsAThreat(t *testing.T) {
	w := scene(t, sideOpening, at(6, 1, 1, 0), at(1, 5, 1, 0))
	w.AddBullet(game.Bullet{X: 11*game.SubTile + 512, Y: game.SubTile + 512,
		VX: -game.BulletSpeed, Owner: 1, Life: game.BulletLife})
	in := []game.Input{{}, {}}
	for k := 0; k < 120; k++ {
		in[0].Tick, in[1].Tick = w.Tick(), w.Tick()
		w.Step(in)
	}
	if w.State().Tanks[0].HP == game.TankHP {
		t.Fatal("a tank standing still was not hit: the dodge scene tests nothing")
	}
}

func TestNeutralWhenIdle(t *testing.T) {
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b := New(1)
	// The countdown: neutral, though the round is on.
	if in := b.Input(w.State(), w.Maze(), 0); in != game.Neutral(w.Tick()) || w.State().Round.Phase != game.PhaseCountdown {
		t.Fatalf("countdown: %+v, want neutral", in)
	}
	skipCountdown(w)
	// Dead.
	w2 := scene(t, corridor, at(1, 1, 1, 0), at(8, 1, -1, 0), game.Tank{Seated: true, AimX: 1})
	if in := b.Input(w2.State(), w2.Maze(), 2); in != game.Neutral(w2.Tick()) {
		t.Fatalf("dead tank: %+v, want neutral", in)
	}
	// Another round's maze.
	var other game.Maze
	other.Generate(w.State().Round.MazeSeed+1, game.DefaultMazeW, game.DefaultMazeH)
	if in := b.Input(w.State(), &other, 0); in != game.Neutral(w.Tick()) {
		t.Fatalf("wrong maze: %+v, want neutral", in)
	}
	if in := b.Input(w.State(), w.Maze(), 0); in == game.Neutral(w.Tick()) {
		t.Fatal("right maze: neutral input at the start of a round")
	}
	// Not a slot.
	if in := b.Input(w.State(), w.Maze(), 5); in != game.Neutral(w.Tick()) {
		t.Fatalf("slot 5 of 2: %+v, want neutral", in)
	}
	// Round over: play until a round ends, then every input is neutral
	// until the next starts.
	bots := []*Bot{New(1), New(2)}
	in := make([]game.Input, 2)
	over := 0
	for k := 0; k < 5000 && over < game.RoundOverTicks; k++ {
		s := w.State()
		for i := range in {
			in[i] = bots[i].Input(s, w.Maze(), i)
			if s.Round.Phase == game.PhaseOver && in[i] != game.Neutral(s.Tick) {
				t.Fatalf("tick %d: round over but slot %d input %+v", s.Tick, i, in[i])
			}
			if in[i].Tick != s.Tick {
				t.Fatalf("input for tick %d at tick %d", in[i].Tick, s.Tick)
			}
		}
		if s.Round.Phase == game.PhaseOver {
			over++
		}
		w.Step(in)
	}
	if over < game.RoundOverTicks {
		t.Fatal("no round ended")
	}
}
