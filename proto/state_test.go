package proto

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"ttytanks/game"
)

// roundTripState encodes s as a State and decodes it into a dirty value,
// failing the test unless the result equals s exactly.
func roundTripState(t *testing.T, what string, s *game.Snapshot, dst *State) {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatalf("%s: the test built an invalid snapshot: %v", what, err)
	}
	p := State{Header: testHeader(TypeState), AckInfo: testAckInfo(), Snapshot: *s, Hash: game.Hash(s)}
	p.ServerTick = s.Tick
	b := p.Append(nil)
	seated := 0
	for i := range s.Tanks {
		if s.Tanks[i].Seated {
			seated++
		}
	}
	if len(b) != p.Len() || len(b) != StateLen(int(s.Slots), seated, int(s.NumBullets)) {
		t.Fatalf("%s: Append wrote %d bytes, Len() = %d", what, len(b), p.Len())
	}
	if err := ParseState(b, dst); err != nil {
		t.Fatalf("%s: ParseState: %v", what, err)
	}
	if dst.Snapshot != *s {
		t.Fatalf("%s: round trip changed the snapshot:\n got %+v\nwant %+v", what, dst.Snapshot, *s)
	}
	if !reflect.DeepEqual(*dst, p) {
		t.Fatalf("%s: round trip changed the packet:\n got %+v\nwant %+v", what, *dst, p)
	}
	if game.Hash(&dst.Snapshot) != dst.Hash {
		t.Fatalf("%s: hash of the decoded snapshot differs from the one sent", what)
	}
}

// sameState reports whether a and b are the same State in every part
// ParseState writes: a full State's snapshot, a delta's Steps[:Back] of
// its slots (the rest of Steps is not the State's).
func sameState(a, b *State) bool {
	if a.Header != b.Header || a.AckInfo != b.AckInfo || a.Hash != b.Hash || a.Back != b.Back || a.Snapshot != b.Snapshot {
		return false
	}
	for i := 0; i < int(a.Back); i++ {
		for slot := 0; slot < int(a.Snapshot.Slots); slot++ {
			if a.Steps[i][slot] != b.Steps[i][slot] {
				return false
			}
		}
	}
	return true
}

// dirtyState returns a State whose every array entry is non-zero, so that
// a decoder that forgets to clear the unused tail is caught.
func dirtyState() State {
	var d State
	for i := range d.Snapshot.Tanks {
		d.Snapshot.Tanks[i] = game.Tank{X: 7, Seated: true, Score: 9}
	}
	for i := range d.Snapshot.Bullets {
		d.Snapshot.Bullets[i] = game.Bullet{Y: 5, Life: 3}
	}
	return d
}

// randomSnapshot returns a valid snapshot drawn to hit the edges of every
// field's range.
func randomSnapshot(r *rand.Rand) game.Snapshot {
	pick := func(lo, hi int) int {
		switch r.IntN(4) {
		case 0:
			return lo
		case 1:
			return hi
		}
		return lo + r.IntN(hi-lo+1)
	}
	s := game.Snapshot{Tick: game.Tick(r.Uint32()), RNG: r.Uint64()}
	s.Slots = uint8(pick(1, game.MaxPlayers))
	rd := &s.Round
	for {
		rd.MazeW, rd.MazeH = uint8(2*pick(1, 31)+1), uint8(2*pick(1, 15)+1)
		if int(rd.MazeW/2)*int(rd.MazeH/2) >= int(s.Slots) {
			break
		}
	}
	rd.Number = uint16(pick(0, 0xffff))
	rd.Phase = game.Phase(pick(0, int(game.PhaseWaiting)))
	rd.Timer = uint16(pick(0, game.RoundTicks))
	rd.Winner = int8(pick(-1, int(s.Slots)-1))
	rd.MazeSeed = r.Uint64()
	if r.IntN(2) == 0 {
		s.RoundsToWin = uint8(pick(1, 255))
	}
	switch rd.Phase {
	case game.PhaseCountdown:
		rd.Timer = uint16(pick(1, game.CountdownTicks))
	case game.PhaseMatchOver:
		rd.Timer = 0
		rd.Winner = int8(pick(0, int(s.Slots)-1))
		s.RoundsToWin = uint8(pick(1, 255))
	case game.PhaseWaiting:
		rd.Timer = 0
	}
	maxX, maxY := int(rd.MazeW)*game.SubTile-1, int(rd.MazeH)*game.SubTile-1
	for i := range s.Tanks[:s.Slots] {
		if r.IntN(8) == 0 {
			continue // unseated: zero
		}
		t := &s.Tanks[i]
		t.Seated = true
		t.X, t.Y = int32(pick(0, maxX)), int32(pick(0, maxY))
		t.VX = int32(pick(-game.KnockbackSpeed, game.KnockbackSpeed))
		t.VY = int32(pick(-game.KnockbackSpeed, game.KnockbackSpeed))
		for t.AimX == 0 && t.AimY == 0 {
			t.AimX, t.AimY = int8(pick(-1, 1)), int8(pick(-1, 1))
		}
		t.HP = int8(pick(0, game.TankHP))
		t.Cooldown = uint8(pick(0, game.FireCooldown))
		t.Hitstun = uint8(pick(0, game.HitstunTicks))
		t.Alive = r.IntN(2) == 0
		t.Score = uint16(pick(0, 0xffff))
		if s.RoundsToWin > 0 {
			t.Score = uint16(pick(0, int(s.RoundsToWin)))
		}
		t.Rematch = rd.Phase == game.PhaseMatchOver && r.IntN(2) == 0
		t.Stats = game.Stats{Kills: uint16(pick(0, 0xffff)), Deaths: uint16(pick(0, 0xffff)),
			Shots: uint16(pick(0, 0xffff)), Hits: uint16(pick(0, 0xffff))}
	}
	s.NumBullets = uint8(pick(0, game.MaxBullets))
	if rd.Phase == game.PhaseCountdown || rd.Phase == game.PhaseMatchOver || rd.Phase == game.PhaseWaiting {
		s.NumBullets = 0
	}
	for i := range s.Bullets[:s.NumBullets] {
		b := &s.Bullets[i]
		b.X, b.Y = int32(pick(0, maxX)), int32(pick(0, maxY))
		b.VX = int32(pick(-game.BulletSpeed, game.BulletSpeed))
		b.VY = int32(pick(-game.BulletSpeed, game.BulletSpeed))
		b.Owner = uint8(pick(0, int(s.Slots)-1))
		b.Bounces = uint8(pick(0, game.BulletBounces))
		b.Life = uint8(pick(0, game.BulletLife))
	}
	return s
}

func TestStateRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	dst := dirtyState()
	for i := 0; i < 20000; i++ {
		s := randomSnapshot(r)
		roundTripState(t, "random snapshot", &s, &dst)
	}
}

// TestStateRoundTripWorld round-trips every snapshot of real matches,
// through rounds, deaths and maze changes.
func TestStateRoundTripWorld(t *testing.T) {
	for _, slots := range []int{1, 2, 8} {
		w, err := game.NewWorld(game.Config{Slots: slots, Seed: uint64(slots), MazeW: 11, MazeH: 9, StartTick: 0xffffff00, Rounds: 2})
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(slots), 7))
		in := make([]game.Input, slots)
		dst := dirtyState()
		maxBullets := 0
		for k := 0; k < 6000; k++ {
			for i := range in {
				in[i] = game.Input{Tick: w.Tick(), MoveX: int8(r.IntN(3) - 1), MoveY: int8(r.IntN(3) - 1)}
				if r.IntN(3) == 0 {
					in[i].Buttons = game.ButtonFire
				}
				if r.IntN(50) == 0 {
					in[i].Buttons |= game.ButtonRematch
				}
			}
			w.Step(in)
			roundTripState(t, "world", w.State(), &dst)
			maxBullets = max(maxBullets, int(w.State().NumBullets))
			if w.State().Round.Phase == game.PhaseMatchOver && slots > 1 {
				votes := 0
				for i := range w.State().Tanks {
					if w.State().Tanks[i].Rematch {
						votes++
					}
				}
				if votes == slots {
					break // everyone voted: what a server would end with
				}
			}
		}
		if slots > 1 && w.State().Round.Phase != game.PhaseMatchOver {
			t.Errorf("%d slots: the match never ended; the test covers too little", slots)
		}
		if maxBullets == 0 {
			t.Errorf("%d slots: the scripted match never had a bullet in flight; the test covers too little", slots)
		}
	}
}

// largestSnapshot returns a valid snapshot of the largest encoding: 8
// tanks, 64 bullets, 63×31 maze.
func largestSnapshot() game.Snapshot {
	s := game.Snapshot{Tick: 0xffffffff, RNG: ^uint64(0), Slots: game.MaxPlayers, NumBullets: game.MaxBullets,
		Round: game.Round{Number: 0xffff, Phase: game.PhaseOver, Timer: game.RoundTicks, Winner: 7,
			MazeSeed: ^uint64(0), MazeW: game.MaxMazeW, MazeH: game.MaxMazeH}}
	for i := range s.Tanks {
		s.Tanks[i] = game.Tank{X: game.MaxMazeW*game.SubTile - 1, Y: game.MaxMazeH*game.SubTile - 1,
			VX: -game.KnockbackSpeed, VY: game.KnockbackSpeed, AimX: -1, AimY: -1, HP: game.TankHP,
			Cooldown: game.FireCooldown, Hitstun: game.HitstunTicks, Alive: true, Seated: true, Score: 0xffff,
			Stats: game.Stats{Kills: 0xffff, Deaths: 0xffff, Shots: 0xffff, Hits: 0xffff}}
	}
	for i := range s.Bullets {
		s.Bullets[i] = game.Bullet{X: game.MaxMazeW*game.SubTile - 1, Y: 0, VX: -game.BulletSpeed,
			VY: game.BulletSpeed, Owner: uint8(i % game.MaxPlayers), Bounces: game.BulletBounces, Life: game.BulletLife}
	}
	return s
}

func TestWireSizeBudgets(t *testing.T) {
	big := largestSnapshot()
	dst := dirtyState()
	roundTripState(t, "largest", &big, &dst)
	largest := State{Snapshot: big}
	two := testSnapshot()
	two.NumBullets = 0
	two.Bullets = [game.MaxBullets]game.Bullet{}
	two4 := testSnapshot()
	two4.NumBullets = 4
	two4.Bullets[2], two4.Bullets[3] = two4.Bullets[0], two4.Bullets[1]
	maxRequest := Request{Name: "0123456789abcdef", Kind: RoomCreate, Room: "fedcba9876543210", Seats: 8, Bots: 7}
	maxStart := Start{Slots: game.MaxPlayers}
	for i := range maxStart.Roster {
		maxStart.Roster[i].Name = "0123456789abcdef"
	}
	sizes := []struct {
		name     string
		pkt      packet
		min, max int // inclusive
	}{
		{"Hello", &Hello{}, HelloLen, HelloLen},
		{"Challenge", &Challenge{}, 0, 45},
		{"Join", &Join{}, JoinLen, JoinLen},
		{"Accept", &Accept{Conn: 1}, AcceptLen, AcceptLen},
		{"Request, 16-byte name and room", &maxRequest, 0, 92},
		{"Start, 8 seats with 16-byte names", &maxStart, 0, MaxDatagram},
		{"Input with 4 inputs", &Input{N: 4}, 0, 36},
		{"Input with 8 inputs", &Input{N: 8}, 0, 40},
		{"Ack", &Ack{}, 0, 47},
		{"State, 2 tanks, 0 bullets", &State{Snapshot: two}, 0, 115},
		{"State, 2 tanks, 4 bullets", &State{Snapshot: two4}, 0, 115 + 4*8},
		{"delta State, 2 tanks at rest", benchDelta(2, false), 0, 51},
		{"delta State, 8 tanks at rest", benchDelta(8, false), 0, 57},
		{"delta State, 8 tanks in combat", benchDelta(8, true), 0, 133},
		{"State, 8 tanks, 64 bullets, 63x31", &largest, 0, MaxDatagram},
		{"Leave", &Leave{Reason: LeaveQuit}, 0, 22},
		{"Reject", &Reject{Reason: RejectFull}, 0, 22},
		{"PathChallenge", &PathChallenge{}, PathLen, 29},
		{"PathResponse", &PathResponse{}, PathLen, 29},
	}
	for _, sz := range sizes {
		n := len(sz.pkt.Append(nil))
		t.Logf("%-36s %4d bytes", sz.name, n)
		if n != sz.pkt.Len() {
			t.Errorf("%s: Append wrote %d bytes, Len() = %d", sz.name, n, sz.pkt.Len())
		}
		if n < sz.min || n > sz.max {
			t.Errorf("%s: %d bytes, want %d..%d", sz.name, n, sz.min, sz.max)
		}
	}
	if got := largest.Len(); got != MaxStateLen {
		t.Errorf("largest State is %d bytes, MaxStateLen = %d", got, MaxStateLen)
	}
	// Anti-amplification: nothing the server sends before a valid cookie
	// is larger than the Hello that asked for it.
	for _, reply := range []packet{&Challenge{}, &Reject{Reason: RejectVersion}} {
		if reply.Len() > (&Hello{}).Len() {
			t.Errorf("%T is %d bytes, larger than the %d-byte Hello that triggers it", reply, reply.Len(), HelloLen)
		}
	}
	// Nor is the answer to a Join larger than the Join.
	for _, reply := range []packet{&Accept{}, &Reject{Reason: RejectBadCookie}} {
		if reply.Len() > (&Join{}).Len() {
			t.Errorf("%T is %d bytes, larger than the %d-byte Join that triggers it", reply, reply.Len(), JoinLen)
		}
	}
}

func TestParseStateClearsUnusedEntries(t *testing.T) {
	big := largestSnapshot()
	full := State{Snapshot: big}
	b := testState().Append(nil)
	dst := State{}
	if err := ParseState(full.Append(nil), &dst); err != nil {
		t.Fatal(err)
	}
	if err := ParseState(b, &dst); err != nil {
		t.Fatal(err)
	}
	if want := testState(); !reflect.DeepEqual(dst, *want) {
		t.Errorf("decoding a small State over a large one left residue:\n got %+v\nwant %+v", dst.Snapshot, want.Snapshot)
	}
}

func TestStateEncodesSnapshotTick(t *testing.T) {
	p := testState()
	p.ServerTick = 5 // disagrees with Snapshot.Tick: Append sends Snapshot.Tick
	var got State
	if err := ParseState(p.Append(nil), &got); err != nil {
		t.Fatal(err)
	}
	if got.ServerTick != p.Snapshot.Tick || got.Snapshot.Tick != p.Snapshot.Tick {
		t.Errorf("decoded ServerTick %d, Snapshot.Tick %d; want both %d", got.ServerTick, got.Snapshot.Tick, p.Snapshot.Tick)
	}
}

// TestStateInvalidSnapshotRejected encodes snapshots that break one rule of
// game.Snapshot.Validate each (with values that fit the wire widths) and
// requires ParseState to reject them.
func TestStateInvalidSnapshotRejected(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(s *game.Snapshot)
	}{
		{"no slots", func(s *game.Snapshot) {
			s.Slots = 0
			s.Tanks = [8]game.Tank{}
			s.NumBullets = 0
			s.Bullets = [64]game.Bullet{}
		}},
		{"tank x at maze edge", func(s *game.Snapshot) { s.Tanks[0].X = 25 * game.SubTile }},
		{"tank y at maze edge", func(s *game.Snapshot) { s.Tanks[1].Y = 21 * game.SubTile }},
		{"tank vx 97", func(s *game.Snapshot) { s.Tanks[0].VX = 97 }},
		{"tank vy -97", func(s *game.Snapshot) { s.Tanks[0].VY = -97 }},
		{"tank aim 0,0", func(s *game.Snapshot) { s.Tanks[0].AimX, s.Tanks[0].AimY = 0, 0 }},
		{"tank hp 4", func(s *game.Snapshot) { s.Tanks[0].HP = 4 }},
		{"tank hp -1", func(s *game.Snapshot) { s.Tanks[0].HP = -1 }},
		{"tank cooldown 16", func(s *game.Snapshot) { s.Tanks[0].Cooldown = 16 }},
		{"tank hitstun 19", func(s *game.Snapshot) { s.Tanks[1].Hitstun = 19 }},
		{"unseated tank with a score", func(s *game.Snapshot) { s.Tanks[1] = game.Tank{Score: 1} }},
		{"bullet owner 2 of 2", func(s *game.Snapshot) { s.Bullets[0].Owner = 2 }},
		{"bullet bounces 6", func(s *game.Snapshot) { s.Bullets[1].Bounces = 6 }},
		{"bullet life 241", func(s *game.Snapshot) { s.Bullets[1].Life = 241 }},
		{"bullet vx 121", func(s *game.Snapshot) { s.Bullets[0].VX = 121 }},
		{"bullet outside maze", func(s *game.Snapshot) { s.Bullets[0].X = 30000 }},
		{"round phase 2", func(s *game.Snapshot) { s.Round.Phase = 2 }},
		{"round timer", func(s *game.Snapshot) { s.Round.Timer = game.RoundTicks + 1 }},
		{"round winner", func(s *game.Snapshot) { s.Round.Winner = 2 }},
		{"maze even", func(s *game.Snapshot) { s.Round.MazeW = 24 }},
		{"maze too small for slots", func(s *game.Snapshot) { s.Round.MazeW, s.Round.MazeH = 3, 3 }},
	}
	for _, tt := range tests {
		p := testState()
		tt.mutate(&p.Snapshot)
		if p.Snapshot.Validate() == nil {
			t.Fatalf("%s: mutation left the snapshot valid; fix the test", tt.name)
		}
		var dst State
		err := ParseState(p.Append(nil), &dst)
		if !errors.Is(err, ErrSnapshot) {
			t.Errorf("%s: got error %v, want ErrSnapshot", tt.name, err)
		}
	}
}

func TestDecodeDoesNotAllocate(t *testing.T) {
	st := testState().Append(nil)
	in := testInput().Append(nil)
	ack := mustHex(t, goldenAck)
	join := mustHex(t, goldenJoin)
	accept := mustHex(t, goldenAccept)
	path := mustHex(t, goldenPathChallenge)
	pathHeader, err := ParseHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	var dst State
	tests := []struct {
		name string
		f    func()
	}{
		{"ParseState", func() {
			if ParseState(st, &dst) != nil {
				panic("ParseState failed")
			}
		}},
		{"ParseInput", func() {
			if _, err := ParseInput(in); err != nil {
				panic(err)
			}
		}},
		{"ParseAck", func() {
			if _, err := ParseAck(ack); err != nil {
				panic(err)
			}
		}},
		{"ParseJoin", func() {
			if _, err := ParseJoin(join); err != nil {
				panic(err)
			}
		}},
		{"ParseAccept", func() {
			if _, err := ParseAccept(accept); err != nil {
				panic(err)
			}
		}},
		{"ParsePathBody", func() {
			if _, err := ParsePathBody(pathHeader, path[HeaderLen:]); err != nil {
				panic(err)
			}
		}},
		{"ParseHeader", func() {
			if _, err := ParseHeader(st); err != nil {
				panic(err)
			}
		}},
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s allocates %v times per call, want 0", tt.name, n)
		}
	}
	if !bytes.Equal(dst.Append(nil), st) {
		t.Errorf("the decoded State does not re-encode to its datagram")
	}
}

// TestDeltaRebuildsWorld: a delta State made from the inputs a world
// stepped, against any of its last MaxBack snapshots, decodes into inputs
// that step a copy of that snapshot to the very state of the world: over
// real matches of 2 and 8 slots, through rounds, deaths and maze changes.
// Deltas as far back as a round trip of 100 ms puts a baseline (12
// ticks) are smaller than the whole State, though every player fires
// every 15 ticks on average.
func TestDeltaRebuildsWorld(t *testing.T) {
	for _, slots := range []int{2, 8} {
		w, err := game.NewWorld(game.Config{Slots: slots, Seed: uint64(slots), MazeW: 11, MazeH: 9, StartTick: 0xffffff80})
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(slots), 9))
		snaps := make([]game.Snapshot, 0, 4000)
		steps := make([][]game.Input, 0, 4000)
		held := make([]game.Input, slots)
		var dst State
		copyWorld, _ := game.NewWorld(game.Config{Slots: slots})
		deltas, smaller := 0, 0
		for k := 0; k < 3000; k++ {
			snaps = append(snaps, *w.State())
			in := make([]game.Input, slots)
			for i := range in {
				if r.IntN(30) == 0 { // a player holds a direction for a while
					held[i] = game.Input{MoveX: int8(r.IntN(3) - 1), MoveY: int8(r.IntN(3) - 1)}
				}
				in[i] = held[i]
				in[i].Tick = w.Tick()
				if r.IntN(15) == 0 {
					in[i].Buttons = game.ButtonFire
				}
			}
			steps = append(steps, in)
			w.Step(in)
			if k%7 != 0 {
				continue
			}
			back := 1 + r.IntN(min(MaxBack, len(snaps)))
			if k%2 == 0 {
				back = 1 + r.IntN(min(12, len(snaps)))
			}
			p := State{Header: testHeader(TypeState), AckInfo: testAckInfo(), Hash: w.Hash(), Back: uint8(back)}
			w.Save(&p.Snapshot)
			p.ServerTick = w.Tick()
			for i := 0; i < back; i++ {
				copy(p.Steps[i][:], steps[len(steps)-1-i])
			}
			b := p.Append(nil)
			if len(b) != p.Len() {
				t.Fatalf("%d slots, back %d: Append wrote %d bytes, Len() = %d", slots, back, len(b), p.Len())
			}
			if back <= 12 {
				deltas++
				if p.Len() < p.FullLen() {
					smaller++
				}
			}
			if err := ParseState(b, &dst); err != nil {
				t.Fatalf("%d slots, back %d: %v", slots, back, err)
			}
			copyWorld.Restore(&snaps[len(snaps)-back])
			for i := 0; i < back; i++ {
				copyWorld.Step(dst.StepInputs(i))
			}
			if copyWorld.Hash() != dst.Hash || *copyWorld.State() != *w.State() {
				t.Fatalf("%d slots, back %d at tick %d: the rebuilt world differs", slots, back, w.Tick())
			}
			if again := dst.Append(nil); !bytes.Equal(again, b) {
				t.Fatalf("%d slots, back %d: re-encodes differently", slots, back)
			}
		}
		t.Logf("%d slots: %d of %d deltas of 12 ticks or fewer are smaller than the whole State", slots, smaller, deltas)
		if smaller != deltas {
			t.Errorf("%d slots: only %d of %d deltas of 12 ticks or fewer are smaller than the whole State", slots, smaller, deltas)
		}
	}
}
