package netcode

import (
	"net/netip"
	"time"
	"ttytanks/proto"

	"ttytanks/game"
)

// Status is where a client is in its life cycle.
type Status uint8

const (
	// StatusConnecting: sending Hello/Join, no answer yet.
	StatusConnecting Status = iota
	// StatusWaiting: seated, waiting for the server to fill the match.
	StatusWaiting
	// StatusPlaying: the match runs and the client predicts.
	StatusPlaying
	// StatusReconnecting: nothing heard from the server for a while.
	StatusReconnecting
	// StatusClosed: the session is over; View.Message says why.
	StatusClosed
)

// String returns a short lower-case name for the status.
func (s Status) String() string {
	switch s {
	case StatusConnecting:
		return "connecting"
	case StatusWaiting:
		return "waiting"
	case StatusPlaying:
		return "playing"
	case StatusReconnecting:
		return "reconnecting"
	case StatusClosed:
		return "closed"
	}
	return "unknown"
}

// SparkLen is the number of samples kept for each sparkline.
const SparkLen = 48

// Metrics are the client's netcode figures, as the sidebar shows them.
type Metrics struct {
	// LocalTick is the client's predicted tick; ServerTick the newest tick
	// the server has reported.
	LocalTick, ServerTick game.Tick
	// Rollbacks counts States that contradicted what the player was first
	// shown of their own tank at that tick (position, HP, hitstun, life).
	Rollbacks uint64
	// ReplayLast and ReplayMax are the ticks replayed on the last State and
	// the most ever.
	ReplayLast, ReplayMax int
	// ReplayCostLast, P95 and P99 are wall-clock costs of restore+replay.
	ReplayCostLast, ReplayCostP95, ReplayCostP99 time.Duration
	// RTT is the smoothed round-trip time.
	RTT time.Duration
	// InputLead is how many ticks LocalTick is ahead of the server's
	// present, estimated from ServerTick, the time since it was reported and
	// half the RTT (0 for a spectator, or while not playing).
	InputLead int32
	// ArrivalMargin is how early (positive) or late (negative) the server
	// says our inputs arrive, smoothed; ArrivalMarginP5 and P50 are the 5th
	// percentile and median of the last 256 reports.
	ArrivalMargin, ArrivalMarginP5, ArrivalMarginP50 time.Duration
	// Guessed is how many of our ticks the server stepped with a guess
	// (our last input held, or neutral), as its Acks report.
	Guessed uint64
	// Redundancy is how many inputs each Input datagram carries now (more
	// under loss, see clocksync.go).
	Redundancy int
	// LossUp and LossDown are packet-loss fractions (0..1) client→server and
	// server→client.
	LossUp, LossDown float64
	// LossUpMeasured and LossDownMeasured report whether each estimate
	// spans LossMinSamples datagrams; before that it means little.
	LossUpMeasured, LossDownMeasured bool
	// StateDelay is LocalTick − (tick of the newest State), in ticks.
	StateDelay int32
	// HashMismatches counts authoritative hashes our world disagreed with;
	// Resyncs counts explicit resynchronisations.
	HashMismatches, Resyncs uint64
	// FullStates and DeltaStates count the States taken whole and as a
	// delta against a State we held (PROTOCOL.md §5.7); BaseMisses counts
	// deltas against one we no longer held, which we could not use.
	FullStates, DeltaStates, BaseMisses uint64
	// BytesUpPerSec and BytesDownPerSec are payload bandwidth over the
	// last second; BytesUp and BytesDown are totals.
	BytesUpPerSec, BytesDownPerSec float64
	BytesUp, BytesDown             uint64
	// DatagramsUp counts every datagram sent to the server; Dropped counts
	// datagrams received and ignored (malformed, from elsewhere, for another
	// session or match, or out of place).
	DatagramsUp, Dropped uint64
	// RTTSpark and ReplaySpark hold the last SparkLen samples, oldest first
	// (RTT in ms, replay cost in µs); N says how many are filled.
	RTTSpark, ReplaySpark   [SparkLen]float64
	RTTSparkN, ReplaySparkN int
}

// View is what a renderer needs to draw one frame. It is a copy: the
// renderer may keep it while the client runs on.
type View struct {
	Status Status
	// Message explains StatusClosed or StatusReconnecting, for the player.
	Message string
	// Notice, once set, tells the player something that happened to the
	// session: a seat lost to a freeze of this computer longer than the
	// server holds a seat, and a new one taken; a server of the fleet
	// that stopped answering, and the join through the first one again.
	Notice string
	// Server is the server the session talks to: the one asked, or the
	// one of its fleet a Redirect sent it to.
	Server netip.AddrPort
	// Slot is our seat, or -1 when spectating.
	Slot int
	// Need is how many more players the server waits for (StatusWaiting).
	Need int
	// Room is the room's name, Code a private room's join code ("" for a
	// public one), Rounds the match's win condition (0: none).
	Room, Code string
	Rounds     int
	// Names holds each slot's player name ("" for an empty seat);
	// Connected is false for a seat whose player's connection is lost.
	Names     [game.MaxPlayers]string
	Connected [game.MaxPlayers]bool
	// World is the newest predicted state; Maze its maze.
	World game.Snapshot
	Maze  game.Maze
	// Metrics are the netcode figures.
	Metrics Metrics
	// Chat holds the room's newest ChatN lines, oldest first (notices
	// from the server among them); ChatTotal counts every line shown so
	// far, so a renderer sees a new one even when the window is full.
	Chat      [ChatKeep]ChatEntry
	ChatN     int
	ChatTotal uint64
	// Ladder is what the server said of its ladder (AskLadder).
	Ladder LadderView
	// Rated holds the rating changes of the match shown, by slot, once
	// the server rated it (PROTOCOL.md §4.15); empty before, and for a
	// match that is not rated.
	Rated []proto.RatingChange
	// Recorded is true once the server said it recorded the match shown
	// for its ladder (a Rated of it came): the match was ranked. With
	// Rated empty it rated nobody; a casual match's, or one the server's
	// ladder failed to record, stays false.
	Recorded bool
}
