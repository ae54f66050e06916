package transport

import (
	"testing"

	"ttytanks/netcode/internal/partcheck"
)

// TestPartsOwnTheirFields: each transport's state is its own (STYLE 6b).
func TestPartsOwnTheirFields(t *testing.T) {
	partcheck.Owned(t, partcheck.Parts{Path: "ttytanks/netcode/transport",
		Owned: []string{"UDP", "mmsgConn", "FDBatch", "MemNetwork", "Mem", "SimTransport", "MuxTransport", "Netsim", "SendQueue"}})
}
