package netcode

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"

	"ttytanks/proto"
)

// clientConn is the client's side of a sealed connection, from the
// server's Accept on: the connection id, the keys, the transcript a
// reconnect proof is made over, and the match epochs the server's Starts
// gave. Its zero value is no connection: nothing seals, nothing opens.
type clientConn struct {
	id         uint32
	transcript [sha256.Size]byte
	seal       *proto.Sealer
	open       *proto.Opener
	resume     [proto.KeyLen]byte
	epochs     epochs
}

// errNotConnected: a sealed datagram before the server accepted us.
var errNotConnected = errors.New("netcode: sealed datagram before the handshake")

// acceptConn checks the server's Accept a of the handshake of session
// (its cookie, our ephemeral key eph), asks trust whether the server's
// key is the one expected, and derives the connection's keys. ok is false
// for an Accept to ignore (not signed by the key it names, or unusable);
// err, from trust, must end the session.
func acceptConn(a *proto.Accept, session uint64, cookie proto.Cookie, eph *ecdh.PrivateKey, trust func(ed25519.PublicKey) error) (c clientConn, ok bool, err error) {
	var own [32]byte
	copy(own[:], eph.PublicKey().Bytes())
	t := proto.Transcript(session, cookie, own, a.Eph, a.ServerKey[:], a.Conn)
	key := ed25519.PublicKey(append([]byte(nil), a.ServerKey[:]...))
	if !proto.VerifyTranscript(key, t, a.Sig[:]) {
		return clientConn{}, false, nil
	}
	if trust != nil {
		if err := trust(key); err != nil {
			return clientConn{}, false, err
		}
	}
	keys, err := proto.DeriveKeys(eph, a.Eph, t)
	if err != nil {
		return clientConn{}, false, nil
	}
	seal, err1 := proto.NewSealer(keys.ClientToServer, proto.ClientToServer, a.Conn)
	open, err2 := proto.NewOpener(keys.ServerToClient, proto.ServerToClient, a.Conn)
	if err1 != nil || err2 != nil {
		return clientConn{}, false, nil
	}
	return clientConn{id: a.Conn, transcript: t, seal: seal, open: open, resume: keys.Resume}, true, nil
}

// up reports whether the connection exists: from then on everything comes
// sealed.
func (c *clientConn) up() bool { return c.id != 0 }

// opened opens a sealed datagram b of the connection into buf and
// returns its header (session: ours; the match and player its epoch
// stands for, which a Start says; its packet number as the sequence
// number) and its body.
func (c *clientConn) opened(sh proto.SealedHeader, b, buf []byte, session uint64) (proto.Header, []byte, error) {
	if c.open == nil {
		return proto.Header{}, nil, errNotConnected
	}
	_, body, err := c.open.Open(buf[:0], b)
	if err != nil {
		return proto.Header{}, nil, err
	}
	ep, match, rest, err := proto.SplitSealedBody(sh.Type, body)
	if err != nil {
		return proto.Header{}, nil, err
	}
	h := proto.Header{Type: sh.Type, Session: session, Seq: sh.PN}
	if sh.Type == proto.TypeStart && len(rest) > 0 {
		h.Match, h.Player = match, rest[0] // a Start's first byte is the addressee's slot
		c.epochs.learn(ep, match, rest[0])
	} else if m, p, ok := c.epochs.lookup(ep); ok {
		h.Match, h.Player = m, p
	}
	return h, rest, nil
}

// sealed appends pkt sealed for the server to dst, under the epoch of
// its match and player; ok is false before the connection exists.
func (c *clientConn) sealed(dst []byte, pkt proto.Packet) ([]byte, bool) {
	if c.seal == nil {
		return dst, false
	}
	h := pkt.Head()
	out, err := c.seal.AppendPacket(dst, pkt, c.epochs.of(h.Match, h.Player))
	if err != nil {
		return dst, false
	}
	return out, true
}

// placed reports whether the server told the connection of match and
// player: a Leave on it can name that place.
func (c *clientConn) placed(match uint32, player uint8) bool { return c.epochs.of(match, player) != 0 }

// proof returns the reconnect proof of a token issued under the resume
// key resume, over this connection's handshake.
func (c *clientConn) proof(resume [proto.KeyLen]byte) proto.Proof {
	return proto.ResumeProof(resume, c.transcript)
}

// transcriptHash returns the handshake's transcript.
func (c *clientConn) transcriptHash() [32]byte { return c.transcript }

// resumeKey returns the connection's resume key: a token issued on it is
// proved with it.
func (c *clientConn) resumeKey() [proto.KeyLen]byte { return c.resume }
