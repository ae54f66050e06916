package netcode

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/sha256"
	"net/netip"
	"time"

	"ttytanks/proto"
)

// moveEvery is how often a connection may move: a path that alternates
// (a load-balancing NAT, an attacker on the path) moves it at most this
// often, with a challenge at most every pathChallengeGap, not at every
// datagram.
const moveEvery = 250 * time.Millisecond

// conn is one session's sealed connection on the server, from its Accept
// on: its keys, the handshake it came from (so a repeated Join gets the
// same Accept), where its datagrams go, the check of a new address, and
// the match epochs it was told.
type conn struct {
	cid    uint32
	hand   handKey      // the Join's address and session id
	eph    [32]byte     // the client's ephemeral key: a repeated Join shows it again
	cookie proto.Cookie // its Join's: with eph, what tells a repeated Join
	origin netip.Addr   // the address it was made from, for the per-address cap
	path   netip.AddrPort
	check  pathCheck
	// movedAt is the connection's last move.
	movedAt     time.Time
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

// handKey finds the connection a Join made, so a repeated Join is
// answered with the same Accept.
type handKey struct {
	addr    netip.AddrPort
	session uint64
}

// newConn runs the server's half of the key exchange for j from from,
// under the long-term key (pub its public half) and the connection id
// id: an ephemeral X25519 key from seed, the transcript, the keys, and
// the signed Accept.
func newConn(id uint32, j *proto.Join, from netip.AddrPort, rtt time.Duration, now time.Time, seed [32]byte, key ed25519.PrivateKey, pub [proto.ServerKeyLen]byte) (*conn, error) {
	eph, err := ecdh.X25519().NewPrivateKey(seed[:])
	if err != nil {
		return nil, err
	}
	c := &conn{cid: id, hand: handKey{from, j.Session}, eph: j.Eph, cookie: j.Cookie, origin: limitKey(from.Addr()),
		path: from, rtt: rtt, made: now, heard: now}
	var ephPub [32]byte
	copy(ephPub[:], eph.PublicKey().Bytes())
	c.transcript = proto.Transcript(j.Session, j.Cookie, j.Eph, ephPub, pub[:], id)
	keys, err := proto.DeriveKeys(eph, j.Eph, c.transcript)
	if err != nil {
		return nil, err
	}
	if c.seal, err = proto.NewSealer(keys.ServerToClient, proto.ServerToClient, id); err != nil {
		return nil, err
	}
	if c.open, err = proto.NewOpener(keys.ClientToServer, proto.ClientToServer, id); err != nil {
		return nil, err
	}
	c.resume = keys.Resume
	c.accept = proto.Accept{Header: proto.Header{Session: j.Session}, Conn: id, Eph: ephPub, ServerKey: pub}
	copy(c.accept.Sig[:], proto.SignTranscript(key, c.transcript))
	return c, nil
}

// id returns the connection id.
func (c *conn) id() uint32 { return c.cid }

// keys returns what the connection table finds c by: its id, its
// handshake, and the address it counts against.
func (c *conn) keys() (id uint32, hand handKey, origin netip.Addr) { return c.cid, c.hand, c.origin }

// repeats reports whether j is the Join that made c again (its Accept
// was lost): the same cookie and ephemeral key.
func (c *conn) repeats(j *proto.Join) bool { return c.eph == j.Eph && c.cookie == j.Cookie }

// acceptPacket returns c's Accept, to send again to a repeated Join at
// now: its client is there, its Accept lost, so c is not one to sweep
// now.
func (c *conn) acceptPacket(now time.Time) *proto.Accept {
	c.heard = now
	return &c.accept
}

// handshake returns what c's handshake gives the place it takes: the
// round trip it measured and the resume key a reconnect token issued on
// c is proved with.
func (c *conn) handshake() (rtt time.Duration, resume [proto.KeyLen]byte) { return c.rtt, c.resume }

// proves reports whether proof shows, over c's handshake, the resume key
// resume of the connection a reconnect token was issued on.
func (c *conn) proves(resume [proto.KeyLen]byte, proof proto.Proof) bool {
	return proto.ResumeProof(resume, c.transcript) == proof
}

// unseal opens datagram b into buf: the replay window and the tag, then
// the prefix. It returns the header the packet stands for and its body,
// or the reason to drop it.
func (c *conn) unseal(buf, b []byte) (h proto.Header, body []byte, drop DropReason, ok bool) {
	sh, opened, err := c.open.Open(buf[:0], b)
	if err != nil {
		return h, nil, dropReasonFor(err), false
	}
	ep, _, rest, err := proto.SplitSealedBody(sh.Type, opened)
	if err != nil {
		return h, nil, DropMalformed, false
	}
	return c.header(sh.Type, sh.PN, ep), rest, 0, true
}

// addr returns where the connection's datagrams go.
func (c *conn) addr() netip.AddrPort { return c.path }

// arrived notes a datagram of n bytes with packet number pn that opened
// at now from from. If it is the newest the connection has had and came
// from another address, the connection moves there (at most every
// moveEvery), and moved reports it with the address it left. due
// reports that the address being checked is owed a PathChallenge.
func (c *conn) arrived(now time.Time, from netip.AddrPort, pn uint32, n int) (moved bool, old netip.AddrPort, due bool) {
	c.heard = now
	if from != c.path && pn == c.open.Newest() && now.Sub(c.movedAt) >= moveEvery {
		moved, old = true, c.path
		c.path, c.movedAt = from, now
		c.check.begin()
	}
	if from == c.path {
		due = c.check.received(n, now)
	}
	return moved, old, due
}

// checking reports whether the connection's address has not answered its
// path check yet.
func (c *conn) checking() bool { return c.check.checking() }

// pathChallenge returns the PathChallenge for c's address at now.
func (c *conn) pathChallenge(now time.Time, random func([]byte)) *proto.PathChallenge {
	return &proto.PathChallenge{Data: c.check.challenge(now, random)}
}

// pathResponse takes the data of a PathResponse from from.
func (c *conn) pathResponse(from netip.AddrPort, d [proto.PathDataLen]byte) {
	if from == c.path {
		c.check.answered(d)
	}
}

// sealPacket appends pkt sealed for c to dst: a Start gets the epoch of
// its (match, player), a new one if need be, and marks the connection
// placed; any other packet of a match the epoch the connection was told
// for it. While c's address is checked, the datagram must fit the
// budget. ok false drops it.
func (c *conn) sealPacket(dst []byte, pkt proto.Packet) (out []byte, ok bool, limited bool) {
	h := pkt.Head()
	var ep uint8
	if pkt.PacketType() == proto.TypeStart {
		ep = c.epochs.forStart(h.Match, h.Player)
		c.placed = true
	} else if h.Match != 0 {
		ep = c.epochs.of(h.Match, h.Player)
	}
	start := len(dst)
	out, err := c.seal.AppendPacket(dst, pkt, ep)
	if err != nil {
		return dst, false, false
	}
	if !c.check.spend(len(out) - start) {
		return dst, false, true
	}
	return out, true, false
}

// header returns the header a sealed packet of type t with packet number
// pn and epoch ep stands for: its match and player, as the epoch was
// given.
func (c *conn) header(t proto.Type, pn uint32, ep uint8) proto.Header {
	h := proto.Header{Type: t, Seq: pn}
	if m, p, ok := c.epochs.lookup(ep); ok {
		h.Match, h.Player = m, p
	}
	return h
}

// stale reports whether the sweep at now forgets c: it never got a
// place, or has been silent too long, or holds no place (holds tells)
// and is quiet.
func (c *conn) stale(now time.Time, holds func(netip.AddrPort, uint32) bool) bool {
	silent := now.Sub(c.heard)
	return (!c.placed && now.Sub(c.made) > connUnplacedFor) || silent > connSilentFor ||
		(silent > connIdleFor && (!c.placed || !holds(c.path, c.cid)))
}

// sampled reports whether the sweep at now should ask whether c, placed
// and older than a cookie, still holds a place.
func (c *conn) sampled(now time.Time) bool { return c.placed && now.Sub(c.made) > connUnplacedFor }
