package netcode

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/sha256"
	"net/netip"
	"time"
	"ttytanks/internal/ladder"

	"ttytanks/proto"
)

// moveEvery is how often a connection may move: a path that alternates
// (a load-balancing NAT, an attacker on the path) moves it at most this
// often, with a challenge at most every pathChallengeGap, not at every
// datagram.
const moveEvery = 250 * time.Millisecond

// retellEvery is how often a connection that was told to leave, and
// still sends, is told again.
const retellEvery = 250 * time.Millisecond

// conn is one session's sealed connection on the server, from its Accept
// on: its keys, the handshake it came from (so a repeated Join gets the
// same Accept), where its datagrams go, the check of a new address, and
// the match epochs it was told.
type conn struct {
	cid    uint32
	hand   handKey        // the Join's address and session id
	eph    [32]byte       // the client's ephemeral key: a repeated Join shows it again
	cookie proto.Cookie   // its Join's: with eph, what tells a repeated Join
	origin netip.Addr     // the address it was made from, for the per-address cap
	path   netip.AddrPort // its validated address: where its datagrams go
	check  pathCheck      // the check of a new address, if its datagrams came from one
	// pathHeard is when a datagram last came from path; movedAt is the
	// connection's last move.
	pathHeard, movedAt time.Time
	seal               *proto.Sealer
	open               *proto.Opener
	resume             [proto.KeyLen]byte
	transcript         [sha256.Size]byte
	accept             proto.Accept // resent on a repeated Join
	rtt                time.Duration
	made, heard        time.Time
	placed             bool // a Start went out on it
	epochs             epochs
	// told is the last Leave the server sealed on it since its last
	// Start (told.Reason 0: none), retold at most every retellEvery
	// (toldAt) to the Inputs that still come: a Leave lost on the way,
	// or sent to an address the client has left, is not the client's
	// only word.
	told   proto.Leave
	toldAt time.Time
	// rate and requests are the connection's budgets of sealed datagrams
	// and of Requests (sealedRate, requestRate).
	rate, requests bucket
	// who is the player the connection's Request proved it is (zero: a
	// guest, or no Request yet), PROTOCOL.md §4.15.
	who ladder.Key
}

// The budgets of a connection: what a client sends (an Input a tick, a
// Request every 250 ms while it asks for a place) with room to spare.
// They are spent only by datagrams that open, which only the key's
// holder can make: an attacker on the path cannot spend a player's.
const (
	sealedRate, sealedBurst   = 240, 480
	requestRate, requestBurst = 8, 16
)

// admits takes a token of c's budgets for an opened datagram of type t at
// now; false when c sends faster than any client does.
func (c *conn) admits(t proto.Type, now time.Time) bool {
	if !take(&c.rate, now, sealedRate, sealedBurst) {
		return false
	}
	return t != proto.TypeRequest || take(&c.requests, now, requestRate, requestBurst)
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

// identifies reports whether id's proof holds on this connection's
// handshake, and if so takes id as who the connection is. A vouched ID
// counts only when vouches says its voucher may vouch: else the
// connection is a guest's.
func (c *conn) identifies(id *proto.Identity, vouches func([proto.ServerKeyLen]byte) bool) bool {
	if !id.Verify(c.transcript) {
		return false
	}
	c.who = ladder.Key{}
	if id.Kind == proto.IdentityKey || (id.Kind == proto.IdentityVouched && vouches(id.Voucher)) {
		c.who = ladder.Key(id.ID)
	}
	return true
}

// player returns who the connection proved it is (zero: a guest).
func (c *conn) player() ladder.Key { return c.who }

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
// at now from from. From the connection's address it is a sign that the
// address still works; from another, the newest datagram the connection
// has had starts a check of that address (at most every moveEvery), and
// the connection stays where it is until the check has passed: moved
// reports the move (with the address left) once it has, challenge that a
// PathChallenge is owed.
func (c *conn) arrived(now time.Time, from netip.AddrPort, pn uint32, n int) (challenge, moved bool, old netip.AddrPort) {
	c.heard = now
	if from == c.path {
		c.pathHeard = now
		return false, false, netip.AddrPort{}
	}
	if c.check.of(from, now) {
		if c.check.passed(now, c.pathHeard) {
			return false, true, c.move(now)
		}
		return c.check.received(n, now), false, netip.AddrPort{}
	}
	if pn == c.open.Newest() && (c.check.started().IsZero() || now.Sub(c.check.started()) >= moveEvery) {
		c.check.begin(from, now)
		return c.check.received(n, now), false, netip.AddrPort{}
	}
	return false, false, netip.AddrPort{}
}

// move moves the connection to the address its check validated, at now,
// and returns the address it left.
func (c *conn) move(now time.Time) (old netip.AddrPort) {
	old = c.path
	c.path, c.movedAt, c.pathHeard = c.check.target(), now, now
	c.check.end()
	return old
}

// copied notes a copy b of a datagram already opened, come at now from
// from: while a new address is checked, an authentic copy from the
// validated address shows the sender is still there (its datagrams are
// being copied to the other address, which won the race), so the
// connection must not move. scratch is work space.
func (c *conn) copied(now time.Time, from netip.AddrPort, b, scratch []byte) {
	if from == c.path && c.check.target().IsValid() && c.open.Authentic(scratch, b) {
		c.pathHeard = now
	}
}

// at reports whether from is the connection's validated address: where
// it may ask for a place (a Request is judged by its address).
func (c *conn) at(from netip.AddrPort) bool { return from == c.path }

// pathChallenge returns the PathChallenge for the address being checked
// at now.
func (c *conn) pathChallenge(now time.Time, random func([]byte)) *proto.PathChallenge {
	return c.check.challenge(now, random)
}

// pathResponse takes the data d of a PathResponse from from at now: if
// it answers the check and the old address has been quiet since the
// check began, for moveQuiet, the connection moves to from, and moved
// reports it with the address it left (else the move waits for a later
// datagram from there, and never comes while the old address is still
// heard: its datagrams were copied, or forwarded, from elsewhere).
func (c *conn) pathResponse(now time.Time, from netip.AddrPort, d [proto.PathDataLen]byte) (moved bool, old netip.AddrPort) {
	c.check.answer(from, d)
	if c.check.of(from, now) && c.check.passed(now, c.pathHeard) {
		return true, c.move(now)
	}
	return false, netip.AddrPort{}
}

// sealPacket appends pkt sealed for c to dst and returns where it goes:
// c's address, but for a PathChallenge, which goes to the address being
// checked within its budget (limited reports one that did not fit). A
// Start gets the epoch of its (match, player), a new one if need be, and
// marks the connection placed; any other packet of a match the epoch the
// connection was told for it. ok false drops it.
func (c *conn) sealPacket(dst []byte, pkt proto.Packet) (to netip.AddrPort, out []byte, ok bool, limited bool) {
	h := pkt.Head()
	var ep uint8
	switch l, _ := pkt.(*proto.Leave); {
	case pkt.PacketType() == proto.TypeStart:
		c.told = proto.Leave{} // placed again
	case l != nil && l.Reason != proto.LeaveQuit: // not the answer to a client's own Leave
		c.told = *l
	}
	if pkt.PacketType() == proto.TypeStart {
		ep = c.epochs.forStart(h.Match, h.Player)
		c.placed = true
	} else if h.Match != 0 {
		ep = c.epochs.of(h.Match, h.Player)
	}
	start := len(dst)
	out, err := c.seal.AppendPacket(dst, pkt, ep)
	if err != nil {
		return c.path, dst, false, false
	}
	if pkt.PacketType() == proto.TypePathChallenge {
		if !c.check.spend(len(out) - start) {
			return c.path, dst, false, true
		}
		return c.check.target(), out, true, false
	}
	return c.path, out, true, false
}

// retell reports whether c was told to leave since its last Start; if
// so, its datagrams have no place to go, and leave is the Leave to send
// again, or nil when it was sent less than retellEvery ago.
func (c *conn) retell(now time.Time) (leave *proto.Leave, told bool) {
	if c.told.Reason == 0 {
		return nil, false
	}
	if now.Sub(c.toldAt) < retellEvery {
		return nil, true
	}
	c.toldAt = now
	l := c.told
	return &l, true
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
