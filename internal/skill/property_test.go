package skill_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"ttytanks/internal/skill"
)

// randRule returns a rule a server might be given.
func randRule(rng *rand.Rand) skill.Rule {
	return skill.Rule{
		Base:    300 * rng.Float64(),
		Widen:   20 * rng.Float64(),
		MaxWait: time.Duration(rng.Int64N(int64(60 * time.Second))),
	}
}

// randRooms returns up to 12 rooms of up to 8 seats, some full, some of
// guests, waiting up to 90 s (some nobody, some a Since after t0).
func randRooms(rng *rand.Rand) []skill.Room {
	rooms := make([]skill.Room, rng.IntN(13))
	for i := range rooms {
		seats := 2 + rng.IntN(7)
		taken := rng.IntN(seats + 1)
		c := skill.Room{Free: seats - taken, Taken: taken, Ranked: rng.IntN(2) == 0}
		centre := 900 + 1200*rng.Float64()
		for range rng.IntN(taken + 1) {
			c.Ratings = append(c.Ratings, centre+300*rng.NormFloat64())
		}
		switch rng.IntN(10) {
		case 0: // nobody waits
		case 1:
			c.Since = t0.Add(time.Duration(rng.Int64N(int64(time.Minute))))
		default:
			c.Since = ago(time.Duration(rng.Int64N(int64(90 * time.Second))))
		}
		rooms[i] = c
	}
	return rooms
}

// wait is how long a room's first player has waited at t0, as Room
// documents it.
func wait(c skill.Room) time.Duration {
	if c.Since.IsZero() || c.Since.After(t0) {
		return 0
	}
	return t0.Sub(c.Since)
}

// within reports whether every rated player of c is within the room's
// window of newcomer.
func within(r skill.Rule, c skill.Room, newcomer float64) bool {
	w := r.Window(wait(c))
	for _, x := range c.Ratings {
		if math.Abs(x-newcomer) > w && !math.IsInf(w, 1) {
			return false
		}
	}
	return true
}

// referencePick is Pick written plainly: the candidates' sort keys,
// sorted, and the least.
func referencePick(r skill.Rule, rooms []skill.Room, newcomer float64, rated bool) int {
	type key struct {
		otherKind, free int // 0 for the newcomer's kind; free sorts as -taken
		dist            float64
		i               int
	}
	var keys []key
	for i, c := range rooms {
		if c.Free <= 0 || rated && !within(r, c, newcomer) {
			continue
		}
		k := key{otherKind: 1, free: -c.Taken, i: i}
		if c.Ranked == rated {
			k.otherKind = 0
		}
		if rated {
			k.dist = math.Inf(1)
			if len(c.Ratings) > 0 {
				var sum float64
				for _, x := range c.Ratings {
					sum += x
				}
				k.dist = math.Abs(sum/float64(len(c.Ratings)) - newcomer)
			}
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return -1
	}
	return slices.MinFunc(keys, func(a, b key) int {
		switch {
		case a.otherKind != b.otherKind:
			return a.otherKind - b.otherKind
		case a.free != b.free:
			return a.free - b.free
		case a.dist < b.dist:
			return -1
		case a.dist > b.dist:
			return 1
		}
		return a.i - b.i
	}).i
}

// TestPickProperties checks Pick on seeded random rooms: it never picks a
// full room or one outside the window; it picks as the reference does;
// it opens a room only when no room with a free seat fits, and never
// while one waits past MaxWait; and it is deterministic and leaves the
// rooms as they were.
func TestPickProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for n := range 20000 {
		r, rooms := randRule(rng), randRooms(rng)
		newcomer, rated := 600+1800*rng.Float64(), rng.IntN(5) != 0
		before := clone(rooms)
		got := r.Pick(rooms, newcomer, rated, t0)
		if again := r.Pick(rooms, newcomer, rated, t0); again != got {
			t.Fatalf("case %d: Pick gave %d, then %d", n, got, again)
		}
		if !equalRooms(rooms, before) {
			t.Fatalf("case %d: Pick changed the rooms", n)
		}
		if want := referencePick(r, rooms, newcomer, rated); got != want {
			t.Fatalf("case %d: %+v %+v newcomer %v rated %v: Pick = %d, reference %d", n, r, rooms, newcomer, rated, got, want)
		}
		if got < -1 || got >= len(rooms) {
			t.Fatalf("case %d: Pick = %d of %d rooms", n, got, len(rooms))
		}
		if got >= 0 {
			if rooms[got].Free <= 0 {
				t.Fatalf("case %d: Pick chose full room %d %+v", n, got, rooms[got])
			}
			if rated && !within(r, rooms[got], newcomer) {
				t.Fatalf("case %d: Pick chose room %d %+v outside the window %v of %v", n, got, rooms[got], r.Window(wait(rooms[got])), newcomer)
			}
			continue
		}
		for i, c := range rooms {
			if c.Free > 0 && (!rated || within(r, c, newcomer)) {
				t.Fatalf("case %d: Pick opens a room, but room %d %+v fits %v", n, i, c, newcomer)
			}
			if c.Free > 0 && wait(c) >= r.MaxWait {
				t.Fatalf("case %d: Pick opens a room, but room %d %+v has waited past MaxWait %v", n, i, c, r.MaxWait)
			}
		}
	}
}

// TestPickPastMaxWaitTakesAnyone offers one room whose first player has
// waited MaxWait or longer, whatever its ratings, to newcomers from one
// end of the scale to the other.
func TestPickPastMaxWaitTakesAnyone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	r := skill.DefaultRule
	for n := range 2000 {
		c := skill.Room{Free: 1 + rng.IntN(3), Taken: 1 + rng.IntN(3), Ranked: rng.IntN(2) == 0,
			Since: ago(r.MaxWait + time.Duration(rng.Int64N(int64(time.Minute))))}
		for range c.Taken {
			c.Ratings = append(c.Ratings, 5000*rng.Float64())
		}
		for _, newcomer := range []float64{0, 5000, 5000 * rng.Float64(), math.NaN()} {
			if got := r.Pick([]skill.Room{c}, newcomer, true, t0); got != 0 {
				t.Fatalf("case %d: Pick(%+v, %v) = %d, want 0", n, c, newcomer, got)
			}
		}
	}
}

// TestPickExactRating offers one room of players all rated as the
// newcomer is, waiting any time, under any rule: it is picked.
func TestPickExactRating(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	for n := range 2000 {
		r := randRule(rng)
		newcomer := 5000 * rng.Float64()
		c := skill.Room{Free: 1 + rng.IntN(7), Taken: 1 + rng.IntN(7), Ranked: rng.IntN(2) == 0}
		for range 1 + rng.IntN(c.Taken) {
			c.Ratings = append(c.Ratings, newcomer)
		}
		if rng.IntN(2) == 0 {
			c.Since = ago(time.Duration(rng.Int64N(int64(2 * time.Minute))))
		}
		if got := r.Pick([]skill.Room{c}, newcomer, true, t0); got != 0 {
			t.Fatalf("case %d: %+v.Pick(%+v, %v) = %d, want 0", n, r, c, newcomer, got)
		}
	}
}

func clone(rooms []skill.Room) []skill.Room {
	out := slices.Clone(rooms)
	for i := range out {
		out[i].Ratings = slices.Clone(out[i].Ratings)
	}
	return out
}

func equalRooms(a, b []skill.Room) bool {
	return slices.EqualFunc(a, b, func(x, y skill.Room) bool {
		return x.Free == y.Free && x.Taken == y.Taken && x.Ranked == y.Ranked &&
			x.Since.Equal(y.Since) && slices.Equal(x.Ratings, y.Ratings)
	})
}
