package game

import (
	"fmt"
	"reflect"
	"testing"
)

// fullSnapshot returns a snapshot with every slot seated and every bullet
// slot in use, and every field non-zero, so that every field is live.
func fullSnapshot() Snapshot {
	s := Snapshot{Tick: 1234, RNG: 0xdeadbeef, Slots: MaxPlayers, RoundsToWin: 9, NumBullets: MaxBullets}
	s.Round = Round{Number: 3, Phase: PhaseOver, Timer: 77, Winner: 2, MazeSeed: 99, MazeW: 25, MazeH: 21}
	for i := range s.Tanks {
		s.Tanks[i] = Tank{X: int32(1000 + i), Y: 2000, VX: 3, VY: -4, AimX: 1, AimY: -1, HP: 2,
			Cooldown: 5, Hitstun: 6, Alive: true, Seated: true, Score: uint16(i + 1), Rematch: i%2 == 0,
			Stats: Stats{Kills: uint16(7 + i), Deaths: 8, Shots: 300, Hits: 40}}
	}
	for k := range s.Bullets {
		s.Bullets[k] = Bullet{X: int32(3000 + k), Y: 4000, VX: 85, VY: -85, Owner: uint8(k % MaxPlayers),
			Bounces: 2, Life: 100}
	}
	return s
}

// leaves calls fn for every leaf field of v (walking nested structs and
// arrays), with a path naming it. Any kind it does not know fails the test,
// so a new slice, map, pointer or string field must be dealt with here.
func leaves(t *testing.T, v reflect.Value, path string, fn func(reflect.Value, string)) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			leaves(t, v.Field(i), path+"."+v.Type().Field(i).Name, fn)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			leaves(t, v.Index(i), fmt.Sprintf("%s[%d]", path, i), fn)
		}
	case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		fn(v, path)
	default:
		t.Fatalf("%s: snapshot field of kind %s; teach Hash and this test about it", path, v.Kind())
	}
}

// flip changes a leaf value by one bit.
func flip(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() ^ 1)
	default:
		v.SetUint(v.Uint() ^ 1)
	}
}

func TestHashCoversEveryField(t *testing.T) {
	s := fullSnapshot()
	base := Hash(&s)
	n := 0
	leaves(t, reflect.ValueOf(&s).Elem(), "Snapshot", func(v reflect.Value, path string) {
		old := reflect.ValueOf(v.Interface())
		flip(v)
		if Hash(&s) == base {
			t.Errorf("changing %s does not change the hash", path)
		}
		v.Set(old)
		n++
	})
	if Hash(&s) != base {
		t.Fatal("test did not restore the snapshot")
	}
	if n < 8*17+64*7 {
		t.Fatalf("walked only %d fields", n)
	}
}

func TestHashIgnoresNothingValidateAllows(t *testing.T) {
	// Hash skips tanks beyond Slots, unseated tanks' other fields and
	// bullets beyond NumBullets; that is only sound because Validate rejects
	// snapshots where those are not zero.
	w, err := NewWorld(Config{Slots: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	s := *w.State()
	s.Tanks[5].X = 1
	if s.Validate() == nil {
		t.Fatal("tank beyond Slots with data passed Validate")
	}
	s = *w.State()
	s.Bullets[3].Life = 9
	if s.Validate() == nil {
		t.Fatal("bullet beyond NumBullets with data passed Validate")
	}
}
