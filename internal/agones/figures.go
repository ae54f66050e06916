package agones

import (
	"strconv"
	"unicode/utf8"

	"ttytanks/netcode"
)

// Figures are what the runner reports to Agones, from one sample of the
// game server.
type Figures struct {
	// Ticks counts the server's ticks run: it grows while the loop runs.
	Ticks uint64
	// Rooms counts the rooms open (the lobby is none).
	Rooms int
	// Players are the values of the players List: one per seated network
	// player (bots are none), in the server's order, each unique.
	Players []string
}

// maxPlayerValue bounds a players List value, in bytes.
const maxPlayerValue = 64

// FiguresOf returns the figures of a sample of the server's counters.
func FiguresOf(st *netcode.ServerStats) Figures {
	f := Figures{Ticks: st.Ticks, Rooms: len(st.Rooms)}
	seen := make(map[string]bool, len(st.Players))
	for i := range st.Players {
		p := &st.Players[i]
		if p.Bot {
			continue
		}
		v := PlayerValue(p.Room, p.Slot, p.Name)
		if !seen[v] {
			seen[v] = true
			f.Players = append(f.Players, v)
		}
	}
	return f
}

// PlayerValue returns a player's value in the players List: room, slot
// and name joined by slashes ("a/0/alice"), cut to 64 bytes of valid
// UTF-8. A seat's value stays the same while its player holds it, and no
// two seats share one (room names and names are at most 16 bytes).
func PlayerValue(room string, slot int, name string) string {
	v := room + "/" + strconv.Itoa(slot) + "/" + name
	if len(v) <= maxPlayerValue {
		return v
	}
	v = v[:maxPlayerValue]
	for len(v) > 0 && !utf8.ValidString(v) {
		v = v[:len(v)-1]
	}
	return v
}
