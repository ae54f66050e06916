package game

import (
	"testing"
)

// The match rules: the countdown before every round, the match's end at
// RoundsToWin round wins, the stats, and the rematch vote.

var room = []string{
	"#########",
	"#.......#",
	"#.......#",
	"#.......#",
	"#########",
}

func TestCountdownBeforeEveryRoundIgnoresInputs(t *testing.T) {
	w, err := NewWorld(Config{Slots: 2, Seed: 21, MazeW: 11, MazeH: 9})
	if err != nil {
		t.Fatal(err)
	}
	for round := uint16(1); round <= 2; round++ {
		s := w.State()
		if s.Round.Number != round || s.Round.Phase != PhaseCountdown || s.Round.Timer != CountdownTicks {
			t.Fatalf("round %d should begin with a %d-tick countdown: %+v", round, CountdownTicks, s.Round)
		}
		before := *s
		for i := 0; i < 2; i++ {
			if tk := before.Tanks[i]; !tk.Alive || !tk.Spawned() || tk.HP != TankHP {
				t.Fatalf("round %d: tank %d is not spawned and visible during the countdown: %+v", round, i, tk)
			}
		}
		// Everything held, every tick of the countdown: nothing happens.
		run(w, CountdownTicks-1, hold(1, 1, ButtonFire|ButtonRematch))
		s = w.State()
		if s.Round.Phase != PhaseCountdown || s.Round.Timer != 1 {
			t.Fatalf("round %d: one tick before the end of the countdown: %+v", round, s.Round)
		}
		if s.Tanks != before.Tanks || s.NumBullets != 0 || s.RNG != before.RNG {
			t.Fatalf("round %d: the countdown let something move or fire:\n got %+v\nwant %+v", round, s.Tanks[:2], before.Tanks[:2])
		}
		run(w, 1, hold(1, 1, ButtonFire))
		s = w.State()
		if s.Round.Phase != PhasePlaying || s.Round.Timer != RoundTicks || s.Tanks != before.Tanks {
			t.Fatalf("round %d: the countdown's last tick should start play, unmoved: %+v", round, s.Round)
		}
		// The first tick of play takes the input.
		run(w, 1, hold(0, 0, ButtonFire))
		if s := w.State(); s.NumBullets != 2 || s.Tanks[0].Stats.Shots != uint16(round) {
			t.Fatalf("round %d: the first tick of play should fire: %d bullets, stats %+v", round, s.NumBullets, s.Tanks[0].Stats)
		}
		// End the round at its time limit (the bullets may kill someone
		// first: either way the round ends), then wait out the pause.
		for k := 0; k < RoundTicks && w.State().Round.Phase == PhasePlaying; k++ {
			run(w, 1, nil)
		}
		if w.State().Round.Phase != PhaseOver {
			t.Fatalf("round %d did not end: %+v", round, w.State().Round)
		}
		run(w, RoundOverTicks, nil)
	}
}

// wonRound stages a round in room where tank 0 shoots tank 1 (at 1 HP)
// dead, with tank 0 at score and RoundsToWin rounds, and plays until the
// round ends.
func wonRound(t *testing.T, score uint16, rounds int) *World {
	t.Helper()
	killer, victim := at(1, 2), at(7, 2)
	killer.Score = score
	victim.HP = 1
	w := scene(t, room, killer, victim)
	w.SetRoundsToWin(rounds)
	run(w, 1, only(0, Input{Buttons: ButtonFire}))
	for k := 0; k < 120 && w.State().Round.Phase == PhasePlaying; k++ {
		run(w, 1, nil)
	}
	if err := w.State().Validate(); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestMatchEndsAtExactlyRoundsToWin(t *testing.T) {
	// One short: the round ends as any other, and the next one follows.
	w := wonRound(t, 1, 3)
	if r := w.State().Round; r.Phase != PhaseOver || r.Winner != 0 || w.State().Tanks[0].Score != 2 {
		t.Fatalf("a win to 2 of 3 should end the round only: %+v, score %d", r, w.State().Tanks[0].Score)
	}
	run(w, RoundOverTicks, nil)
	if r := w.State().Round; r.Phase != PhaseCountdown || r.Number != 2 {
		t.Fatalf("the next round should follow: %+v", r)
	}

	// Endless: no score ends the match.
	w = wonRound(t, 254, 0)
	if r := w.State().Round; r.Phase != PhaseOver {
		t.Fatalf("an endless match ended: %+v", r)
	}

	// The win that makes 3 of 3 ends the match.
	w = wonRound(t, 2, 3)
	s := w.State()
	if s.Round.Phase != PhaseMatchOver || s.Round.Winner != 0 || s.Round.Timer != 0 || s.Tanks[0].Score != 3 {
		t.Fatalf("a win to 3 of 3 should end the match, won by slot 0: %+v, score %d", s.Round, s.Tanks[0].Score)
	}
	// Frozen: inputs move nothing and fire nothing, for as long as it
	// lasts; only the tick goes on.
	frozen := *w.State()
	run(w, 1000, hold(-1, 1, ButtonFire))
	s = w.State()
	if s.Tanks != frozen.Tanks || s.NumBullets != 0 || s.Round != frozen.Round || s.RNG != frozen.RNG ||
		s.Tick != frozen.Tick.Add(1000) {
		t.Fatalf("the match-over world should be frozen:\n got %+v %+v\nwant %+v %+v", s.Round, s.Tanks[:2], frozen.Round, frozen.Tanks[:2])
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestMatchOverClearsBulletsInFlight(t *testing.T) {
	killer, victim := at(1, 2), at(7, 2)
	killer.Score = 1
	victim.HP = 1
	w := scene(t, room, killer, victim)
	w.SetRoundsToWin(2)
	// A stray bullet of the loser's, flying along the bottom row.
	w.AddBullet(Bullet{X: SubTile + 512, Y: 3*SubTile + 512, VX: BulletSpeed, Owner: 1, Life: BulletLife})
	run(w, 1, only(0, Input{Buttons: ButtonFire}))
	for k := 0; k < 120 && w.State().Round.Phase == PhasePlaying; k++ {
		run(w, 1, nil)
	}
	if s := w.State(); s.Round.Phase != PhaseMatchOver || s.NumBullets != 0 || s.Bullets[0] != (Bullet{}) {
		t.Fatalf("match over with %d bullets left: %+v", s.NumBullets, s.Round)
	}
}

func TestStatsCountKillsDeathsShotsHits(t *testing.T) {
	// Slot 0 shoots slot 1 (3 HP) three times: three hits, one kill.
	w := scene(t, []string{
		"###########",
		"#.........#",
		"###########",
	}, at(1, 1), at(8, 1))
	for k := 0; k < 200 && w.State().Tanks[1].Alive; k++ {
		in := Input{}
		if w.State().Tanks[0].Cooldown == 0 {
			in.Buttons = ButtonFire
		}
		run(w, 1, only(0, in))
	}
	s := w.State()
	a, v := s.Tanks[0].Stats, s.Tanks[1].Stats
	if s.Tanks[1].Alive || a.Kills != 1 || a.Hits != 3 || a.Deaths != 0 || v.Deaths != 1 || v.Kills != 0 || v.Hits != 0 || v.Shots != 0 {
		t.Fatalf("shooter %+v, victim %+v: want 1 kill and 3 hits for the shooter, 1 death for the victim", a, v)
	}
	if a.Shots < 3 || int(a.Shots) != 3+int(s.NumBullets) {
		t.Fatalf("shooter fired %d shots with %d still flying; want 3 that hit plus those in flight", a.Shots, s.NumBullets)
	}

	// Own ricochet: a death, no kill, no hit, one shot.
	w = scene(t, []string{
		"#####",
		"#...#",
		"#####",
	}, at(2, 1)) // one slot: a tank alone in a world of two would wait for another
	tk := w.State().Tanks[0]
	tk.HP = 1
	w.SetTank(0, tk)
	run(w, 1, only(0, Input{Buttons: ButtonFire}))
	for k := 0; k < 30 && w.State().Tanks[0].Alive; k++ {
		run(w, 1, nil)
	}
	if st := w.State().Tanks[0]; st.Alive || st.Stats != (Stats{Deaths: 1, Shots: 1}) {
		t.Fatalf("own ricochet: %+v, want dead with 1 death and 1 shot, no kill or hit", st)
	}

	// Stats carry over into the next round, and over the wreck.
	w = wonRound(t, 0, 0)
	want := w.State().Tanks
	run(w, RoundOverTicks+CountdownTicks, nil)
	for i := 0; i < 2; i++ {
		if got := w.State().Tanks[i].Stats; got != want[i].Stats || (i == 0 && got.Kills != 1) {
			t.Fatalf("slot %d stats %+v after the next round began, want %+v", i, got, want[i].Stats)
		}
	}
}

func TestStatsSaturate(t *testing.T) {
	c := uint16(0xfffe)
	inc(&c)
	inc(&c)
	if c != 0xffff {
		t.Fatalf("counter at %#x, want it stuck at 0xffff", c)
	}
}

func TestRematchVoteOnlyInMatchOver(t *testing.T) {
	// Countdown, play and the pause after a round ignore the button.
	w, _ := NewWorld(Config{Slots: 2, Seed: 5, MazeW: 11, MazeH: 9, Rounds: 1})
	for k := 0; k < CountdownTicks+30; k++ {
		run(w, 1, hold(0, 0, ButtonRematch))
		if w.State().Tanks[0].Rematch {
			t.Fatalf("a vote counted in phase %v", w.State().Round.Phase)
		}
	}
	w = wonRound(t, 0, 0)
	run(w, 10, hold(0, 0, ButtonRematch))
	if s := w.State(); s.Round.Phase != PhaseOver || s.Tanks[0].Rematch || s.Tanks[1].Rematch {
		t.Fatalf("a vote counted after a round: %+v", s.Tanks[:2])
	}

	// Match over: a press sets the flag for good; other slots are not
	// touched; an unseated slot stays empty.
	m, _ := ParseMaze(room...)
	w, _ = NewWorldWithMaze(3, 1, m)
	killer, victim := at(1, 2), at(7, 2)
	killer.Score = 1
	victim.HP = 1
	w.SetTank(0, killer)
	w.SetTank(1, victim)
	w.Seat(2, false)
	w.SetRoundsToWin(2)
	run(w, 1, only(0, Input{Buttons: ButtonFire}))
	for k := 0; k < 120 && w.State().Round.Phase == PhasePlaying; k++ {
		run(w, 1, nil)
	}
	if w.State().Round.Phase != PhaseMatchOver {
		t.Fatalf("scene did not end the match: %+v", w.State().Round)
	}
	run(w, 1, func(i int) Input {
		if i == 1 {
			return Input{}
		}
		return Input{Buttons: ButtonRematch}
	})
	run(w, 5, nil) // released
	s := w.State()
	if !s.Tanks[0].Rematch || s.Tanks[1].Rematch || s.Tanks[2] != (Tank{}) {
		t.Fatalf("after slot 0's vote: %+v %+v %+v", s.Tanks[0], s.Tanks[1], s.Tanks[2])
	}
	run(w, 1, only(1, Input{MoveX: 1, Buttons: ButtonRematch | ButtonFire}))
	if s := w.State(); !s.Tanks[1].Rematch || s.NumBullets != 0 || s.Tanks[1].X != victim.X {
		t.Fatalf("slot 1's vote: %+v, %d bullets", s.Tanks[1], s.NumBullets)
	}
	// A player seated during the match-over phase may vote too.
	w.Seat(2, true)
	run(w, 1, only(2, Input{Buttons: ButtonRematch}))
	if s := w.State(); !s.Tanks[2].Rematch || s.Tanks[2].Spawned() {
		t.Fatalf("a newcomer's vote: %+v", s.Tanks[2])
	}
	if err := w.State().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidateMatchRules(t *testing.T) {
	w := wonRound(t, 1, 2)
	if w.State().Round.Phase != PhaseMatchOver {
		t.Fatal("scene did not end the match")
	}
	valid := *w.State()
	valid.Tanks[1].Rematch = true
	if err := valid.Validate(); err != nil {
		t.Fatalf("a valid match-over snapshot: %v", err)
	}
	cd, _ := NewWorld(Config{Slots: 2, Seed: 1, Rounds: 3})
	countdown := *cd.State()
	if err := countdown.Validate(); err != nil {
		t.Fatalf("a valid countdown snapshot: %v", err)
	}
	tests := []struct {
		name   string
		from   Snapshot
		mutate func(s *Snapshot)
	}{
		{"phase 5", valid, func(s *Snapshot) { s.Round.Phase = 5 }},
		{"waiting with a timer", valid, func(s *Snapshot) {
			s.Round.Phase, s.Round.Timer, s.Tanks[1].Rematch = PhaseWaiting, 5, false
		}},
		{"waiting with a bullet", valid, func(s *Snapshot) {
			s.Round.Phase, s.Tanks[1].Rematch = PhaseWaiting, false
			s.NumBullets = 1
			s.Bullets[0] = Bullet{X: 1600, Y: 1600, VX: 1, Life: 3}
		}},
		{"match over in an endless match", valid, func(s *Snapshot) { s.RoundsToWin = 0 }},
		{"match over without a winner", valid, func(s *Snapshot) { s.Round.Winner = -1 }},
		{"match over with a timer", valid, func(s *Snapshot) { s.Round.Timer = 1 }},
		{"match over with a bullet", valid, func(s *Snapshot) {
			s.NumBullets = 1
			s.Bullets[0] = Bullet{X: 1600, Y: 1600, VX: 1, Life: 3}
		}},
		{"score above rounds to win", valid, func(s *Snapshot) { s.Tanks[0].Score = 3 }},
		{"rematch vote while playing", valid, func(s *Snapshot) {
			s.Round.Phase, s.Round.Timer = PhasePlaying, 100
		}},
		{"countdown timer 0", countdown, func(s *Snapshot) { s.Round.Timer = 0 }},
		{"countdown timer too long", countdown, func(s *Snapshot) { s.Round.Timer = CountdownTicks + 1 }},
		{"countdown with a bullet", countdown, func(s *Snapshot) {
			s.NumBullets = 1
			s.Bullets[0] = Bullet{X: 1600, Y: 1600, VX: 1, Life: 3}
		}},
	}
	for _, tt := range tests {
		s := tt.from
		tt.mutate(&s)
		if s.Validate() == nil {
			t.Errorf("%s: Validate accepted it", tt.name)
		}
	}
}

func TestNewWorldRejectsRounds(t *testing.T) {
	for _, n := range []int{-1, 256} {
		if _, err := NewWorld(Config{Slots: 2, Rounds: n}); err == nil {
			t.Errorf("Rounds %d accepted", n)
		}
	}
	w, err := NewWorld(Config{Slots: 2, Rounds: 255})
	if err != nil || w.State().RoundsToWin != 255 {
		t.Fatalf("Rounds 255: %v", err)
	}
}

// TestLoneTankWaits: a match of two slots or more left with one seated
// tank, in any phase but the match's end, waits at the next step: the
// round is abandoned with no winner, the bullets go, nothing moves, the
// score is kept and no round timer runs out however long it lasts. A
// second tank seated starts the next round's countdown with both in it.
// Two tanks of three play on, and a world of one slot never waits.
func TestLoneTankWaits(t *testing.T) {
	for _, phase := range []Phase{PhasePlaying, PhaseCountdown, PhaseOver} {
		w, err := NewWorld(Config{Slots: 2, Seed: 7, Rounds: 3})
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 8000 && w.State().Round.Phase != phase; k++ {
			run(w, 1, nil)
		}
		if w.State().Round.Phase != phase {
			t.Fatalf("never reached %v", phase)
		}
		tk := w.State().Tanks[1]
		tk.Score = 2
		w.SetTank(1, tk)
		round := w.State().Round.Number
		w.Seat(0, false)
		run(w, 1, func(int) Input { return Input{MoveX: 1, Buttons: ButtonFire} })
		s := w.State()
		if s.Round.Phase != PhaseWaiting || s.Round.Winner != -1 || s.NumBullets != 0 || s.Tanks[1].Score != 2 {
			t.Fatalf("%v, slot 0 left: phase %v winner %d bullets %d score %d; want waiting, no winner, score 2",
				phase, s.Round.Phase, s.Round.Winner, s.NumBullets, s.Tanks[1].Score)
		}
		still := *s
		run(w, RoundTicks+10, func(int) Input { return Input{MoveX: 1, MoveY: 1, Buttons: ButtonFire} })
		s = w.State()
		if s.Round.Phase != PhaseWaiting || s.Tanks[1] != still.Tanks[1] || s.NumBullets != 0 {
			t.Fatalf("%v: after a round's time alone: phase %v, tank %+v (was %+v), %d bullets", phase, s.Round.Phase, s.Tanks[1], still.Tanks[1], s.NumBullets)
		}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		w.Seat(0, true)
		run(w, 1, nil)
		s = w.State()
		if s.Round.Phase != PhaseCountdown || s.Round.Number != round+1 || !s.Tanks[0].Alive || !s.Tanks[1].Alive || s.Tanks[1].Score != 2 {
			t.Fatalf("%v: a newcomer seated: phase %v round %d (was %d), alive %v %v, score %d; want the next round's countdown with both",
				phase, s.Round.Phase, s.Round.Number, round, s.Tanks[0].Alive, s.Tanks[1].Alive, s.Tanks[1].Score)
		}
	}

	w, _ := NewWorld(Config{Slots: 3, Seed: 7, Rounds: 3})
	w.Seat(2, false)
	run(w, 300, nil)
	if p := w.State().Round.Phase; p == PhaseWaiting {
		t.Fatal("two tanks left of three: the world waits")
	}
	solo, _ := NewWorld(Config{Slots: 1, Seed: 7, Rounds: 3})
	run(solo, 300, nil)
	if p := solo.State().Round.Phase; p == PhaseWaiting {
		t.Fatal("a world of one slot waits")
	}
	// The end of a match stays: the results are still to be seen.
	over := wonRound(t, 1, 2)
	over.Seat(1, false)
	run(over, 1, nil)
	if p := over.State().Round.Phase; p != PhaseMatchOver {
		t.Fatalf("a finished match left by the loser is in phase %v", p)
	}
}
