package statsfile

import "fmt"

// Load is the server's own cost over the last seconds, from its
// process's rusage and its datagram counters (the file's "load").
type Load struct {
	// WindowS is the span the rates cover (up to 10 s; 0: not yet known).
	WindowS float64 `json:"window_s"`
	// CPUPerS is CPU seconds used per wall second: 1 is one whole core.
	CPUPerS          float64 `json:"cpu_per_s"`
	DatagramsInPerS  float64 `json:"datagrams_in_per_s"`
	DatagramsOutPerS float64 `json:"datagrams_out_per_s"`
	// Players and Rooms are counted at the end of the window; the tick
	// quantiles cover every room stepped together, over the last 10 s.
	Players   int     `json:"players"`
	Rooms     int     `json:"rooms"`
	TickP50us float64 `json:"tick_p50_us"`
	TickP99us float64 `json:"tick_p99_us"`
}

// String is the dashboard's load line.
func (l Load) String() string {
	if l.WindowS == 0 {
		return "measuring…"
	}
	return fmt.Sprintf("cpu %.1f%% of a core · %.0f datagrams/s in · %.0f out", 100*l.CPUPerS, l.DatagramsInPerS, l.DatagramsOutPerS)
}
