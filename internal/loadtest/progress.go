package loadtest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// showProgress redraws a progress line on w twice a second until ctx
// ends, then erases it: a bar of the time passed out of d since began,
// and what counts says.
func showProgress(ctx context.Context, w io.Writer, began time.Time, d time.Duration, counts func() string) {
	tk := time.NewTicker(500 * time.Millisecond)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			fmt.Fprint(w, "\r\x1b[K")
			return
		case <-tk.C:
		}
		frac := min(1, float64(time.Since(began))/float64(d))
		bar := strings.Repeat("█", int(frac*30)) + strings.Repeat("░", 30-int(frac*30))
		fmt.Fprintf(w, "\r%s %5.1fs of %v  %s\x1b[K", bar, time.Since(began).Seconds(), d, counts())
	}
}
