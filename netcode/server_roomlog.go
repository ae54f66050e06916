package netcode

import (
	"time"

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

// peerAddr returns where the peer of l comes from: its UDP address, or
// its SSH client's.
func (r *room) peerAddr(l *link) string {
	if peerTransport(l) == "ssh" {
		if from := r.h.sshFrom(l.addr); from != "" {
			return from
		}
	}
	return l.addr.String()
}

// logJoined logs a peer that took a place in r: slot is its seat, -1 for
// a spectator.
func (r *room) logJoined(l *link, slot int) {
	msg := "player joined"
	if slot < 0 {
		msg = "spectator joined"
	}
	r.h.logger().Info(msg, "room", r.name, "name", l.name, "transport", peerTransport(l), "addr", r.peerAddr(l),
		"slot", slot, "match", r.match.matchID())
}

// logLeft logs a player who lost its seat in r, and why.
func (r *room) logLeft(l *link, why string) {
	r.h.logger().Info("player left", "room", r.name, "name", l.name, "transport", peerTransport(l), "addr", r.peerAddr(l),
		"reason", why, "after", ticksToDuration(r.h.clock().now().Diff(l.joined)))
}

// ticksToDuration returns n ticks as time, to the second's tenth.
func ticksToDuration(n int32) time.Duration {
	return (time.Duration(max(n, 0)) * TickDuration).Round(100 * time.Millisecond)
}

// matchDuration returns how long r's match has played, from its first
// tick to the server's tick now.
func (r *room) matchDuration() time.Duration {
	start, _ := r.match.origin()
	return ticksToDuration(r.h.clock().now().Diff(start))
}
