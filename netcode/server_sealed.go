package netcode

import (
	"net/netip"
	"time"
	"ttytanks/internal/ladder"

	"ttytanks/proto"
)

// The sealed side of the server: a datagram of a connection is opened
// once (conns.go) into its connection, the header it stands for and its
// body, and its packet goes where it belongs: a Request to admission and
// placement, an Input or a Leave to the room its match id names (one map
// lookup), a PathResponse to the connection's path check. Nothing that
// fails to open is answered.

// onSealed opens a sealed datagram and hands its packet on.
func (s *Server) onSealed(now time.Time, from netip.AddrPort, sh proto.SealedHeader, b []byte) {
	c := s.conns.lookup(sh.Conn)
	if c == nil {
		s.drop(DropUnknownConn)
		return
	}
	if s.adm.isBanned(from.Addr()) {
		s.drop(DropBanned)
		return
	}
	in, why, ok := s.conns.open(now, from, c, b)
	if !ok {
		s.drop(why)
		return
	}
	if in.moved {
		s.rooms.moveLink(in.left, c.addr(), c.id())
	}
	if in.challenge {
		s.out.sealed(c.id(), c.pathChallenge(now, s.adm.random))
	}
	switch in.h.Type {
	case proto.TypeRequest:
		if !c.at(from) {
			// Where a connection asks for a place, it is judged by its
			// address (the per-address limits, the places it supersedes),
			// so only at an address it has shown it receives at: the one
			// its cookie proved, or one it moved to and answered the path
			// check from. The client repeats its Request until then.
			s.drop(DropMoved)
			return
		}
		s.onRequest(now, c, in.h, in.body)
	case proto.TypeInput:
		if l, told := c.retell(now); told {
			// Told to leave (its Leave lost, or sent where it no longer
			// is): it holds no place, and hears why again.
			if l != nil {
				s.out.sealed(c.id(), l)
			}
			s.drop(DropUnknownPlayer)
			return
		}
		s.onInput(now, c, in.h, in.body)
	case proto.TypeLeave:
		s.onLeave(now, c, in.h, in.body)
	case proto.TypeChat:
		s.onChat(now, c, in.h, in.body)
	case proto.TypeLadderQuery:
		s.onLadderQuery(now, c, in.h, in.body)
	case proto.TypeChatAck:
		a, err := proto.ParseChatAckBody(in.h, in.body)
		if err != nil {
			s.drop(dropReasonFor(err))
			return
		}
		if r := s.rooms.byMatch(a.Match); r != nil {
			s.inRoom(r, func() { r.chatAck(c.addr(), c.id(), &a) })
		} else {
			s.drop(DropUnknownPlayer)
		}
	case proto.TypePathResponse:
		d, err := proto.ParsePathBody(in.h, in.body)
		if err != nil {
			s.drop(dropReasonFor(err))
			return
		}
		if moved, old := s.conns.pathResponse(c, now, from, d); moved {
			// The places of the connection move with it: the replies,
			// the dashboard, the per-address limits and bans see the new
			// address.
			s.rooms.moveLink(old, c.addr(), c.id())
			if l, _ := c.retell(now); l != nil {
				s.out.sealed(c.id(), l) // told to leave where it was
			}
		}
	default:
		s.drop(DropUnexpected)
	}
}

// onRequest handles a connection's Request: a place, the same answer to a
// repeat, or a place taken back with a reconnect token and its proof.
func (s *Server) onRequest(now time.Time, c *conn, h proto.Header, b []byte) {
	q, err := proto.ParseRequestBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if !c.identifies(&q.Identity, s.vouches) {
		s.drop(DropBadIdentity)
		return
	}
	if q.Token != (proto.Token{}) {
		if r, st, sp := s.rooms.byToken(&q.Token, q.Spectate, now); r != nil {
			l := placeLink(st, sp)
			if l.conn == c.id() {
				// A repeated Request of the connection that took it back.
				s.inRoom(r, func() { r.giveBack(st, sp, nil, now) })
				return
			}
			if !c.proves(l.resume, q.Proof) {
				s.drop(DropBadProof)
				s.out.sealed(c.id(), &proto.Reject{Reason: proto.RejectBadToken})
				return
			}
		}
	}
	s.admit(now, c, &q)
}

// placeLink returns the link of a seat or a spectator's place.
func placeLink(st *seat, sp *spectator) *link {
	if st != nil {
		return &st.link
	}
	return &sp.link
}

// admit places the peer of a Request that came on connection c: a
// repeated Request gets the same answer again, a reconnect takes its
// place back, a newcomer gets a place or a Reject.
func (s *Server) admit(now time.Time, c *conn, q *proto.Request) {
	from := c.addr()
	// A repeated Request (our Start was lost) gets the same answer again.
	if r, st, sp := s.rooms.byConn(from, c.id()); r != nil {
		s.inRoom(r, func() { r.giveBack(st, sp, nil, now) })
		return
	}
	// A reconnect: the token of a place we still hold, from a connection
	// that proved (onRequest) it holds the session the token was issued
	// to. It takes the place over, score and all.
	if q.Token != (proto.Token{}) {
		if r, st, sp := s.rooms.byToken(&q.Token, q.Spectate, now); r != nil {
			l := s.newLink(now, c, proto.SanitizeName(q.Name), c.player(), 0)
			s.inRoom(r, func() { r.giveBack(st, sp, &l, now) })
			return
		}
	}
	// A new connection from the very address and port of a peer we hold:
	// that peer's socket is gone (a port is one socket's at a time), so
	// its place is freed for the newcomer.
	if s.drain.active() {
		// Draining: the places held keep theirs (above), nobody new
		// gets one here; the fleet's other servers take them.
		if s.redirect(now, c, q) {
			return
		}
		s.out.sealed(c.id(), &proto.Reject{Reason: proto.RejectDraining})
		return
	}
	s.rooms.each(func(r *room) {
		s.inRoom(r, func() { r.supersede(from, c.id(), now) })
	})
	if s.adm.originBanned(from) {
		s.drop(DropBanned) // an SSH player of a banned address, on a connection it had
		return
	}
	if s.adm.heldOut(s.adm.origin(from), now) {
		s.drop(DropKicked)
		s.out.sealed(c.id(), &proto.Reject{Reason: proto.RejectKicked})
		return
	}
	if q.Kind == proto.RoomCode && !s.adm.isTrusted(from.Addr()) && !s.rooms.mayGuess(s.adm.origin(from), now) {
		s.drop(DropRateLimited) // no tries left: not even the fleet's codes are looked up
		s.out.sealed(c.id(), &proto.Reject{Reason: proto.RejectSlowDown})
		return
	}
	if s.redirect(now, c, q) {
		return
	}
	if !s.adm.isTrusted(from.Addr()) {
		seats, specs := s.rooms.countFrom(s.adm.origin(from), s.adm.origin)
		if (q.Spectate && q.Kind != proto.RoomLobby && specs >= s.cfg.MaxSpectatorsPerAddr) || (!q.Spectate && seats >= s.cfg.MaxSeatsPerAddr) {
			s.drop(DropAddrLimit)
			s.out.sealed(c.id(), &proto.Reject{Reason: proto.RejectAddrLimit})
			return
		}
	}
	name, who, rating, ok := s.ladderName(now, c, q)
	if !ok {
		return // waiting for the ladder, or refused
	}
	l := s.newLink(now, c, name, who, rating)
	r, why := s.place(q, &l, now)
	if r == nil {
		s.out.sealed(c.id(), &proto.Reject{Reason: why})
		return
	}
	// One prefix watches a room from a few places at most, so a handful
	// of addresses cannot take all of a room's spectator places.
	if q.Spectate && !s.adm.isTrusted(from.Addr()) {
		if _, specs := r.places().countFrom(s.adm.origin(from), s.adm.origin); specs >= s.spectatorShare(r) {
			s.drop(DropAddrLimit)
			s.out.sealed(c.id(), &proto.Reject{Reason: proto.RejectAddrLimit})
			return
		}
	}
	s.inRoom(r, func() { r.seat(l, q.Spectate, now) })
}

// newLink returns the link of a place given on connection c at now, to
// the player who (zero: a guest) of that name and rating.
func (s *Server) newLink(now time.Time, c *conn, name string, who ladder.Key, rating float64) link {
	rtt, resume := c.handshake()
	return link{conn: c.id(), addr: c.addr(), name: name, heard: now, rtt: rtt, resume: resume, origin: s.adm.origin(c.addr()),
		joined: s.clk.now(), who: who, rating: rating}
}

// onInput routes an Input to its room by its match id: one map lookup.
func (s *Server) onInput(now time.Time, c *conn, h proto.Header, b []byte) {
	in, err := proto.ParseInputBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	r := s.rooms.byMatch(in.Match)
	if r == nil {
		s.drop(DropWrongMatch)
		return
	}
	s.inRoom(r, func() { r.input(now, c.addr(), c.id(), &in) })
}

// onLeave takes a peer's Leave to its room, or, when the room no longer
// holds it, acknowledges it again from the memory of departures.
func (s *Server) onLeave(now time.Time, c *conn, h proto.Header, b []byte) {
	l, err := proto.ParseLeaveBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if l.Reason != proto.LeaveQuit {
		s.drop(DropUnexpected) // a client only ever quits
		return
	}
	from := c.addr()
	if r := s.rooms.byMatch(l.Match); r != nil {
		handled := false
		s.inRoom(r, func() { handled = r.leave(now, from, c.id(), &l) })
		if handled {
			return
		}
	}
	// The acknowledgement of an earlier Leave was lost: say it again
	// (the same size as the Leave: no amplification).
	d, ok := s.adm.leftRecently(from, c.id(), now)
	if !ok || d.match != l.Match || d.player != l.Player {
		s.drop(DropUnknownPlayer)
		return
	}
	s.out.sealed(c.id(), &proto.Leave{Header: proto.Header{Match: d.match, Player: d.player}, Reason: proto.LeaveQuit})
}

// spectatorsPerRoom is how many of a room's spectator places one prefix
// may hold: an eighth of them, at least one.
func (s *Server) spectatorsPerRoom() int { return max(1, s.cfg.MaxSpectators/8) }

// onChat hands a connection's chat line to the room its match id names.
func (s *Server) onChat(now time.Time, c *conn, h proto.Header, b []byte) {
	p, err := proto.ParseChatBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	r := s.rooms.byMatch(p.Match)
	if r == nil {
		s.drop(DropUnknownPlayer)
		return
	}
	from := c.addr()
	s.inRoom(r, func() { r.chat(now, from, c.id(), &p) })
}
