package skill_test

import (
	"math"
	"testing"
	"time"

	"ttytanks/internal/skill"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// ago returns t0 less d: the Since of a room whose first player has
// waited d at t0.
func ago(d time.Duration) time.Time { return t0.Add(-d) }

func TestWindow(t *testing.T) {
	r := skill.Rule{Base: 150, Widen: 10, MaxWait: 30 * time.Second}
	inf := math.Inf(1)
	for _, tc := range []struct {
		rule skill.Rule
		wait time.Duration
		want float64
	}{
		{r, 0, 150},
		{r, -5 * time.Second, 150},
		{r, 500 * time.Millisecond, 155},
		{r, 15 * time.Second, 300},
		{r, 30*time.Second - time.Millisecond, 449.99},
		{r, 30 * time.Second, inf},
		{r, time.Hour, inf},
		{skill.Rule{}, 0, inf},
		{skill.Rule{Base: 100, MaxWait: time.Minute}, 59 * time.Second, 100},
		{skill.Rule{Base: 10, Widen: -5, MaxWait: time.Minute}, 10 * time.Second, 0},
	} {
		if got := tc.rule.Window(tc.wait); math.Abs(got-tc.want) > 1e-9 && got != tc.want {
			t.Errorf("%+v.Window(%v) = %v, want %v", tc.rule, tc.wait, got, tc.want)
		}
	}
}

func TestFullest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rooms []skill.Room
		want  int
	}{
		{"none", nil, -1},
		{"all full", []skill.Room{{Free: 0, Taken: 4}, {Free: 0, Taken: 2}}, -1},
		{"fullest with a seat", []skill.Room{{Free: 3, Taken: 1}, {Free: 0, Taken: 4}, {Free: 1, Taken: 3}}, 2},
		{"first on a tie", []skill.Room{{Free: 2, Taken: 2}, {Free: 2, Taken: 2}}, 0},
		{"ratings ignored", []skill.Room{{Free: 1, Taken: 1, Ratings: []float64{900}}, {Free: 1, Taken: 1, Ratings: []float64{1500}}}, 0},
	} {
		if got := skill.Fullest(tc.rooms); got != tc.want {
			t.Errorf("%s: Fullest = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestPick walks the preferences one at a time.
func TestPick(t *testing.T) {
	r := skill.Rule{Base: 100, Widen: 10, MaxWait: 30 * time.Second}
	for _, tc := range []struct {
		name     string
		rooms    []skill.Room
		newcomer float64
		rated    bool
		want     int
	}{
		{"no rooms: open one", nil, 1500, true, -1},
		{"too far: open one",
			[]skill.Room{{Free: 1, Taken: 1, Ratings: []float64{1800}, Ranked: true}}, 1500, true, -1},
		{"at the window's edge",
			[]skill.Room{{Free: 1, Taken: 1, Ratings: []float64{1600}, Ranked: true}}, 1500, true, 0},
		{"every player within, not the mean",
			[]skill.Room{{Free: 2, Taken: 2, Ratings: []float64{1450, 1650}, Ranked: true}}, 1540, true, -1},
		{"the window widens with the wait",
			[]skill.Room{{Free: 1, Taken: 1, Ratings: []float64{1800}, Ranked: true, Since: ago(20 * time.Second)}}, 1500, true, 0},
		{"past MaxWait anyone",
			[]skill.Room{{Free: 1, Taken: 1, Ratings: []float64{4000}, Ranked: true, Since: ago(30 * time.Second)}}, 0, true, 0},
		{"a room nobody waits in keeps Base",
			[]skill.Room{{Free: 1, Taken: 3, Ratings: []float64{1800}, Ranked: true}}, 1650, true, -1},
		{"a Since after now counts as no wait",
			[]skill.Room{{Free: 1, Taken: 1, Ratings: []float64{1800}, Ranked: true, Since: t0.Add(time.Hour)}}, 1650, true, -1},
		{"full rooms skipped",
			[]skill.Room{{Free: 0, Taken: 4, Ratings: []float64{1500}, Ranked: true}, {Free: 3, Taken: 1, Ratings: []float64{1500}, Ranked: true}}, 1500, true, 1},
		{"the fullest within",
			[]skill.Room{{Free: 3, Taken: 1, Ratings: []float64{1500}, Ranked: true}, {Free: 1, Taken: 3, Ratings: []float64{1520, 1540, 1560}, Ranked: true}}, 1500, true, 1},
		{"a tie goes to the closest mean",
			[]skill.Room{{Free: 2, Taken: 2, Ratings: []float64{1420, 1500}, Ranked: true}, {Free: 2, Taken: 2, Ratings: []float64{1480, 1540}, Ranked: true}}, 1500, true, 1},
		{"then to the first",
			[]skill.Room{{Free: 2, Taken: 2, Ratings: []float64{1450, 1550}, Ranked: true}, {Free: 2, Taken: 2, Ratings: []float64{1500, 1500}, Ranked: true}}, 1500, true, 0},
		{"a rated newcomer prefers a ranked room",
			[]skill.Room{{Free: 1, Taken: 3, Ratings: []float64{1500}}, {Free: 3, Taken: 1, Ratings: []float64{1550}, Ranked: true}}, 1500, true, 1},
		{"or takes a casual one",
			[]skill.Room{{Free: 1, Taken: 3, Ratings: []float64{1500}}, {Free: 3, Taken: 1, Ratings: []float64{1750}, Ranked: true}}, 1500, true, 0},
		{"a room of guests fits anyone, after one with ratings",
			[]skill.Room{{Free: 1, Taken: 1, Ranked: true}, {Free: 1, Taken: 1, Ratings: []float64{1590}, Ranked: true}}, 1500, true, 1},
		{"a room of guests fits anyone",
			[]skill.Room{{Free: 1, Taken: 1, Ranked: true}, {Free: 1, Taken: 1, Ratings: []float64{1900}, Ranked: true}}, 1500, true, 0},
		{"a guest ignores the window",
			[]skill.Room{{Free: 1, Taken: 1, Ratings: []float64{2400}}}, 0, false, 0},
		{"a guest prefers a casual room",
			[]skill.Room{{Free: 1, Taken: 3, Ratings: []float64{1500}, Ranked: true}, {Free: 3, Taken: 1}}, 0, false, 1},
		{"a guest takes a ranked one, the fullest",
			[]skill.Room{{Free: 3, Taken: 1, Ranked: true}, {Free: 1, Taken: 3, Ratings: []float64{2400}, Ranked: true}}, 0, false, 1},
		{"a guest's ties go to the first",
			[]skill.Room{{Free: 2, Taken: 2, Ratings: []float64{900, 1000}}, {Free: 2, Taken: 2, Ratings: []float64{1500}}}, 1500, false, 0},
	} {
		if got := r.Pick(tc.rooms, tc.newcomer, tc.rated, t0); got != tc.want {
			t.Errorf("%s: Pick = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestQuiet: a quiet server seats a newcomer whom a rule would seat alone
// with whoever waits, the fullest room with a player and a seat; a room of
// the rule's with a player in it stands.
func TestQuiet(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rooms []skill.Room
		i     int
		want  int
	}{
		{"no rooms: open one", nil, -1, -1},
		{"a new room, none waits: open one", []skill.Room{{Free: 0, Taken: 2}}, -1, -1},
		{"a new room, one waits: there", []skill.Room{{Free: 0, Taken: 2}, {Free: 1, Taken: 1, Ratings: []float64{1145}, Ranked: true}}, -1, 1},
		{"an empty room, one waits: there", []skill.Room{{Free: 1, Taken: 1, Ratings: []float64{1145}, Ranked: true}, {Free: 2, Ranked: true}}, 1, 0},
		{"an empty ranked room, one waits in a casual one: there", []skill.Room{{Free: 2, Ranked: true}, {Free: 1, Taken: 1}}, 0, 1},
		{"the fullest of those who wait", []skill.Room{{Free: 3, Taken: 1}, {Free: 4}, {Free: 1, Taken: 3}, {Free: 1, Taken: 3}}, 1, 2},
		{"empty rooms only: the rule's", []skill.Room{{Free: 2}, {Free: 2}}, 1, 1},
		{"the rule's room has a player: it stands", []skill.Room{{Free: 1, Taken: 3}, {Free: 3, Taken: 1}}, 1, 1},
	} {
		if got := skill.Quiet(tc.rooms, tc.i); got != tc.want {
			t.Errorf("%s: Quiet(%d) = %d, want %d", tc.name, tc.i, got, tc.want)
		}
	}
}

func TestBusy(t *testing.T) {
	for _, tc := range []struct {
		arrivals, seats int
		want            bool
	}{{0, 2, false}, {3, 2, false}, {4, 2, true}, {7, 4, false}, {8, 4, true}} {
		if got := skill.Busy(tc.arrivals, tc.seats); got != tc.want {
			t.Errorf("Busy(%d, %d) = %v, want %v", tc.arrivals, tc.seats, got, tc.want)
		}
	}
}
