package statsfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadLoad: ReadLoad (loadtest --server-stats) takes the figures of
// a file serve rewrote during the run, and refuses one left by an earlier
// server (or one without a load block) with a message saying why.
func TestReadLoad(t *testing.T) {
	file := filepath.Join(t.TempDir(), "srv.json")
	body := `{"load":{"window_s":9.5,"cpu_per_s":0.25,"players":40,"rooms":10}}`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	began := time.Now().Add(-time.Minute)
	l, err := ReadLoad(file, began)
	if err != nil || l.CPUPerS != 0.25 || l.Players != 40 || l.Rooms != 10 {
		t.Fatalf("ReadLoad = %+v, %v; want cpu 0.25, 40 players, 10 rooms", l, err)
	}
	old := began.Add(-time.Hour)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadLoad(file, began); err == nil || !strings.Contains(err.Error(), "before this run began") {
		t.Errorf("a file written before the run: %v, want it refused as stale", err)
	}
	if err := os.WriteFile(file, []byte(`{"rooms":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadLoad(file, began); err == nil || !strings.Contains(err.Error(), "--stats-every") {
		t.Errorf("a file without load figures: %v, want a hint at --stats-every", err)
	}
	if _, err := ReadLoad(filepath.Join(t.TempDir(), "none.json"), began); err == nil {
		t.Error("a missing file gave no error")
	}
}
