package skill_test

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"ttytanks/internal/skill"
)

// benchRooms returns n rooms of 4 seats, 1 to 3 taken by rated players
// around a random centre, waiting up to 40 s: a busy server's quick
// rooms.
func benchRooms(n int) []skill.Room {
	rng := rand.New(rand.NewPCG(1, 1))
	rooms := make([]skill.Room, n)
	for i := range rooms {
		taken := 1 + rng.IntN(3)
		c := skill.Room{Free: 4 - taken, Taken: taken, Ranked: true,
			Since: ago(time.Duration(rng.Int64N(int64(40 * time.Second))))}
		centre := 1500 + 300*rng.NormFloat64()
		for range taken {
			c.Ratings = append(c.Ratings, centre+50*rng.NormFloat64())
		}
		rooms[i] = c
	}
	return rooms
}

// BenchmarkPick seats a newcomer among 64 and 256 rooms.
func BenchmarkPick(b *testing.B) {
	for _, n := range []int{64, 256} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			rooms := benchRooms(n)
			r := skill.DefaultRule
			b.ReportAllocs()
			for b.Loop() {
				if r.Pick(rooms, 1720, true, t0) < -1 {
					b.Fatal("impossible")
				}
			}
		})
	}
}

// BenchmarkFullest seats a newcomer among 64 and 256 rooms by fullness.
func BenchmarkFullest(b *testing.B) {
	for _, n := range []int{64, 256} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			rooms := benchRooms(n)
			b.ReportAllocs()
			for b.Loop() {
				if skill.Fullest(rooms) < -1 {
					b.Fatal("impossible")
				}
			}
		})
	}
}

// BenchmarkSimulate runs 1,000 players through rooms of 4 seats.
func BenchmarkSimulate(b *testing.B) {
	cfg := skill.SimConfig{Seed: 1, Tickets: 1000, Rate: 2, Seats: 4, Pick: skill.DefaultRule.Pick}
	b.ReportAllocs()
	for b.Loop() {
		skill.Simulate(cfg)
	}
}

// TestPickAllocs holds Pick to no allocation, as a test as well as a
// benchmark so that go test alone catches one.
func TestPickAllocs(t *testing.T) {
	rooms := benchRooms(64)
	if n := testing.AllocsPerRun(100, func() { skill.DefaultRule.Pick(rooms, 1720, true, t0) }); n != 0 {
		t.Errorf("Pick allocates %v times a call, want 0", n)
	}
}
