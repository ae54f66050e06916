package netcode

import (
	"crypto/ed25519"
	"encoding/binary"
	"net/netip"
	"time"

	"ttytanks/proto"
)

// The sealed transport, the server's side (PROTOCOL.md §3.2, §4.3 and
// §4.12–§4.14): the key exchange that follows a valid cookie, the
// connections it creates, the opening of every datagram after it into
// (connection, header, body) and the sealing of every packet sent on one,
// and the moves of a connection to a new address.

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
)

// connTable is the server's table of connections: by id for the receive
// path, by handshake for repeated Joins, and counted by address.
type connTable struct {
	key    ed25519.PrivateKey
	pub    [proto.ServerKeyLen]byte
	byID   map[uint32]*conn
	hand   map[handKey]*conn
	perIP  map[netip.Addr]int
	opened []byte // the body of the datagram being handled
	sweepQ []*conn
	// migrations counts the connections moved to a new address,
	// pathLimited the datagrams not sent to an address still checked,
	// unsealable those dropped for want of their connection.
	migrations, pathLimited, unsealable uint64
}

func newConnTable(key ed25519.PrivateKey) connTable {
	t := connTable{key: key, byID: map[uint32]*conn{}, hand: map[handKey]*conn{}, perIP: map[netip.Addr]int{},
		opened: make([]byte, 0, proto.MaxDatagram)}
	copy(t.pub[:], key.Public().(ed25519.PublicKey))
	return t
}

// refusal says why the connection table turned a Join away: the drop to
// count and the Reject to answer with (0: none).
type refusal struct {
	drop  DropReason
	reply proto.RejectReason
}

// accept answers a Join whose cookie is valid (rtt: the handshake's
// round trip so far) with the Accept of a new connection, the first
// public-key work the server does for a peer; a repeated Join (the
// Accept was lost) gets the same Accept again. exempt lifts the
// per-address cap; kex, asked only before a new key exchange, says
// whether the key-exchange budget has room for it (else the Join is
// dropped unanswered: its client repeats it). On refusal the Accept is
// nil.
func (t *connTable) accept(now time.Time, from netip.AddrPort, j *proto.Join, rtt time.Duration, exempt bool, kex func() bool, random func([]byte)) (*proto.Accept, refusal) {
	hk := handKey{from, j.Session}
	if c := t.hand[hk]; c != nil && c.repeats(j) {
		return c.acceptPacket(now), refusal{}
	}
	ip := limitKey(from.Addr())
	if len(t.byID) >= maxConns {
		return nil, refusal{DropConnLimit, proto.RejectFull}
	}
	if t.perIP[ip] >= connsPerAddr && !exempt {
		return nil, refusal{DropConnLimit, proto.RejectAddrLimit}
	}
	if !kex() {
		return nil, refusal{drop: DropRateLimited}
	}
	var seed [32]byte
	random(seed[:])
	id := t.freeID(random)
	c, err := newConn(id, j, from, rtt, now, seed, t.key, t.pub)
	if err != nil {
		return nil, refusal{drop: DropMalformed} // a client key that gives no secret
	}
	if old := t.hand[hk]; old != nil {
		t.forget(old) // the client started its handshake over
	}
	t.byID[id] = c
	t.hand[hk] = c
	t.perIP[ip]++
	return c.acceptPacket(now), refusal{}
}

// freeID draws a connection id no connection has.
func (t *connTable) freeID(random func([]byte)) uint32 {
	for {
		var b [4]byte
		random(b[:])
		if id := binary.BigEndian.Uint32(b[:]); id != 0 && t.byID[id] == nil {
			return id
		}
	}
}

// lookup returns the connection of id, or nil.
func (t *connTable) lookup(id uint32) *conn { return t.byID[id] }

// count returns the number of connections held.
func (t *connTable) count() int { return len(t.byID) }

// forget drops a connection.
func (t *connTable) forget(c *conn) {
	id, hand, origin := c.keys()
	if t.byID[id] != c {
		return
	}
	delete(t.byID, id)
	if t.hand[hand] == c {
		delete(t.hand, hand)
	}
	if t.perIP[origin]--; t.perIP[origin] <= 0 {
		delete(t.perIP, origin)
	}
}

// opened is a sealed datagram opened: its connection, the header it
// stands for, and its body after the prefix (valid until the next open).
// challenge reports that the address it came from is being checked and is
// owed a PathChallenge; moved that the connection moved there, from left.
type opened struct {
	c         *conn
	h         proto.Header
	body      []byte
	challenge bool
	moved     bool
	left      netip.AddrPort
}

// open opens datagram b of connection c, which came from from at now: the
// replay window and the tag, then the prefix. A datagram that opens is a
// sign of life, and may start the check of a new address (conn.arrived). ok false
// gives the reason to count the drop under.
func (t *connTable) open(now time.Time, from netip.AddrPort, c *conn, b []byte) (in opened, drop DropReason, ok bool) {
	h, body, drop, ok := c.unseal(t.opened, b)
	if !ok {
		if drop == DropReplay {
			c.copied(now, from, b, t.opened)
		}
		return opened{}, drop, false
	}
	if !c.admits(h.Type, now) {
		return opened{}, DropRateLimited, false
	}
	in = opened{c: c, h: h, body: body}
	in.challenge, in.moved, in.left = c.arrived(now, from, h.Seq, len(b))
	if in.moved {
		t.migrations++
	}
	return in, 0, true
}

// seal appends pkt sealed for connection id to dst and returns where it
// goes: the connection's address. ok is false when there is no such
// connection, or the address is being checked and the datagram would
// overspend its budget (nothing is ever sealed for a connection and sent
// elsewhere); the drop is counted.
func (t *connTable) seal(id uint32, dst []byte, pkt proto.Packet) (netip.AddrPort, []byte, bool) {
	c := t.byID[id]
	if c == nil {
		t.unsealable++
		return netip.AddrPort{}, dst, false
	}
	to, out, ok, limited := c.sealPacket(dst, pkt)
	switch {
	case limited:
		t.pathLimited++
	case !ok:
		t.unsealable++
	}
	return to, out, ok
}

// pathResponse takes connection c's PathResponse with data d from from
// at now (conn.pathResponse); a move is counted.
func (t *connTable) pathResponse(c *conn, now time.Time, from netip.AddrPort, d [proto.PathDataLen]byte) (moved bool, old netip.AddrPort) {
	moved, old = c.pathResponse(now, from, d)
	if moved {
		t.migrations++
	}
	return moved, old
}

// sweep forgets the connections that never got a place, those long
// silent (their places are freed by then), and those that hold no place
// (refused, left, released) and have been silent for connIdleFor: their
// sessions are over, and they must not count against their address's
// share for long. holds reports whether a room holds a place for the
// connection id at addr.
func (t *connTable) sweep(now time.Time, holds func(addr netip.AddrPort, id uint32) bool) {
	t.sweepQ = t.sweepQ[:0]
	checks := placeChecksPerSweep
	for _, c := range t.byID {
		if c.stale(now, holds) {
			t.sweepQ = append(t.sweepQ, c)
			continue
		}
		// A connection whose place is gone but that keeps talking (its
		// session is over: only an attacker keeping a slot goes on) is
		// found by a bounded sample each sweep: map order is random, so
		// every connection comes up in turn.
		if checks > 0 && c.sampled(now) {
			checks--
			if !holds(c.addr(), c.id()) {
				t.sweepQ = append(t.sweepQ, c)
			}
		}
	}
	for _, c := range t.sweepQ {
		t.forget(c)
	}
	clear(t.sweepQ)
}

// figures returns the table's counters for ServerStats.
func (t *connTable) figures() (conns int, migrations, pathLimited, unsealable uint64) {
	return len(t.byID), t.migrations, t.pathLimited, t.unsealable
}
