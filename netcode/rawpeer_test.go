package netcode

import (
	"crypto/ecdh"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// rawPeer is a test's own client of a Server core, datagram by datagram:
// the handshake by hand, then its packets sealed and the server's opened,
// with nothing of Client's logic in between. Tests use it to say exactly
// what a peer (or an attacker holding a connection) sends.
type rawPeer struct {
	from       netip.AddrPort
	session    uint64
	conn       uint32
	transcript [sha256.Size]byte
	keys       proto.SessionKeys
	seal       *proto.Sealer
	open       *proto.Opener
	epochs     epochs
	match      uint32 // of the newest Start
	slot       uint8
	token      proto.Token
	tokenKey   [proto.KeyLen]byte
}

// rawHandshake runs Hello, Join and Accept for session at from, and
// returns the peer with its connection's keys.
func rawHandshake(t testing.TB, s *Server, now time.Time, from netip.AddrPort, session uint64) *rawPeer {
	t.Helper()
	p, err := tryHandshake(s, now, from, session)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tryHandshake is rawHandshake, returning what went wrong.
func tryHandshake(s *Server, now time.Time, from netip.AddrPort, session uint64) (*rawPeer, error) {
	cookie, err := tryCookie(s, now, from, session)
	if err != nil {
		return nil, err
	}
	return tryJoin(s, now, from, session, cookie)
}

// tryJoin sends a Join with cookie for session at from and returns the
// peer the server's Accept makes, or what went wrong.
func tryJoin(s *Server, now time.Time, from netip.AddrPort, session uint64, cookie proto.Cookie) (*rawPeer, error) {
	var seed [32]byte
	binary.BigEndian.PutUint64(seed[:], session)
	binary.BigEndian.PutUint16(seed[8:], from.Port())
	seed[31] = 1
	eph, err := ecdh.X25519().NewPrivateKey(seed[:])
	if err != nil {
		return nil, err
	}
	j := proto.Join{Header: proto.Header{Session: session}, Cookie: cookie}
	copy(j.Eph[:], eph.PublicKey().Bytes())
	for _, d := range s.Receive(now, from, j.Append(nil)) {
		a, err := proto.ParseAccept(d.Data)
		if err != nil || d.Addr != from || a.Session != session {
			continue
		}
		t := proto.Transcript(session, cookie, j.Eph, a.Eph, a.ServerKey[:], a.Conn)
		if !proto.VerifyTranscript(a.ServerKey[:], t, a.Sig[:]) {
			return nil, errf("the Accept's signature does not verify")
		}
		keys, err := proto.DeriveKeys(eph, a.Eph, t)
		if err != nil {
			return nil, err
		}
		p := &rawPeer{from: from, session: session, conn: a.Conn, transcript: t, keys: keys}
		p.seal, _ = proto.NewSealer(keys.ClientToServer, proto.ClientToServer, a.Conn)
		p.open, _ = proto.NewOpener(keys.ServerToClient, proto.ServerToClient, a.Conn)
		return p, nil
	}
	return nil, errf("no Accept for %v", from)
}

// tryCookie gets a cookie for session at from with a Hello.
func tryCookie(s *Server, now time.Time, from netip.AddrPort, session uint64) (proto.Cookie, error) {
	h := proto.Hello{Header: proto.Header{Session: session}}
	for _, d := range s.Receive(now, from, h.Append(nil)) {
		if c, err := proto.ParseChallenge(d.Data); err == nil && d.Addr == from && c.Session == session {
			return c.Cookie, nil
		}
	}
	return proto.Cookie{}, errf("no Challenge for %v", from)
}

// sealed returns pkt sealed on p's connection, with the epoch of its
// header's match and player.
func (p *rawPeer) sealed(pkt proto.Packet) []byte {
	h := pkt.Head()
	out, err := p.seal.AppendPacket(nil, pkt, p.epochs.of(h.Match, h.Player))
	if err != nil {
		panic(err)
	}
	return out
}

// handmade is a packet made of a clear datagram's bytes, by hand or by a
// packet's Append: sealed, its type, match and player are read where the
// clear header has them and its body is the rest, as it is.
type handmade struct {
	h    proto.Header
	body []byte
}

func handmadeOf(b []byte) *handmade {
	return &handmade{h: proto.Header{Type: proto.Type(b[3]), Match: binary.BigEndian.Uint32(b[12:16]), Player: b[16]},
		body: append([]byte(nil), b[proto.HeaderLen:]...)}
}

func (p *handmade) PacketType() proto.Type     { return p.h.Type }
func (p *handmade) Head() *proto.Header        { return &p.h }
func (p *handmade) AppendBody(b []byte) []byte { return append(b, p.body...) }

// sealClear returns the clear datagram b (a packet's Append, or bytes
// made by hand) sealed on p's connection as it is, with the epoch of its
// header's match and player.
func (p *rawPeer) sealClear(b []byte) []byte { return p.sealed(handmadeOf(b)) }

// clearOf returns the clear datagram an opened packet stands for, its
// header h and body rest: what proto's Parse functions read.
func clearOf(h proto.Header, rest []byte) []byte { return append(h.AppendHeader(nil), rest...) }

// opened opens a datagram the server sent p and returns its clear form
// (as proto's Parse functions read it), or ok false for one not for p or
// that does not open.
func (p *rawPeer) opened(d transport.Datagram) (h proto.Header, clear []byte, ok bool) {
	sh, isSealed := proto.ParseSealedHeader(d.Data)
	if !isSealed || d.Addr != p.from || sh.Conn != p.conn {
		return h, nil, false
	}
	_, body, err := p.open.Open(nil, d.Data)
	if err != nil {
		return h, nil, false
	}
	ep, match, rest, err := proto.SplitSealedBody(sh.Type, body)
	if err != nil {
		return h, nil, false
	}
	h = proto.Header{Type: sh.Type, Session: p.session, Seq: sh.PN}
	if sh.Type == proto.TypeStart && len(rest) > 0 {
		h.Match, h.Player = match, rest[0]
		p.epochs.learn(ep, match, rest[0])
	} else if m, pl, ok := p.epochs.lookup(ep); ok {
		h.Match, h.Player = m, pl
	}
	return h, clearOf(h, rest), true
}

// send seals pkt and hands it to the server; it returns the server's
// answers to p, opened.
func (p *rawPeer) send(s *Server, now time.Time, pkt proto.Packet) [][]byte {
	var out [][]byte
	for _, d := range s.Receive(now, p.from, p.sealed(pkt)) {
		if _, clear, ok := p.opened(d); ok {
			out = append(out, clear)
		}
	}
	return out
}

// request sends q (its token and proof from p's last Start, unless q
// names a token) and returns the server's answer: a Start, or the reason
// of a Reject.
func (p *rawPeer) request(t testing.TB, s *Server, now time.Time, q proto.Request) (*proto.Start, proto.RejectReason) {
	t.Helper()
	st, why, err := p.tryRequest(s, now, q)
	if err != nil {
		t.Fatal(err)
	}
	return st, why
}

func (p *rawPeer) tryRequest(s *Server, now time.Time, q proto.Request) (*proto.Start, proto.RejectReason, error) {
	if q.Token != (proto.Token{}) && q.Proof == (proto.Proof{}) {
		q.Proof = proto.ResumeProof(p.tokenKey, p.transcript)
	}
	for _, b := range p.send(s, now, &q) {
		if st, err := proto.ParseStart(b); err == nil {
			p.match, p.slot = st.Match, st.Slot
			if st.Token != p.token {
				p.token, p.tokenKey = st.Token, p.keys.Resume
			}
			return &st, 0, nil
		}
		if r, err := proto.ParseReject(b); err == nil {
			return nil, r.Reason, nil
		}
	}
	return nil, 0, errf("no answer to a Request from %v", p.from)
}

// rawJoin makes a connection for session at from and sends the Request
// q on it: the server's answer, a Start or the reason of a Reject.
func rawJoin(t testing.TB, s *Server, now time.Time, from netip.AddrPort, session uint64, q proto.Request) (*proto.Start, proto.RejectReason) {
	t.Helper()
	return rawHandshake(t, s, now, from, session).request(t, s, now, q)
}

// rawSeated makes a connection for session at from and takes a seat
// with it (a quick match), failing the test if it is refused.
func rawSeated(t testing.TB, s *Server, now time.Time, from netip.AddrPort, session uint64, name string) *rawPeer {
	t.Helper()
	p := rawHandshake(t, s, now, from, session)
	if st, why := p.request(t, s, now, proto.Request{Name: name}); st == nil {
		t.Fatalf("%s refused: %v", name, why)
	}
	return p
}

// rawCookie gets a cookie for session at from with a Hello.
func rawCookie(t testing.TB, s *Server, now time.Time, from netip.AddrPort, session uint64) proto.Cookie {
	t.Helper()
	c, err := tryCookie(s, now, from, session)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func errf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func (p *rawPeer) String() string { return fmt.Sprintf("peer %x", p.session) }
