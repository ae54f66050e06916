package netcode

import (
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// PlayerStats is the server's view of one seat.
type PlayerStats struct {
	Slot int
	Name string
	Bot  bool
	Addr string
	// SSHFrom is the IP address of an SSH player's client (Addr is then
	// the in-process address its session plays from); "" otherwise.
	SSHFrom string
	// SSH is set for a player who plays through the SSH front end.
	SSH       bool
	Connected bool
	// MarginMs is how early (positive) or late the player's latest input
	// arrived.
	MarginMs int
	// RealTicks, HeldTicks and NeutralTicks count the ticks the server used
	// the player's real input, repeated its last one, or used neutral.
	RealTicks, HeldTicks, NeutralTicks uint64
	// LateInputs counts Input datagrams that arrived after their newest
	// tick was simulated.
	LateInputs uint64
	Score      uint16
	// Room is the name of the player's room.
	Room string
}

// RoomStats is the server's view of one room.
type RoomStats struct {
	RoomInfo
	// Code is a private room's join code (the operator sees it).
	Code  string
	Match uint32
	Tick  game.Tick
	// TickP50 and TickP99 are the room's step durations over the last 10 s.
	TickP50, TickP99 time.Duration
	Players          []PlayerStats
	// SpectatorsSSH counts the spectators of the room who watch through
	// the SSH front end (of Spectators).
	SpectatorsSSH int
}

// ServerStats is a snapshot of the server's counters.
type ServerStats struct {
	Match      uint32
	Running    bool
	Tick       game.Tick
	Need       int
	Players    []PlayerStats
	Spectators int
	// LobbyViewers counts the lobby's viewers holding a place in its chat.
	LobbyViewers int
	// Drops counts dropped datagrams by reason (index with a DropReason).
	Drops [numDropReasons]uint64
	// TickP50 and TickP99 are the driver's tick durations over the last 10 s.
	TickP50, TickP99 time.Duration
	// BytesIn and BytesOut are payload totals; DatagramsIn counts every
	// datagram received, junk included, DatagramsOut every one sent.
	BytesIn, BytesOut, DatagramsIn, DatagramsOut uint64
	// RealTicks, HeldTicks and NeutralTicks sum the players'.
	RealTicks, HeldTicks, NeutralTicks uint64
	// Accepted counts datagrams that were not dropped: every datagram
	// received is either accepted or dropped with a reason.
	Accepted uint64
	// Reconnects counts seats resumed with a token; Timeouts places freed
	// after FreeAfter of silence; Idled seats freed after Idle without
	// intent.
	Reconnects, Timeouts, Idled uint64
	// Departed holds the figures of the last players who left or timed
	// out (at most departedMemory), oldest first.
	Departed []PlayerStats
	// Faults counts matches stopped by a panic in the server (each one is
	// logged with its stack).
	Faults uint64
	// Connections counts the sealed connections held; Migrations the
	// moves of a connection to a new address; PathLimited the datagrams
	// not sent to a moved connection's address while it was unchecked
	// (the 1x rule); Unsealable those dropped because their session had no
	// connection there.
	Connections                         int
	Migrations, PathLimited, Unsealable uint64
	// Slips counts the times the server fell more than MaxCatchUpTicks
	// behind its clock and restarted it; SkippedTicks the ticks so lost.
	Slips, SkippedTicks uint64
	// Rooms lists every room, in the order they opened.
	Rooms []RoomStats
	// Ticks counts the server's ticks run: it grows while the loop runs.
	Ticks uint64
	// TickHist is the driver's tick durations since the start.
	TickHist TickHistogram
	// MatchesStarted counts the matches whose countdown began,
	// MatchesFinished those that reached their results; Handshakes the
	// Joins answered with an Accept.
	MatchesStarted, MatchesFinished, Handshakes uint64
	// Rejects counts the Rejects sent, by reason (index with a
	// proto.RejectReason).
	Rejects [proto.MaxRejectReason + 1]uint64
	// Draining is set once the server drains (Server.Drain); Drained
	// once its drain is done.
	Draining, Drained bool
	// Fleet is what the server knows of its fleet (SetFleet).
	Fleet FleetStats
	// Ladder is the ladder's figures (ServerConfig.Ladder).
	Ladder LadderStats
}

// LadderStats are a server's figures of its ladder.
type LadderStats struct {
	On bool
	// Pending counts the jobs queued or out with the driver.
	Pending int
	// Recorded counts the matches recorded, Rated those of them rated;
	// Failed the jobs the store failed (each logged).
	Recorded, Rated, Failed uint64
}

// FleetStats are a server's figures of its fleet.
type FleetStats struct {
	// Lost: the fleet's store is out of reach, and the server is on its
	// own.
	Lost bool
	// Servers counts the other servers, Players and Capacity add up
	// theirs.
	Servers, Players, Capacity int
	// Redirects counts the Requests sent to another server.
	Redirects uint64
}

// DroppedTotal returns the number of dropped datagrams.
func (st *ServerStats) DroppedTotal() uint64 {
	var n uint64
	for _, d := range st.Drops {
		n += d
	}
	return n
}

// Stats returns the server's counters: totals, and each room. The
// top-level Match, Running, Tick and Need are the first room's.
func (s *Server) Stats() ServerStats {
	st := ServerStats{Drops: s.drops,
		BytesIn: s.traffic.bytesIn, BytesOut: s.out.total(), DatagramsIn: s.traffic.datagramsIn, DatagramsOut: s.out.sent(),
		Accepted: s.traffic.accepted}
	st.RealTicks, st.HeldTicks, st.NeutralTicks, st.Reconnects, st.Timeouts, st.Idled, st.Faults = s.tl.figures()
	st.Connections, st.Migrations, st.PathLimited, st.Unsealable = s.conns.figures()
	st.TickP50, st.TickP99 = s.busy.quantiles()
	st.Slips, st.SkippedTicks = s.busy.figures()
	st.MatchesStarted, st.MatchesFinished, st.Handshakes = s.tl.events()
	st.Ticks, st.TickHist, st.Rejects = s.clk.ticks(), s.ticks.figures(), s.out.refused()
	st.Draining, st.Drained = s.Draining(), s.Drained()
	st.Fleet.Lost, st.Fleet.Redirects = s.fleet.lost(), s.fleet.sent()
	st.Fleet.Servers, st.Fleet.Players, st.Fleet.Capacity = s.fleet.size()
	st.Ladder = s.ladder.figures()
	now := s.cfg.Clock.Now()
	first := true
	for _, r := range s.rooms.appendAll(nil) {
		if r == s.rooms.lobbyRoom() {
			st.LobbyViewers = r.places().spectatorCount()
			continue
		}
		rs := r.stats(now)
		st.Players = append(st.Players, rs.Players...)
		st.Spectators += rs.Spectators
		if first {
			first = false
			st.Match, st.Running, st.Tick, st.Need = rs.Match, r.game().live(), rs.Tick, r.places().free()
		}
		st.Rooms = append(st.Rooms, rs)
	}
	st.Departed = append(st.Departed, s.gone...)
	return st
}
