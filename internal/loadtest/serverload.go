package loadtest

import (
	"context"
	"time"

	"ttytanks/internal/statsfile"
)

// serverLoad reads the server's figures from its stats file when the
// run's time is up (or ctx ends), before the clients leave: read after
// they have gone, the file would count only the players still there and
// a window that holds their leaving.
type serverLoad struct {
	done chan struct{}
	load *statsfile.Load
	err  error
}

// watchServerLoad reads file at began+d, or when ctx ends if sooner.
func watchServerLoad(ctx context.Context, file string, began time.Time, d time.Duration) *serverLoad {
	sl := &serverLoad{done: make(chan struct{})}
	go func() {
		defer close(sl.done)
		t := time.NewTimer(time.Until(began.Add(d)))
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		sl.load, sl.err = statsfile.ReadLoad(file, began)
	}()
	return sl
}

// wait returns what was read.
func (sl *serverLoad) wait() (*statsfile.Load, error) {
	<-sl.done
	return sl.load, sl.err
}
