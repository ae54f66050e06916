package tests

import (
	"log/slog"
	"strings"
	"testing"

	"ttytanks/internal/sshfront"
	"ttytanks/internal/syncbuf"
)

// TestSSHKexRateLimitAndOneLogLine: one address opening connections as
// fast as it can gets its prefix's burst of key exchanges and no more,
// another address still gets in, and the refusals make one log line with
// their count, not a line each.
func TestSSHKexRateLimitAndOneLogLine(t *testing.T) {
	logs := &syncbuf.Buffer{}
	r := startSSHRig(t, func(c *sshRigConfig) {
		c.Kex = sshfront.KexLimits{Rate: 0.1, Burst: 3}
		c.Logger = slog.New(slog.NewTextHandler(logs, nil))
	})
	const tries = 40
	ok := 0
	for range tries {
		if c, err := r.sshFrom("127.0.10.1", "hasty"); err == nil {
			ok++
			c.Close()
		}
	}
	if ok != 3 {
		t.Errorf("%d of %d connections from one address got through, want its burst of 3", ok, tries)
	}
	if c, err := r.sshFrom("127.0.10.2", "other"); err != nil {
		t.Errorf("another address: %v", err)
	} else {
		c.Close()
	}
	r.close() // flushes the tally
	var lines []string
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "refused") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "key exchanges from the address too fast ×37") || !strings.Contains(lines[0], "top=127.0.10.1") {
		t.Errorf("log lines about refusals: %q; want one, counting 37 refused key exchanges of 127.0.10.1", lines)
	}
}
