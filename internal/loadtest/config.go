package loadtest

import (
	"io"
	"time"

	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// Config is what a load test runs: how many clients, how fast they
// start, how long they play, and how.
type Config struct {
	// Clients is how many clients (or SSH sessions) to run.
	Clients int
	// Duration is how long to run, the ramp included; the test then stops
	// by itself.
	Duration time.Duration
	// Ramp is how many clients start per second.
	Ramp float64
	// PerAddr is how many clients share one loopback source address
	// (the server's seats per address).
	PerAddr int
	// ServerStats is the file a local serve --stats-json --stats-every
	// writes ("": none): its load figures join the report.
	ServerStats string
	// Progress is where to draw a progress line (nil: nowhere).
	Progress io.Writer

	// The UDP clients' choices (Run; RunSSH ignores them).

	// Predict runs full predicting client cores (and counts hash
	// mismatches) instead of light ones.
	Predict bool
	// Bot makes the clients play as the built-in bot does (it needs
	// Predict: a light client has no world to look at); else they play
	// at random.
	Bot bool
	// Room is where every client joins.
	Room netcode.RoomRequest
	// Sim is the network simulator put around each client's socket (when
	// Active), each seeded from Seed and the client's number; Seed seeds
	// the clients' play and their session ids too.
	Sim  transport.Impairment
	Seed uint64
}

// wrap puts the network simulator around client socket t, seeded with
// seed, when it is active.
func (c *Config) wrap(t transport.Transport, seed uint64) transport.Transport {
	if !c.Sim.Active() {
		return t
	}
	return transport.NewSimTransport(t, c.Sim, c.Sim, seed)
}

// rampS is how long, in seconds, starting every client takes at c.Ramp
// a second (at most the run's duration).
func (c *Config) rampS() float64 { return min(float64(c.Clients)/c.Ramp, c.Duration.Seconds()) }
