package cli

import (
	"fmt"
	"io"
	"time"

	"ttytanks/internal/statsfile"
	"ttytanks/netcode"
)

// statsSampler takes the server's figures for the status line, the
// dashboard and --stats-json, and feeds each sample to the load meter.
// Only serve's own goroutine uses it.
type statsSampler struct {
	sd    *netcode.ServerDriver
	meter statsfile.Meter
}

// sample returns the server's figures now.
func (s *statsSampler) sample() netcode.ServerStats {
	var st netcode.ServerStats
	s.sd.Do(func(srv *netcode.Server) { st = srv.Stats() })
	s.meter.Add(time.Now(), st.DatagramsIn, st.DatagramsOut)
	return st
}

// load is the server's load as of the samples so far, with st's players,
// rooms and tick quantiles.
func (s *statsSampler) load(st *netcode.ServerStats) statsfile.Load { return s.meter.Load(st) }

// write writes the figures now to the --stats-json file.
func (s *statsSampler) write(file string) error {
	st := s.sample()
	return statsfile.Write(file, st, s.load(&st))
}

// writeAtExit is write for serve's exit: a failure is told on stderr.
func (s *statsSampler) writeAtExit(file string, stderr io.Writer) {
	if err := s.write(file); err != nil {
		fmt.Fprintf(stderr, "ttytanks serve: --stats-json: %v\n", err)
	}
}
