package netcode

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"io"
	"time"

	"ttytanks/proto"
)

// helloEvery is how often a connecting client repeats its Hello, Join or
// Request.
const helloEvery = 250 * time.Millisecond

// knockStall is how long a connection attempt may go without moving on
// before it starts over: longer than any round trip a match can be
// played at (inputs may lead the server by at most MaxInputAhead ticks,
// 2 s), short enough that a client that moved before its place came
// connects within a few seconds. (The handshake's measured round trip is
// no guide: it counts from the attempt's first Hello, so a cut inflates
// it.)
const knockStall = 2500 * time.Millisecond

// handshake is the client's connection attempt (PROTOCOL.md §4): the
// Hello, the server's cookie, our ephemeral key and Join, the server's
// Accept and the sealed connection it makes, each repeated until
// answered, and the round trip the first Hello measured. A reconnect is a
// new attempt; an attempt that stalls starts over.
type handshake struct {
	id        uint64 // the session id the attempt carries
	cookie    proto.Cookie
	hasCookie bool
	eph       *ecdh.PrivateKey
	conn      clientConn
	// progressAt is when the attempt last moved on (it began, a
	// Challenge or Accept came).
	progressAt time.Time
	nextHello  time.Time
	helloAt    time.Time // when the first Hello of this attempt went out
	rtt        time.Duration
}

// hello returns our Hello. The handshake's round trip is measured from
// the first Hello of an attempt (a retransmission's answer cannot be told
// from the original's): too long rather than too short, so the first
// inputs of a match arrive early rather than late.
func (h *handshake) hello(now time.Time) *proto.Hello {
	if h.helloAt.IsZero() {
		h.helloAt = now
	}
	return &proto.Hello{Header: proto.Header{Session: h.id}}
}

// challenged takes a Challenge's cookie at now; it reports whether the
// attempt was waiting for one (not for the answer to a repeated Hello:
// our Join is out with the first cookie).
func (h *handshake) challenged(now time.Time, c proto.Cookie) bool {
	if h.hasCookie {
		return false
	}
	if !h.helloAt.IsZero() {
		h.rtt = now.Sub(h.helloAt)
		h.helloAt = time.Time{}
	}
	h.cookie, h.hasCookie = c, true
	h.nextHello = now.Add(helloEvery)
	h.progressAt = now
	return true
}

// staleCookie forgets a cookie the server refused (stale, or for an
// address we no longer have): the attempt starts over with a Hello.
func (h *handshake) staleCookie() { h.hasCookie = false }

// join returns our Join: the cookie and this attempt's ephemeral key,
// drawn from entropy the first time.
func (h *handshake) join(entropy io.Reader) *proto.Join {
	if h.eph == nil {
		var seed [32]byte
		if _, err := io.ReadFull(entropy, seed[:]); err != nil {
			panic("netcode: entropy source failed: " + err.Error()) // a key of zeros would be no secret
		}
		k, err := ecdh.X25519().NewPrivateKey(seed[:])
		if err != nil {
			panic("netcode: X25519 key: " + err.Error()) // 32 bytes are always a key
		}
		h.eph = k
	}
	j := &proto.Join{Header: proto.Header{Session: h.id}, Cookie: h.cookie}
	copy(j.Eph[:], h.eph.PublicKey().Bytes())
	return j
}

// accepted takes the server's Accept (heard: when the server was last
// heard from, the attempt's progress): it checks the signature, asks
// trust whether the server's key is the one we expect, and makes the
// connection. ok is false for an Accept to ignore (unasked for, or not
// signed by the key it names); err, from trust, must end the session.
func (h *handshake) accepted(a *proto.Accept, heard time.Time, trust func(ed25519.PublicKey) error) (ok bool, err error) {
	if h.eph == nil || !h.hasCookie || h.conn.up() {
		return false, nil
	}
	c, ok, err := acceptConn(a, h.id, h.cookie, h.eph, trust)
	if !ok || err != nil {
		return false, err
	}
	h.conn = c
	h.progressAt = heard
	return true, nil
}

// restart begins a new attempt at now (a reconnect): a Hello is due at
// once.
func (h *handshake) restart(now time.Time) {
	h.nextHello = now
	h.forget()
	h.progressAt = now
}

// forget drops the attempt's cookie, key and connection: the next
// handshake makes a new one.
func (h *handshake) forget() { h.hasCookie, h.eph, h.conn = false, nil, clientConn{} }

// knock returns the next datagram of the attempt when one is due at now:
// a Hello, our Join, or request's Request once the server accepted us,
// each repeated until the server answers. An attempt that stalls (the
// server forgot our connection, say) starts over.
func (h *handshake) knock(now time.Time, entropy io.Reader, request func() *proto.Request) packet {
	if now.Sub(h.progressAt) > knockStall {
		h.forget()
		h.progressAt = now
	}
	return h.connect(now, entropy, request)
}

// connect returns the Hello, the Join once we hold a cookie, or request's
// Request once the server accepted us, that is due at now, or nil.
func (h *handshake) connect(now time.Time, entropy io.Reader, request func() *proto.Request) packet {
	if now.Before(h.nextHello) {
		return nil
	}
	h.nextHello = now.Add(helloEvery)
	switch {
	case h.conn.up():
		return request()
	case h.hasCookie:
		return h.join(entropy)
	}
	return h.hello(now)
}

// sealing reports whether the server has accepted us: from then on
// everything comes sealed.
func (h *handshake) sealing() bool { return h.conn.up() }

// unseal opens a sealed datagram of our connection into buf and returns
// its header and body (clientConn.opened).
func (h *handshake) unseal(sh proto.SealedHeader, b, buf []byte) (proto.Header, []byte, error) {
	return h.conn.opened(sh, b, buf, h.id)
}

// seal appends pkt sealed for the server to dst; ok is false before the
// server accepted us, and the packet is dropped.
func (h *handshake) seal(dst []byte, pkt proto.Packet) ([]byte, bool) { return h.conn.sealed(dst, pkt) }

// placed reports whether the connection was told of match and player.
func (h *handshake) placed(match uint32, player uint8) bool { return h.conn.placed(match, player) }

// proof returns the reconnect proof of a token issued under resume, over
// this attempt's connection.
func (h *handshake) proof(resume [proto.KeyLen]byte) proto.Proof { return h.conn.proof(resume) }

// transcript returns the connection's handshake transcript.
func (h *handshake) transcript() [32]byte { return h.conn.transcriptHash() }

// resumeKey returns the connection's resume key.
func (h *handshake) resumeKey() [proto.KeyLen]byte { return h.conn.resumeKey() }

// roundTrip returns the round trip of the attempt's first Hello.
func (h *handshake) roundTrip() time.Duration { return h.rtt }

// deadline returns when the next repeat is due.
func (h *handshake) deadline() time.Time { return h.nextHello }
