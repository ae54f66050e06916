package netcode

import (
	"log/slog"
	"net/netip"
	"time"

	"ttytanks/proto"
)

// The Server as its rooms' host (room.go's host interface): what a room
// may ask of the server that holds it.

// send seals p for connection conn into the outbox.
func (s *Server) send(conn uint32, p proto.Packet) { s.out.sealed(conn, p) }

// clock returns the server's tick clock.
func (s *Server) clock() *serverClock { return &s.clk }

// tally returns the server's counters of what rooms report.
func (s *Server) tally() *tally { return &s.tl }

// token mints a reconnect token.
func (s *Server) token() proto.Token { return s.adm.token() }

// departed remembers that the peer of l left match as player at now.
func (s *Server) departed(l *link, match uint32, player uint8, now time.Time) {
	s.adm.departed(l.addr, l.conn, match, player, now)
}

// departedMemory is how many departed players' figures Stats keeps.
const departedMemory = 64

// remember keeps the figures of a player whose seat is about to be freed.
func (s *Server) remember(ps PlayerStats) {
	if len(s.gone) == departedMemory {
		s.gone = append(s.gone[:0], s.gone[1:]...)
	}
	s.gone = append(s.gone, ps)
}

// freeMatch reports whether no room uses match id id.
func (s *Server) freeMatch(id uint32) bool { return s.rooms.byMatch(id) == nil }

// rerouted routes r's datagrams by its new match id.
func (s *Server) rerouted(r *room, old, id uint32) { s.rooms.rerouted(r, old, id) }

// sshFrom returns the address of the SSH client an in-memory peer at addr
// plays for ("" for any other peer).
func (s *Server) sshFrom(addr netip.AddrPort) string {
	if ip := addr.Addr().Unmap(); s.cfg.Origin != nil && MemPrefix.Contains(ip) {
		if o, ok := s.cfg.Origin(addr); ok {
			return o.String()
		}
	}
	return ""
}

// drop counts a dropped datagram.
func (s *Server) drop(r DropReason) {
	s.drops[r]++
	s.traffic.dropped++
}

// logger returns the server's log.
func (s *Server) logger() *slog.Logger { return s.log }
