package loadtest

import (
	"bytes"
	"strings"
	"testing"

	"ttytanks/internal/statsfile"
)

// A report says the load generator was the bound when its CPU was over
// 90% of its cores or its deadlines ran p99 over half a tick (8.3 ms)
// late, and why, in the table; otherwise it says it was not.
func TestReportSaysWhenTheGeneratorIsTheBound(t *testing.T) {
	for _, c := range []struct {
		cpu   float64
		cores int
		late  float64
		bound bool
		why   string
	}{
		{0.50, 1, 0.3, false, ""},
		{0.95, 1, 0.3, true, "its CPU was 95% of its 1 core"},
		{0.95, 2, 0.3, false, ""},
		{1.90, 2, 0.3, true, "its CPU was 95% of its 2 cores"},
		{0.50, 1, 6.0, false, ""},
		{0.50, 1, 9.0, true, "it ran its clients' deadlines p99 9.0 ms late"},
		{0.99, 1, 17.0, true, "its CPU was 99% of its 1 core, and it ran its clients' deadlines p99 17.0 ms late"},
	} {
		r := &Report{LoadCPUPerS: c.cpu, LoadCores: c.cores, LoadLateP99ms: c.late, Errors: map[string]int{}}
		r.judgeLoad()
		if r.LoadBound != c.bound || r.LoadBoundWhy != c.why {
			t.Errorf("CPU %.2f of %d cores, p99 %.1f ms late: bound %v (%q), want %v (%q)", c.cpu, c.cores, c.late, r.LoadBound, r.LoadBoundWhy, c.bound, c.why)
		}
		var out bytes.Buffer
		r.Print(&out)
		bound := strings.Contains(out.String(), "BOUND BY") && strings.Contains(out.String(), "THE LOAD GENERATOR: "+c.why+";")
		notBound := strings.Contains(out.String(), "bound by") && strings.Contains(out.String(), "not the load generator: ")
		if bound != c.bound || notBound == c.bound {
			t.Errorf("CPU %.2f of %d cores, p99 %.1f ms late: the table says\n%s", c.cpu, c.cores, c.late, out.String())
		}
	}
}

// The report says what span the server's figures cover, and says it
// loudly when that span reaches back before the ramp had ended.
func TestReportSaysTheServerWindow(t *testing.T) {
	for _, c := range []struct {
		window, duration, ramp float64
		want                   string
	}{
		{10, 40, 4, "its last 10.0 s, all after the ramp"},
		{10, 10, 2, "its last 10.0 s, MORE THAN THE 8.0 s AFTER THE RAMP"},
		{20.5, 10, 0.5, "its last 20.5 s, MORE THAN THE 9.5 s AFTER THE RAMP"},
	} {
		r := &Report{DurationS: c.duration, RampS: c.ramp, ServerLoad: &statsfile.Load{WindowS: c.window, CPUPerS: 0.1, Players: 4}}
		var b bytes.Buffer
		r.Print(&b)
		if !strings.Contains(b.String(), "server window          "+c.want) {
			t.Errorf("window %.1f s of a %.1f s run with a %.1f s ramp:\n%s\nwant %q", c.window, c.duration, c.ramp, b.String(), c.want)
		}
	}
}
