package skill_test

import (
	"fmt"
	"time"

	"ttytanks/internal/skill"
)

// A newcomer at 1620: the full room is skipped, the room at 1900 is out
// of its ±170 window (150 and 2 s of 10), and of the two that fit, the
// fuller wins. At 2200 no room fits, until 13 s later the player at 1900
// has waited 15 s and the window is ±300.
func ExampleRule_Pick() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	rooms := []skill.Room{
		{Free: 0, Taken: 4, Ratings: []float64{1600, 1610, 1650, 1700}, Ranked: true},
		{Free: 3, Taken: 1, Ratings: []float64{1900}, Ranked: true, Since: now.Add(-2 * time.Second)},
		{Free: 3, Taken: 1, Ratings: []float64{1540}, Ranked: true, Since: now.Add(-5 * time.Second)},
		{Free: 2, Taken: 2, Ratings: []float64{1580, 1700}, Ranked: true, Since: now.Add(-1 * time.Second)},
	}
	r := skill.DefaultRule
	fmt.Println(r.Pick(rooms, 1620, true, now))
	fmt.Println(r.Pick(rooms, 2200, true, now))
	fmt.Println(r.Pick(rooms, 2200, true, now.Add(13*time.Second)))
	fmt.Println(skill.Fullest(rooms))
	// Output:
	// 3
	// -1
	// 1
	// 3
}
