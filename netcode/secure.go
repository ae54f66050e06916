package netcode

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"net/netip"
	"time"

	"ttytanks/proto"
)

// The sealed transport, the server's side (PROTOCOL.md §3.2, §4.3 and
// §4.12–§4.14): the key exchange that follows a valid cookie, the
// connections it creates, the opening of every datagram after it and the
// sealing of every datagram sent to it, and the moves of a connection to
// a new address.
//
// The rest of the server never sees a sealed byte. A connection stands
// before it as a session whose id is the connection id and whose address
// is the connection's current one: opened datagrams are rebuilt in their
// clear form (proto.AppendClear) and handled as before, and the clear
// datagrams it sends to a session are sealed on their way out (sealOut).

// Connection limits: a connection costs the server a key exchange and a
// few hundred bytes, so the connections an address holds and the
// connections held at all are bounded, and a connection that never gets
// a place, falls silent, or holds no place any more and is quiet, is
// forgotten.
const (
	maxConns        = 1 << 16
	connsPerAddr    = 32
	connUnplacedFor = proto.CookieLifetime
	connSilentFor   = FreeAfter + 5*time.Second
	connIdleFor     = leftFor // a repeated Leave is still answered
	// placeChecksPerSweep bounds the connections a sweep asks the rooms
	// about (each a scan of the rooms' places).
	placeChecksPerSweep = 512
	connSweepEvery      = 60 // ticks
	pathChallengeGap    = 200 * time.Millisecond
	// moveEvery is how often a connection may move: a path that
	// alternates (a load-balancing NAT, an attacker on the path) moves it
	// at most this often, with a challenge at most every
	// pathChallengeGap, not at every datagram.
	moveEvery   = 250 * time.Millisecond
	epochMemory = 4
)

// conn is one session's sealed connection, from its Accept on.
type conn struct {
	id      uint32
	session uint64         // the client's session id, from its handshake
	eph     [32]byte       // the client's ephemeral key: a repeated Join shows it again
	hk      handKey        // where hand keeps it
	cookie  proto.Cookie   // its Join's: with eph, what tells a repeated Join
	origin  netip.Addr     // the address the connection was made from, for the per-address cap
	path    netip.AddrPort // where its datagrams go; the rest of the server knows it by this
	// checking is set while path has not answered our PathChallenge:
	// until it does, budget bounds what we send there (the bytes received
	// from it, less the bytes sent).
	checking    bool
	budget      int
	challenge   [proto.PathDataLen]byte
	challengeAt time.Time
	newCheck    bool      // the next challenge draws new data: a new address
	movedAt     time.Time // the last move
	seal        *proto.Sealer
	open        *proto.Opener
	resume      [proto.KeyLen]byte
	transcript  [sha256.Size]byte
	accept      proto.Accept // resent on a repeated Join
	rtt         time.Duration
	made, heard time.Time
	placed      bool // a Start went out on it
	epochs      epochs
}

// epochs maps the match epochs of a connection to the (match, player)
// pairs they stand for: the last epochMemory of them.
type epochs struct {
	last uint8 // the newest epoch given (0: none)
	e    [epochMemory]epoch
}

type epoch struct {
	n      uint8
	match  uint32
	player uint8
}

// forStart returns the epoch of a Start for match and player: the newest
// one if it stands for the same pair, else a new one.
func (e *epochs) forStart(match uint32, player uint8) uint8 {
	if cur := &e.e[e.last%epochMemory]; e.last != 0 && cur.match == match && cur.player == player {
		return e.last
	}
	e.last++
	if e.last == 0 {
		e.last = 1 // 0 stands for no match
	}
	e.e[e.last%epochMemory] = epoch{n: e.last, match: match, player: player}
	return e.last
}

// learn records what a received Start says epoch n stands for.
func (e *epochs) learn(n uint8, match uint32, player uint8) {
	if n == 0 {
		return
	}
	e.e[n%epochMemory] = epoch{n: n, match: match, player: player}
	e.last = n
}

// of returns the epoch that stands for match and player, or 0.
func (e *epochs) of(match uint32, player uint8) uint8 {
	for i := range e.e {
		if x := &e.e[i]; x.n != 0 && x.match == match && x.player == player {
			return x.n
		}
	}
	return 0
}

// lookup returns the pair epoch n stands for.
func (e *epochs) lookup(n uint8) (match uint32, player uint8, ok bool) {
	if x := &e.e[n%epochMemory]; n != 0 && x.n == n {
		return x.match, x.player, true
	}
	return 0, 0, false
}

// handKey finds the connection a Join made, so a repeated Join is
// answered with the same Accept.
type handKey struct {
	addr    netip.AddrPort
	session uint64
}

// secure is the server's table of connections.
type secure struct {
	key    ed25519.PrivateKey
	pub    [proto.ServerKeyLen]byte
	conns  map[uint32]*conn
	hand   map[handKey]*conn
	perIP  map[netip.Addr]int
	clear  []byte // a rebuilt clear datagram
	opened []byte // an opened body
	sweep  []*conn
	// migrations counts the connections moved to a new address,
	// pathLimited the datagrams not sent to an address still checked.
	migrations, pathLimited, unsealable uint64
}

func newSecure(key ed25519.PrivateKey) secure {
	s := secure{key: key, conns: map[uint32]*conn{}, hand: map[handKey]*conn{}, perIP: map[netip.Addr]int{},
		clear: make([]byte, 0, proto.MaxDatagram+proto.HeaderLen), opened: make([]byte, 0, proto.MaxDatagram)}
	copy(s.pub[:], key.Public().(ed25519.PublicKey))
	return s
}

// onJoin answers a Join whose cookie is valid with an Accept: the key
// exchange, the first public-key work the server does for a peer. A
// repeated Join (the Accept was lost) gets the same Accept again.
func (s *Server) onJoin(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
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
	hk := handKey{from, j.Session}
	if c := s.sec.hand[hk]; c != nil && c.eph == j.Eph && c.cookie == j.Cookie {
		c.heard = now // its client is there, its Accept lost: not one to sweep now
		s.out.put(from, &c.accept)
		return
	}
	ip := limitKey(from.Addr())
	if len(s.sec.conns) >= maxConns {
		s.drop(DropConnLimit)
		s.rejectClear(from, j.Session, proto.RejectFull)
		return
	}
	if s.sec.perIP[ip] >= connsPerAddr && !s.adm.isTrusted(from.Addr()) && !MemPrefix.Contains(from.Addr().Unmap()) {
		s.drop(DropConnLimit)
		s.rejectClear(from, j.Session, proto.RejectAddrLimit)
		return
	}
	c, err := s.newConn(j, from, rtt, now)
	if err != nil {
		s.drop(DropMalformed) // a client key that gives no secret
		return
	}
	if old := s.sec.hand[hk]; old != nil {
		s.forget(old) // the client started its handshake over
	}
	s.sec.conns[c.id] = c
	s.sec.hand[hk] = c
	s.sec.perIP[ip]++
	s.out.put(from, &c.accept)
}

// newConn runs the server's half of the key exchange for j.
func (s *Server) newConn(j proto.Join, from netip.AddrPort, rtt time.Duration, now time.Time) (*conn, error) {
	var seed [32]byte
	s.adm.random(seed[:])
	eph, err := ecdh.X25519().NewPrivateKey(seed[:])
	if err != nil {
		return nil, err
	}
	c := &conn{session: j.Session, eph: j.Eph, hk: handKey{from, j.Session}, cookie: j.Cookie, origin: limitKey(from.Addr()), path: from, rtt: rtt, made: now, heard: now}
	for c.id == 0 || s.sec.conns[c.id] != nil {
		var b [4]byte
		s.adm.random(b[:])
		c.id = binary.BigEndian.Uint32(b[:])
	}
	var ephPub [32]byte
	copy(ephPub[:], eph.PublicKey().Bytes())
	c.transcript = proto.Transcript(j.Session, j.Cookie, j.Eph, ephPub, s.sec.pub[:], c.id)
	keys, err := proto.DeriveKeys(eph, j.Eph, c.transcript)
	if err != nil {
		return nil, err
	}
	if c.seal, err = proto.NewSealer(keys.ServerToClient, proto.ServerToClient, c.id); err != nil {
		return nil, err
	}
	if c.open, err = proto.NewOpener(keys.ClientToServer, proto.ClientToServer, c.id); err != nil {
		return nil, err
	}
	c.resume = keys.Resume
	c.accept = proto.Accept{Header: proto.Header{Session: j.Session}, Conn: c.id, Eph: ephPub, ServerKey: s.sec.pub}
	copy(c.accept.Sig[:], proto.SignTranscript(s.sec.key, c.transcript))
	return c, nil
}

// forget drops a connection.
func (s *Server) forget(c *conn) {
	if s.sec.conns[c.id] != c {
		return
	}
	delete(s.sec.conns, c.id)
	if s.sec.hand[c.hk] == c {
		delete(s.sec.hand, c.hk)
	}
	if s.sec.perIP[c.origin]--; s.sec.perIP[c.origin] <= 0 {
		delete(s.sec.perIP, c.origin)
	}
}

// sweepConns forgets the connections that never got a place, those long
// silent (their places are freed by then), and those that hold no place
// (refused, left, released) and have been silent for connIdleFor: their
// sessions are over, and they must not count against their address's
// share for long.
func (s *Server) sweepConns(now time.Time) {
	s.sec.sweep = s.sec.sweep[:0]
	checks := placeChecksPerSweep
	for _, c := range s.sec.conns {
		silent := now.Sub(c.heard)
		if (!c.placed && now.Sub(c.made) > connUnplacedFor) || silent > connSilentFor ||
			(silent > connIdleFor && (!c.placed || !s.holdsPlace(c))) {
			s.sec.sweep = append(s.sec.sweep, c)
			continue
		}
		// A connection whose place is gone but that keeps talking (its
		// session is over: only an attacker keeping a slot goes on) is
		// found by a bounded sample each sweep: map order is random, so
		// every connection comes up in turn.
		if c.placed && checks > 0 && now.Sub(c.made) > connUnplacedFor {
			checks--
			if !s.holdsPlace(c) {
				s.sec.sweep = append(s.sec.sweep, c)
			}
		}
	}
	for _, c := range s.sec.sweep {
		s.forget(c)
	}
}

// holdsPlace reports whether a room holds a seat or a spectator's place
// for connection c.
func (s *Server) holdsPlace(c *conn) bool {
	r, _, _ := s.rooms.bySession(c.path, uint64(c.id))
	return r != nil
}

// onSealed opens a sealed datagram and hands its clear form to the
// handler of its type. Nothing that fails to open is answered.
func (s *Server) onSealed(now time.Time, from netip.AddrPort, sh proto.SealedHeader, b []byte) {
	c := s.sec.conns[sh.Conn]
	if c == nil {
		s.drop(DropUnknownConn)
		return
	}
	if s.adm.isBanned(from.Addr()) {
		s.drop(DropBanned)
		return
	}
	_, body, err := c.open.Open(s.sec.opened[:0], b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	ep, _, rest, err := proto.SplitSealedBody(sh.Type, body)
	if err != nil {
		s.drop(DropMalformed)
		return
	}
	c.heard = now
	if from != c.path && sh.PN == c.open.Newest() && now.Sub(c.movedAt) >= moveEvery {
		s.migrate(c, from, now)
	}
	if c.checking && from == c.path {
		c.budget += len(b)
		if now.Sub(c.challengeAt) >= pathChallengeGap {
			s.challengePath(c, now)
		}
	}
	hd := proto.Header{Type: sh.Type, Session: uint64(c.id), Seq: sh.PN}
	if m, p, ok := c.epochs.lookup(ep); ok {
		hd.Match, hd.Player = m, p
	}
	clear := proto.AppendClear(s.sec.clear[:0], hd, rest)
	switch sh.Type {
	case proto.TypeRequest:
		if c.checking {
			// Where a connection asks for a place, it is judged by its
			// address (the per-address limits, the places it supersedes),
			// so only at an address it has shown it receives at: the one
			// its cookie proved, or one it moved to and answered the path
			// check from. The client repeats its Request until then.
			s.drop(DropMoved)
			return
		}
		s.onRequest(now, c, hd, clear)
	case proto.TypeInput:
		s.onInput(now, c.path, hd, clear)
	case proto.TypeLeave:
		s.onLeave(now, c.path, hd, clear)
	case proto.TypePathResponse:
		s.onPathResponse(c, from, hd, clear)
	default:
		s.drop(DropUnexpected)
	}
}

// migrate moves connection c to the address to, at once: the rest of the
// server sends there from now on, no more than it receives from there
// until the path check is answered.
func (s *Server) migrate(c *conn, to netip.AddrPort, now time.Time) {
	old := c.path
	c.path, c.checking, c.budget = to, true, 0
	s.rooms.each(func(r *room) { r.seats.moveLink(old, to, uint64(c.id)) })
	s.sec.migrations++
	c.movedAt, c.newCheck = now, true
}

// challengePath sends a PathChallenge to c's unchecked address.
// The data is drawn once per check, so an answer to any of its repeats
// (the first may take longer than the repeat interval) ends it.
func (s *Server) challengePath(c *conn, now time.Time) {
	if c.newCheck {
		s.adm.random(c.challenge[:])
		c.newCheck = false
	}
	c.challengeAt = now
	s.out.put(c.path, &proto.PathChallenge{Header: proto.Header{Session: uint64(c.id)}, Data: c.challenge})
}

// onPathResponse ends the check of c's address when the response comes
// from it with the challenge's data.
func (s *Server) onPathResponse(c *conn, from netip.AddrPort, h proto.Header, b []byte) {
	d, err := proto.ParsePathBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if !c.checking || from != c.path || d != c.challenge {
		return // a late answer to an earlier check: harmless
	}
	c.checking, c.budget = false, 0
}

// onRequest handles a session's Request: a place, the same answer to a
// repeat, or a place taken back with a reconnect token and its proof.
func (s *Server) onRequest(now time.Time, c *conn, h proto.Header, b []byte) {
	q, err := proto.ParseRequestBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if q.Token != (proto.Token{}) {
		if r, st, sp := s.rooms.byToken(&q.Token, q.Spectate, now); r != nil {
			var l *link
			if st != nil {
				l = &st.link
			} else {
				l = &sp.link
			}
			if l.session == uint64(c.id) {
				// A repeated Request of the connection that took it back.
				s.inRoom(r, func() { s.rejoin(r, st, sp, now) })
				return
			}
			if proto.ResumeProof(l.resume, c.transcript) != q.Proof {
				s.drop(DropBadProof)
				s.reject(c.path, uint64(c.id), proto.RejectBadToken)
				return
			}
		}
	}
	s.admit(now, c.path, uint64(c.id), c.rtt, c.resume, &q)
}

// sealOut seals a datagram for the connection its header names, which
// must be at the address to, and returns where it goes: the connection's
// address, within its budget while that address is checked. ok is false
// when there is no such connection there, or the budget is spent (the
// datagram is dropped, counted): nothing is ever sealed for a connection
// and sent elsewhere.
func (s *Server) sealOut(to netip.AddrPort, b []byte) (netip.AddrPort, []byte, bool) {
	session := binary.BigEndian.Uint64(b[4:12])
	c := s.sec.conns[uint32(session)]
	if c == nil || session>>32 != 0 || c.path != to {
		s.sec.unsealable++
		return to, nil, false
	}
	t := proto.Type(b[3])
	match, player := binary.BigEndian.Uint32(b[12:16]), b[16]
	var ep uint8
	if t == proto.TypeStart {
		ep = c.epochs.forStart(match, player)
		c.placed = true
	} else if match != 0 {
		ep = c.epochs.of(match, player)
	}
	sealed, err := c.seal.SealPacket(b, ep)
	if err != nil {
		s.sec.unsealable++
		return to, nil, false
	}
	if c.checking {
		if len(sealed) > c.budget {
			s.sec.pathLimited++
			return to, nil, false
		}
		c.budget -= len(sealed)
	}
	return c.path, sealed, true
}
