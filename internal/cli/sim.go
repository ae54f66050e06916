package cli

import (
	"fmt"
	"time"
	"ttytanks/netcode/transport"

	"github.com/spf13/pflag"
)

// simFlags are the network-condition simulator flags shared by serve, join,
// play and loadtest.
type simFlags struct {
	latency, jitter    time.Duration
	loss, dup, reorder percent
	seed               uint64
}

func (f *simFlags) register(fs *pflag.FlagSet) {
	fs.DurationVar(&f.latency, "sim-latency", 0, "simulated one-way delay added to every datagram, each direction (e.g. 60ms)")
	fs.DurationVar(&f.jitter, "sim-jitter", 0, "simulated jitter: extra delay uniformly in ±this, each direction")
	fs.Var(&f.loss, "sim-loss", "simulated packet loss, each direction (e.g. 5% or 0.05)")
	fs.Var(&f.dup, "sim-dup", "simulated duplicate rate, each direction (e.g. 2%)")
	fs.Var(&f.reorder, "sim-reorder", "simulated reorder rate: datagrams held back 1-3 ticks (e.g. 5%)")
	fs.Uint64Var(&f.seed, "sim-seed", 1, "seed of the network simulator")
}

// changed reports whether any --sim-* flag was given.
func (f *simFlags) changed(fs *pflag.FlagSet) bool {
	for _, n := range []string{"sim-latency", "sim-jitter", "sim-loss", "sim-dup", "sim-reorder", "sim-seed"} {
		if fs.Changed(n) {
			return true
		}
	}
	return false
}

// impairment is the network the flags describe, the same each direction.
func (f *simFlags) impairment() transport.Impairment {
	return transport.Impairment{Latency: f.latency, Jitter: f.jitter, Loss: float64(f.loss),
		Dup: float64(f.dup), Reorder: float64(f.reorder)}
}

func (f *simFlags) check() error {
	if f.latency < 0 || f.jitter < 0 {
		return fmt.Errorf("--sim-latency and --sim-jitter must not be negative")
	}
	if f.latency > 10*time.Second || f.jitter > 10*time.Second {
		return fmt.Errorf("--sim-latency and --sim-jitter must be at most 10s")
	}
	return nil
}

// wrap puts the simulator around t when any --sim-* flag is set.
func (f *simFlags) wrap(t transport.Transport) transport.Transport {
	imp := f.impairment()
	if !imp.Active() {
		return t
	}
	return transport.NewSimTransport(t, imp, imp, f.seed)
}
