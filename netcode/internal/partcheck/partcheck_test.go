package partcheck

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what a check reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *recorder) Helper()                           {}

// TestChecksFindWhatTheyLookFor runs both checks on a fixture package that
// breaks each rule once, and requires each break reported, and nothing
// else.
func TestChecksFindWhatTheyLookFor(t *testing.T) {
	rec := &recorder{TB: t}
	Owned(rec, Parts{Dir: "testdata/bad", Path: "bad", Owned: []string{"counter"}, Rows: []string{"row"}})
	want := []string{"user.go:12:9: counter.n touched", "user.go:6:2: counter.n touched", "user.go:7:2: counter.n touched", "user.go:9:2: row.name touched"}
	if len(rec.errs) != len(want) {
		t.Fatalf("Owned reported %d problems, want %d: %q", len(rec.errs), len(want), rec.errs)
	}
	for i, w := range want {
		if !strings.Contains(rec.errs[i], w) {
			t.Errorf("Owned: %q, want it to say %q", rec.errs[i], w)
		}
	}
	rec = &recorder{TB: t}
	NoIO(rec, "testdata/bad", map[string]bool{"bad.go": true}, 1)
	got := strings.Join(rec.errs, "\n")
	if len(rec.errs) != 2 || !strings.Contains(got, "starts a goroutine") || !strings.Contains(got, "calls time.Now") {
		t.Fatalf("NoIO reported %q, want the goroutine and the clock", rec.errs)
	}
	rec = &recorder{TB: t}
	NoIO(rec, "testdata/bad", map[string]bool{"user.go": true}, 2)
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "only 1 core files") {
		t.Fatalf("NoIO with too few core files reported %q", rec.errs)
	}
}
