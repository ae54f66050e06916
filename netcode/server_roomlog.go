package netcode

import (
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

// What a room tells the log of its peers: who came (name, transport,
// address, room) and who went (why, after how long). One line per event,
// never per tick.

// peerTransport returns how the peer of l plays: "ssh" for an SSH
// session's client (an in-memory address), else "udp".
func peerTransport(l *link) string {
	if transport.MemPrefix.Contains(l.addr.Addr().Unmap()) {
		return "ssh"
	}
	return "udp"
}

// roomLog is what a room tells the log: its host's logger and the room's
// name.
type roomLog struct {
	h    host
	room string
}

// peerAddr returns where the peer of l comes from: its UDP address, or
// its SSH client's.
func (g roomLog) peerAddr(l *link) string {
	if peerTransport(l) == "ssh" {
		if from := g.h.sshFrom(l.addr); from != "" {
			return from
		}
	}
	return l.addr.String()
}

// joined logs a peer that took a place in match: slot is its seat, -1
// for a spectator.
func (g roomLog) joined(l *link, slot int, match uint32) {
	msg := "player joined"
	switch {
	case g.lobby():
		msg = "lobby viewer joined"
	case slot < 0:
		msg = "spectator joined"
	}
	g.h.logger().Info(msg, "room", g.room, "name", l.name, "transport", peerTransport(l), "addr", g.peerAddr(l),
		"slot", slot, "match", match)
}

// left logs a player who lost its seat, and why.
func (g roomLog) left(l *link, why string) {
	g.h.logger().Info("player left", "room", g.room, "name", l.name, "transport", peerTransport(l), "addr", g.peerAddr(l),
		"reason", why, "after", g.since(l.joined))
}

// spectatorLeft logs a spectator who quit.
func (g roomLog) spectatorLeft(l *link) {
	msg := "spectator left"
	if g.lobby() {
		msg = "lobby viewer left"
	}
	g.h.logger().Info(msg, "room", g.room, "name", l.name, "transport", peerTransport(l),
		"addr", g.peerAddr(l), "reason", "quit")
}

// since returns the time from tick t to the server's tick now, to the
// second's tenth: how long a peer stayed, or a match played.
func (g roomLog) since(t game.Tick) time.Duration {
	return ticksToDuration(g.h.clock().now().Diff(t))
}

// ticksToDuration returns n ticks as time, to the second's tenth.
func ticksToDuration(n int32) time.Duration {
	return (time.Duration(max(n, 0)) * TickDuration).Round(100 * time.Millisecond)
}

// chat logs a line said in the room at the debug level (the operator who
// wants to read the room's chat turns that level on; no other level
// writes what players say).
func (g roomLog) chat(l *link, slot int, text string) {
	g.h.logger().Debug("chat", "room", g.room, "name", l.name, "slot", slot, "addr", g.peerAddr(l), "text", text)
}

// muted logs the operator's mute (or unmute) of a player.
func (g roomLog) muted(l *link, on bool) {
	msg := "player muted"
	if !on {
		msg = "player unmuted"
	}
	g.h.logger().Info(msg, "room", g.room, "name", l.name, "addr", g.peerAddr(l))
}

// lobby reports whether the room is the lobby's chat room.
func (g roomLog) lobby() bool { return g.room == lobbyLogName }

// lobbyLogName is what the log calls the lobby's chat room.
const lobbyLogName = "(lobby)"

// logName is the name a room's lines give it: its own, "(lobby)" for the
// lobby's chat room (which has none).
func logName(spec roomSpec) string {
	if spec.lobby {
		return lobbyLogName
	}
	return spec.name
}
