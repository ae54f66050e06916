package ladder

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentRecords records matches from 8 goroutines at once over
// overlapping players: each write transaction takes the write lock at
// BEGIN, so none fails with SQLITE_BUSY on a snapshot another writer has
// moved past, and the sums come out whole.
func TestConcurrentRecords(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	const writers, each, players = 8, 25, 6
	for k := range players {
		if err := s.ClaimName(ctx, testKey(k), fmt.Sprintf("p%d", k)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				a, b := (w+i)%players, (w+i+1+i%(players-1))%players
				if a == b {
					b = (b + 1) % players
				}
				m := duel(testEpoch, testKey(a), testKey(b), fmt.Sprintf("p%d", a), fmt.Sprintf("p%d", b), i%3, (i+1)%3)
				if _, err := s.RecordMatch(ctx, m); err != nil {
					errs <- err
				}
				if _, err := s.Top(ctx, 3, 0); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := count(t, s, `SELECT count(*) FROM matches`); n != writers*each {
		t.Errorf("%d matches, want %d", n, writers*each)
	}
	if n := count(t, s, `SELECT sum(matches) FROM players`); n != 2*writers*each {
		t.Errorf("players have %d matches between them, want %d", n, 2*writers*each)
	}
}
