package netcode

import (
	"encoding/binary"
	"errors"
	"net/netip"
	"time"

	"ttytanks/proto"
)

// The clear side of the server: the datagrams that come before a
// connection (Hello, Join), the room list (ListRooms), and anything else
// in the clear, which after the handshake is never genuine.

// clearDesk answers the clear datagrams: it holds the Server's parts it
// works with (admission's cookies, limits and bans; the connection table
// a Join makes a connection in; the room table a ListRooms pages), and
// its answers go out through the Server's outbox.
type clearDesk struct {
	adm   *admission
	conns *connTable
	rooms *roomTable
	fleet *fleetDesk
	out   *outbox
	tl    *tally
	drop  func(DropReason)
}

// onBadHeader drops a datagram whose clear header failed to parse with
// err; one of another version is told so, within the size it sent (no
// amplification).
func (s *clearDesk) onBadHeader(now time.Time, from netip.AddrPort, b []byte, err error) {
	s.drop(dropReasonFor(err))
	if errors.Is(err, proto.ErrVersion) && len(b) >= proto.HeaderLen+1 && s.adm.allow(from, now) {
		s.out.clear(from, &proto.Reject{Header: proto.Header{Session: sessionOf(b)}, Reason: proto.RejectVersion})
	}
}

// sessionOf reads the session field of a header that failed to parse for
// its version, so a Reject can name it.
func sessionOf(b []byte) uint64 {
	if len(b) < 12 {
		return 0
	}
	return binary.BigEndian.Uint64(b[4:12])
}

// onClear handles a clear datagram with header h and body b.
func (s *clearDesk) onClear(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	if h.Session == 0 {
		s.drop(DropMalformed) // session ids are never zero
		return
	}
	switch h.Type {
	case proto.TypeHello, proto.TypeJoin, proto.TypeListRooms:
		if s.adm.isBanned(from.Addr()) || s.adm.originBanned(from) {
			s.drop(DropBanned)
			return
		}
		// Unauthenticated requests: rate-limited per source before any
		// crypto work, in a table of fixed size.
		if !s.adm.allow(from, now) {
			s.drop(DropRateLimited)
			return
		}
		switch h.Type {
		case proto.TypeHello:
			s.onHello(now, from, h, b)
		case proto.TypeJoin:
			s.onJoin(now, from, h, b)
		default:
			s.onListRooms(now, from, h, b)
		}
	default:
		if h.Type.Sealed() {
			s.drop(DropClear) // a session's packet must come sealed
			return
		}
		s.drop(DropUnexpected)
	}
}

// onHello answers a Hello with a Challenge: a stateless cookie.
func (s *clearDesk) onHello(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	if _, err := proto.ParseHelloBody(h, b); err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	s.out.clear(from, &proto.Challenge{Header: proto.Header{Session: h.Session}, Cookie: s.adm.cookie(from, h.Session, now)})
}

// onJoin answers a Join whose cookie is valid with the Accept of its
// connection (conns.go); a bad cookie gets a clear Reject, as do the
// connection limits.
func (s *clearDesk) onJoin(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	j, err := proto.ParseJoinBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	rtt, err := s.adm.verify(j.Cookie, from, j.Session, now)
	if err != nil {
		s.drop(DropBadCookie)
		s.rejectClear(from, j.Session, proto.RejectBadCookie)
		return
	}
	if s.adm.heldOut(s.adm.origin(from), now) {
		// A kicked player's prefix: no key exchange, no connection.
		s.drop(DropKicked)
		s.rejectClear(from, j.Session, proto.RejectKicked)
		return
	}
	a, no := s.conns.accept(now, from, &j, rtt, s.adm.capExempt(from), func() bool { return s.adm.allowKex(from, now) }, s.adm.random)
	if a == nil {
		s.drop(no.drop)
		if no.reply != 0 {
			s.rejectClear(from, j.Session, no.reply)
		}
		return
	}
	s.tl.handshake()
	s.out.clear(from, a)
}

// onListRooms answers a ListRooms whose cookie is good with one page of
// the public rooms.
func (s *clearDesk) onListRooms(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	q, err := proto.ParseListRoomsBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if _, err := s.adm.verify(q.Cookie, from, q.Session, now); err != nil {
		s.drop(DropBadCookie)
		s.rejectClear(from, q.Session, proto.RejectBadCookie) // no connection: a sealed Reject would be dropped unsent
		return
	}
	page := proto.RoomList{Header: proto.Header{Session: q.Session}, ClientTime: q.ClientTime, Offset: q.Offset}
	s.rooms.page(&page, s.fleet.elsewhere)
	s.fleet.page(&page, func(name string) bool {
		r := s.rooms.byName(name)
		return r != nil && !r.opened().private()
	})
	s.out.clear(from, &page)
}

// rejectClear answers a Join, a ListRooms, or a datagram of another
// version, with a Reject in the clear: there is no connection to seal it
// for.
func (s *clearDesk) rejectClear(to netip.AddrPort, session uint64, r proto.RejectReason) {
	s.out.clear(to, &proto.Reject{Header: proto.Header{Session: session}, Reason: r})
}
