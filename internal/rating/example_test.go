package rating_test

import (
	"fmt"

	"ttytanks/internal/rating"
)

// A free-for-all of three new players: the first won 3 rounds, the others
// 1 each.
func ExampleConfig_UpdateMatch() {
	cfg := rating.Config{Tau: rating.DefaultTau}
	before := []rating.Rating{rating.New(), rating.New(), rating.New()}
	after, err := cfg.UpdateMatch(before, []int{3, 1, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range after {
		fmt.Printf("%.0f ± %.0f\n", r.R, r.RD)
	}
	// Output:
	// 1747 ± 253
	// 1376 ± 253
	// 1376 ± 253
}
