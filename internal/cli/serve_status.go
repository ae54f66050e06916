package cli

import (
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"ttytanks/internal/statsfile"
	"ttytanks/netcode"
)

// logStatus writes the operator's periodic status line.
// drain, when not empty, says how the drain goes.
// fleet, when not empty, says how the fleet looks.
func logStatus(l *slog.Logger, st *netcode.ServerStats, load statsfile.Load, drain, fleet string) {
	attrs := []any{"load", load.String(), "match", st.Match, "running", st.Running, "tick", uint32(st.Tick), "need", st.Need,
		"rooms", len(st.Rooms), "players", len(st.Players), "spectators", st.Spectators, "tick_p99", st.TickP99.Round(time.Microsecond),
		"in_bytes", st.BytesIn, "out_bytes", st.BytesOut, "dropped", st.DroppedTotal()}
	// Each player's figures while they fit a line; a host with more
	// players has --stats-json for them.
	for _, p := range st.Players[:min(len(st.Players), maxStatusPlayers)] {
		key := "p" + strconv.Itoa(p.Slot)
		if len(st.Rooms) > 1 {
			key = p.Room + "." + key // slots repeat from room to room
		}
		attrs = append(attrs, key, fmt.Sprintf("%s margin=%dms real=%d held=%d neutral=%d",
			p.Name, p.MarginMs, p.RealTicks, p.HeldTicks, p.NeutralTicks))
	}
	if len(st.Players) > maxStatusPlayers {
		attrs = append(attrs, "more_players", len(st.Players)-maxStatusPlayers)
	}
	if drain != "" {
		attrs = append(attrs, "drain", drain)
	}
	if fleet != "" {
		attrs = append(attrs, "fleet", fleet)
	}
	l.Info("status", attrs...)
}

// maxStatusPlayers is how many players a status line details.
const maxStatusPlayers = 16
