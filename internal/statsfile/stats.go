package statsfile

import (
	"encoding/json"

	"ttytanks/netcode"
)

// Stats is the whole file: the server's figures when it was written.
type Stats struct {
	Match        uint32            `json:"match"`
	Tick         uint32            `json:"tick"`
	Players      []Player          `json:"players"`
	Departed     []Player          `json:"departed"`
	Spectators   int               `json:"spectators"`
	Drops        map[string]uint64 `json:"drops"`
	TickP50us    float64           `json:"tick_p50_us"`
	TickP99us    float64           `json:"tick_p99_us"`
	DatagramsIn  uint64            `json:"datagrams_in"`
	DatagramsOut uint64            `json:"datagrams_out"`
	Load         Load              `json:"load"`
	Accepted     uint64            `json:"accepted"`
	BytesIn      uint64            `json:"bytes_in"`
	BytesOut     uint64            `json:"bytes_out"`
	Reconnects   uint64            `json:"reconnects"`
	Timeouts     uint64            `json:"timeouts"`
	Idled        uint64            `json:"idled"`
	Slips        uint64            `json:"slips"`
	SkippedTicks uint64            `json:"skipped_ticks"`
	Faults       uint64            `json:"faults"`
	Connections  int               `json:"connections"`
	Migrations   uint64            `json:"migrations"`
	PathLimited  uint64            `json:"path_limited"`
	Rooms        []Room            `json:"rooms"`
}

// Room is one open room's figures.
type Room struct {
	Name        string   `json:"name"`
	Private     bool     `json:"private,omitempty"`
	Code        string   `json:"code,omitempty"`
	Match       uint32   `json:"match"`
	Seats       int      `json:"seats"`
	Players     int      `json:"players"`
	Bots        int      `json:"bots"`
	Spectators  int      `json:"spectators"`
	State       string   `json:"state"`
	Round       int      `json:"round"`
	RoundsToWin int      `json:"rounds_to_win"`
	Leader      string   `json:"leader,omitempty"`
	LeaderScore int      `json:"leader_score"`
	TickP50us   float64  `json:"tick_p50_us"`
	TickP99us   float64  `json:"tick_p99_us"`
	Seated      []Player `json:"seated"`
}

// Player is one seated (or departed) player's figures; the ticks are
// counted as the server stepped them.
type Player struct {
	Room    string `json:"room"`
	Slot    int    `json:"slot"`
	Name    string `json:"name"`
	Bot     bool   `json:"bot"`
	Addr    string `json:"addr,omitempty"`
	SSHFrom string `json:"ssh_from,omitempty"` // an SSH player's client address (addr is then in-process)
	Real    uint64 `json:"real_ticks"`
	Held    uint64 `json:"held_ticks"`
	Neutral uint64 `json:"neutral_ticks"`
	Late    uint64 `json:"late_inputs"`
	Score   uint16 `json:"score"`
}

// Write writes the server's figures st, with its load, to file as JSON,
// mode 0600 (they hold private rooms' join codes and players'
// addresses), replacing the file whole.
func Write(file string, st netcode.ServerStats, load Load) error {
	b, err := json.MarshalIndent(fromServer(&st, load), "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(file, append(b, '\n'))
}

// fromServer is the file's form of st.
func fromServer(st *netcode.ServerStats, load Load) Stats {
	out := Stats{Match: st.Match, Tick: uint32(st.Tick), Players: players(st.Players), Departed: players(st.Departed),
		Spectators: st.Spectators, Drops: map[string]uint64{}, TickP50us: float64(st.TickP50) / 1e3,
		TickP99us: float64(st.TickP99) / 1e3, DatagramsIn: st.DatagramsIn, Accepted: st.Accepted, BytesIn: st.BytesIn,
		BytesOut: st.BytesOut, Reconnects: st.Reconnects, Timeouts: st.Timeouts, Idled: st.Idled, Slips: st.Slips, SkippedTicks: st.SkippedTicks, Faults: st.Faults,
		Connections: st.Connections, Migrations: st.Migrations, PathLimited: st.PathLimited,
		DatagramsOut: st.DatagramsOut, Load: load}
	for r, n := range st.Drops {
		if n > 0 {
			out.Drops[netcode.DropReason(r).String()] = n
		}
	}
	out.Rooms = []Room{}
	for _, r := range st.Rooms {
		out.Rooms = append(out.Rooms, Room{Name: r.Name, Private: r.Private, Code: r.Code, Match: r.Match, Seats: r.Seats,
			Players: r.RoomInfo.Players, Bots: r.Bots, Spectators: r.Spectators, State: r.State.String(), Round: r.Round,
			RoundsToWin: r.RoundsToWin, Leader: r.Leader, LeaderScore: r.LeaderScore, TickP50us: float64(r.TickP50) / 1e3,
			TickP99us: float64(r.TickP99) / 1e3, Seated: players(r.Players)})
	}
	return out
}

// players is the file's form of ps (an empty list, not null, for none).
func players(ps []netcode.PlayerStats) []Player {
	out := make([]Player, 0, len(ps))
	for _, p := range ps {
		out = append(out, Player{Room: p.Room, Slot: p.Slot, Name: p.Name, Bot: p.Bot, Addr: p.Addr, SSHFrom: p.SSHFrom, Real: p.RealTicks,
			Held: p.HeldTicks, Neutral: p.NeutralTicks, Late: p.LateInputs, Score: p.Score})
	}
	return out
}
