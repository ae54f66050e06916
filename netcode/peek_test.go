package netcode

import (
	"net/netip"
	"testing"

	"ttytanks/proto"
)

// Tests hold both ends of a sealed connection, so they can look inside
// its datagrams and seal their own: the helpers here do it with copies of
// the real openers (the receiver still opens the datagram as if nobody
// had looked) and with the real sealers (a datagram sealed by the test is
// one its sender sent, under the sender's next packet number).

// typeOf returns the packet type of a datagram: a sealed one says it in
// its readable header. It is 0 for a datagram that is neither sealed nor
// a clear packet of this version.
func typeOf(b []byte) proto.Type {
	if sh, ok := proto.ParseSealedHeader(b); ok {
		return sh.Type
	}
	if h, err := proto.ParseHeader(b); err == nil {
		return h.Type
	}
	return 0
}

// peekDown opens a datagram the server sent to c with a copy of c's
// opener and epochs, and returns its clear form as c would see it: c's
// session id, the match and player its epoch stands for, and its packet
// number as the sequence number. c itself is left as it was. ok is false
// for a datagram that is not sealed for c's connection, or does not open.
func peekDown(c *Client, b []byte) (h proto.Header, clear []byte, ok bool) {
	sh, sealed := proto.ParseSealedHeader(b)
	if !sealed || c.hs.conn.open == nil {
		return h, nil, false
	}
	cc := c.hs.conn // a copy: its epochs are a value
	o := *cc.open
	cc.open = &o
	h, body, err := cc.opened(sh, b, nil, c.sess.id)
	if err != nil {
		return h, nil, false
	}
	return h, clearOf(h, body), true
}

// stateDown returns the State a sealed datagram the server sent to c
// carries, as c would decode it, or nil when it is no State of c's
// connection.
func stateDown(t testing.TB, c *Client, b []byte) *proto.State {
	t.Helper()
	h, clear, ok := peekDown(c, b)
	if !ok || h.Type != proto.TypeState {
		return nil
	}
	st := new(proto.State)
	if err := proto.ParseState(clear, st); err != nil {
		t.Fatal(err)
	}
	return st
}

// peekUp opens a datagram c sent with a copy of the server's opener for
// c's connection, and returns its clear form as the server's core sees
// it: the connection id as the session, the match and player of its
// epoch. The server is left as it was.
func peekUp(s *Server, c *Client, b []byte) (h proto.Header, clear []byte, ok bool) {
	sh, sealed := proto.ParseSealedHeader(b)
	conn := s.conns.lookup(sh.Conn)
	if !sealed || conn == nil || sh.Conn != c.hs.conn.id {
		return h, nil, false
	}
	o := *conn.open
	_, body, err := o.Open(nil, b)
	if err != nil {
		return h, nil, false
	}
	ep, _, rest, err := proto.SplitSealedBody(sh.Type, body)
	if err != nil {
		return h, nil, false
	}
	h = proto.Header{Type: sh.Type, Session: uint64(conn.id()), Seq: sh.PN}
	h.Match, h.Player, _ = conn.epochs.lookup(ep)
	return h, clearOf(h, rest), true
}

// sealDown seals the clear datagram b (its header's match and player
// pick the epoch) as the server seals what it sends to c: with the
// server's own sealer for c's connection, under its next packet number.
// Tests of what the client checks in its server's datagrams use it, the
// sealed layer being no part of what they test.
func sealDown(t testing.TB, s *Server, c *Client, b []byte) []byte {
	t.Helper()
	id := c.hs.conn.id
	if s.conns.lookup(id) == nil {
		t.Fatalf("the server holds no connection %x for %v", id, c.Session())
	}
	_, sealed, ok := s.conns.seal(id, nil, handmadeOf(b))
	if !ok {
		t.Fatalf("the server cannot seal for %v's connection %x", c.Session(), id)
	}
	return sealed
}

// sealUp seals the clear datagram b as c seals what it sends: with c's
// own sealer, under its next packet number.
func sealUp(t testing.TB, c *Client, b []byte) []byte {
	t.Helper()
	sealed, ok := c.hs.seal(nil, handmadeOf(b))
	if !ok {
		t.Fatalf("client %v has no connection to seal for", c.Session())
	}
	return sealed
}

// sealTap keeps the clear form of each datagram a server sealed in its
// last call, by the sealed bytes: what the server's core wrote (its
// header names the connection id as the session, and the match and
// player the datagram is about), for tests that check where it goes.
type sealTap struct {
	s     *Server
	clear map[string][]byte
}

// tapSeals makes tap see every datagram s seals from now on.
func tapSeals(s *Server) *sealTap {
	tap := &sealTap{s: s, clear: map[string][]byte{}}
	s.out.seal = func(conn uint32, dst []byte, pkt proto.Packet) (netip.AddrPort, []byte, bool) {
		if len(s.out.out) == 0 {
			clear(tap.clear) // the first datagram of a new call
		}
		h := *pkt.Head()
		h.Type, h.Session = pkt.PacketType(), uint64(conn)
		c := clearOf(h, pkt.AppendBody(nil))
		start := len(dst)
		to, out, ok := s.conns.seal(conn, dst, pkt)
		if ok {
			tap.clear[string(out[start:])] = c
		}
		return to, out, ok
	}
	return tap
}

// of returns the clear form of d, a datagram the server sent in its last
// call; ok is false for one it did not seal.
func (tap *sealTap) of(d []byte) (h proto.Header, clear []byte, ok bool) {
	c, ok := tap.clear[string(d)]
	if !ok {
		return h, nil, false
	}
	h, err := proto.ParseHeader(c)
	return h, c, err == nil
}
