package netcode

import (
	"log/slog"
	"net/netip"
	"time"
	"ttytanks/internal/ladder"

	"ttytanks/proto"
)

// roomHost is what a room sees of the Server that holds it (room.go's
// host interface): the outbox, the clock and counters, admission's
// tokens and memory of departures, the routing of match ids, the figures
// of players who left, and the log. Every room of a Server shares one.
type roomHost struct {
	out   *outbox
	clk   *serverClock
	tl    *tally
	adm   *admission
	rooms *roomTable
	gone  *[]PlayerStats
	drops func(DropReason)
	log   *slog.Logger
	drain *drainState
	chat  *chatGuard
	// record queues a ranked room's finished match for the ladder.
	record func(matchID uint32, m ladder.Match)
}

// trusted reports whether addr is in a trusted range (ServerConfig.Trusted).
func (h *roomHost) trusted(addr netip.Addr) bool { return h.adm.isTrusted(addr) }

// recordMatch queues a ranked room's finished match for the ladder.
func (h *roomHost) recordMatch(matchID uint32, m ladder.Match) { h.record(matchID, m) }

// send seals p for connection conn into the outbox.
func (h *roomHost) send(conn uint32, p proto.Packet) { h.out.sealed(conn, p) }

// chatMuted reports whether the operator muted the peer of l's prefix.
func (h *roomHost) chatMuted(l *link) bool { return h.chat.isMuted(l) }

// chatAllowed takes a chat line from the budget of l's prefix at now.
func (h *roomHost) chatAllowed(l *link, now time.Time) bool { return h.chat.allow(l, now) }

// clock returns the server's tick clock.
func (h *roomHost) clock() *serverClock { return h.clk }

// tally returns the server's counters of what rooms report.
func (h *roomHost) tally() *tally { return h.tl }

// token mints a reconnect token.
func (h *roomHost) token() proto.Token { return h.adm.token() }

// departed remembers that the peer of l left match as player at now.
func (h *roomHost) departed(l *link, match uint32, player uint8, now time.Time) {
	h.adm.departed(l.addr, l.conn, match, player, now)
}

// departedMemory is how many departed players' figures Stats keeps.
const departedMemory = 64

// remember keeps the figures of a player whose seat is about to be freed.
func (h *roomHost) remember(ps PlayerStats) {
	g := *h.gone
	if len(g) == departedMemory {
		g = append(g[:0], g[1:]...)
	}
	*h.gone = append(g, ps)
}

// freeMatch reports whether no room uses match id id.
func (h *roomHost) freeMatch(id uint32) bool { return h.rooms.byMatch(id) == nil }

// rerouted routes r's datagrams by its new match id.
func (h *roomHost) rerouted(r *room, old, id uint32) { h.rooms.rerouted(r, old, id) }

// sshFrom returns the address of the SSH client an in-memory peer at addr
// plays for ("" for any other peer).
func (h *roomHost) sshFrom(addr netip.AddrPort) string { return h.adm.sshFrom(addr) }

// drop counts a dropped datagram.
func (h *roomHost) drop(r DropReason) { h.drops(r) }

// logger returns the server's log.
func (h *roomHost) logger() *slog.Logger { return h.log }

// draining reports whether the server drains.
func (h *roomHost) draining() bool { return h.drain.active() }
