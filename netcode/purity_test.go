package netcode

import (
	"testing"

	"ttytanks/netcode/internal/partcheck"
)

// edgeFiles are the files that may touch the outside world: the drivers.
// Everything else in the package is core.
var edgeFiles = map[string]bool{"driver.go": true, "driver_server.go": true, "driver_client.go": true, "driver_lobby.go": true,
	"driver_pauseclock.go": true}

// TestCoresDoNoIO: the cores read no clock, no entropy and no socket
// themselves: time comes in as now (or through ClientConfig.Clock), random
// bytes through an injected io.Reader (driver.go supplies the defaults).
func TestCoresDoNoIO(t *testing.T) { partcheck.NoIO(t, ".", edgeFiles, 30) }

// TestPartsOwnTheirFields enforces that a part's state is changed and read
// only through its methods (STYLE 6b): everyone else, the composing Client
// and Server included, calls the methods of the parts; the rooms call
// their host's; the drivers use only the cores' methods. The seat table's
// rows (seats, spectators and their links) are read by the room that
// holds the table, and written only by the table; the counters of the
// Client and the Server are written only in the file that declares them.
func TestPartsOwnTheirFields(t *testing.T) {
	partcheck.Owned(t, partcheck.Parts{Path: "ttytanks/netcode",
		Owned: []string{
			// the server
			"Server", "clearDesk", "admission", "helloLimiter", "kexLimiter", "hashedBuckets", "prefixLimiter", "load", "connTable", "conn", "pathCheck", "roomTable", "room",
			"seatTable", "inputBuffer", "match", "spectatorFeed", "serverClock", "tally", "outbox", "drainState", "tickHistogram",
			"ladderDesk", "ladderClaim",
			// the client
			"Client", "session", "handshake", "clientConn", "serverTime", "msClock", "timeline", "clockSync", "TickClock", "linkStats", "LobbyClient",
			"VelocityPredictor", "ewma", "rate", "spark", "ladderBox",
			// both
			"epochs", "seqWindow", "window", "Ring",
			// the drivers
			"ServerDriver", "ClientDriver", "Lobby",
		},
		Rows: []string{"seat", "spectator", "link", "clientCounters", "traffic"},
	})
}
