package proto

import (
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"slices"

	"golang.org/x/crypto/chacha20poly1305"
)

// Sealed datagrams: the layer that encrypts and authenticates a session's
// packets once its handshake has agreed keys. This file holds the
// primitives: the key exchange's transcript, signature and key schedule,
// the sealed header, Seal and Open with their replay window. They follow
// netcode.io's and QUIC's shape and use only the standard library's
// X25519, Ed25519, HKDF-SHA256 and x/crypto's ChaCha20-Poly1305.
//
// A sealed datagram is
//
//	magic u16 | version u8 | type u8 (0x80 | the packet type) | conn u32 | pn u32 | ciphertext | tag [16]
//
// The 12-byte header is the AEAD's associated data: readable, so a server
// routes the datagram by its connection id without decrypting it, and
// authenticated, so no byte of it can be changed. The nonce is the
// direction (u32: 0 client → server, 1 server → client) and the packet
// number (u64, the pn zero-extended), so the two directions, which have
// keys of their own anyway, can never reuse a nonce. Each side numbers the
// datagrams it seals from 1; a session ends before its pn would wrap.

// Sizes of the sealed layer.
const (
	// SealedHeaderLen is the size of a sealed datagram's header.
	SealedHeaderLen = 12
	// SealTagLen is the size of the Poly1305 tag that ends a sealed datagram.
	SealTagLen = chacha20poly1305.Overhead
	// SealOverhead is what sealing adds to a packet's body.
	SealOverhead = SealedHeaderLen + SealTagLen
	// MaxSealedBody is the largest body that seals into MaxDatagram bytes.
	MaxSealedBody = MaxDatagram - SealOverhead
	// SealedFlag marks a sealed packet's type byte.
	SealedFlag = 0x80
	// KeyLen is the size of a direction's key.
	KeyLen = chacha20poly1305.KeySize
	// ReplayWindow is how many packet numbers behind the newest one a
	// receiver still accepts (once each): reordering deeper than this
	// drops the older datagram, as a loss.
	ReplayWindow = 256
)

// Direction is the sender's side, the first word of the nonce.
type Direction uint32

// Directions.
const (
	ClientToServer Direction = 0
	ServerToClient Direction = 1
)

// Errors of the sealed layer. Open returns exactly these, so a receiver
// counts its drops by reason.
var (
	ErrSealedShort  = errors.New("sealed: shorter than a header and a tag")
	ErrSealedHeader = errors.New("sealed: not a sealed header of this version")
	ErrReplay       = errors.New("sealed: packet number already received")
	ErrTooOld       = errors.New("sealed: packet number behind the replay window")
	ErrOpen         = errors.New("sealed: authentication failed")
	ErrSealedBody   = errors.New("sealed: body too large")
	ErrPNExhausted  = errors.New("sealed: packet numbers exhausted; the session must end")
)

// SealedHeader is the readable, authenticated front of a sealed datagram.
type SealedHeader struct {
	Type Type   // the packet type, without SealedFlag
	Conn uint32 // the connection id the server chose
	PN   uint32 // the packet number
}

// appendSealedHeader appends h's 12 bytes.
func appendSealedHeader(b []byte, h SealedHeader) []byte {
	b = binary.BigEndian.AppendUint16(b, Magic)
	b = append(b, Version, byte(h.Type)|SealedFlag)
	b = binary.BigEndian.AppendUint32(b, h.Conn)
	return binary.BigEndian.AppendUint32(b, h.PN)
}

// ParseSealedHeader reads the header of a sealed datagram of this version
// without opening it: what a server needs to route it. ok is false for
// anything else (a handshake packet, another version, a runt).
func ParseSealedHeader(b []byte) (h SealedHeader, ok bool) {
	if len(b) < SealedHeaderLen+SealTagLen || binary.BigEndian.Uint16(b) != Magic || b[2] != Version || b[3]&SealedFlag == 0 {
		return SealedHeader{}, false
	}
	return SealedHeader{Type: Type(b[3] &^ SealedFlag), Conn: binary.BigEndian.Uint32(b[4:]), PN: binary.BigEndian.Uint32(b[8:])}, true
}

// nonce is the 12-byte nonce of a packet number in a direction. A Sealer
// and an Opener keep theirs, so passing it to the AEAD allocates nothing.
type nonce [chacha20poly1305.NonceSize]byte

func (n *nonce) set(dir Direction, pn uint32) []byte {
	binary.BigEndian.PutUint32(n[0:], uint32(dir))
	binary.BigEndian.PutUint64(n[4:], uint64(pn))
	return n[:]
}

// Sealer seals the datagrams one side sends in a session. Not safe for
// concurrent use.
type Sealer struct {
	aead  cipher.AEAD
	dir   Direction
	conn  uint32
	next  uint32 // the last packet number used
	nonce nonce
}

// NewSealer returns a Sealer for the sender's direction, under its key,
// for the connection conn.
func NewSealer(key [KeyLen]byte, dir Direction, conn uint32) (*Sealer, error) {
	a, err := chacha20poly1305.New(key[:])
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: a, dir: dir, conn: conn}, nil
}

// Seal appends to dst the sealed datagram of a packet of type t whose body
// (everything after today's plaintext header) is body, under the next
// packet number. dst and body must not overlap.
func (s *Sealer) Seal(dst []byte, t Type, body []byte) ([]byte, error) {
	if len(body) > MaxSealedBody {
		return dst, ErrSealedBody
	}
	if s.next == ^uint32(0) {
		return dst, ErrPNExhausted
	}
	s.next++
	start := len(dst)
	dst = appendSealedHeader(dst, SealedHeader{Type: t, Conn: s.conn, PN: s.next})
	return s.aead.Seal(dst, s.nonce.set(s.dir, s.next), body, dst[start:]), nil
}

// Sent is the last packet number Seal used (0 before the first).
func (s *Sealer) Sent() uint32 { return s.next }

// Opener opens the datagrams one side receives in a session and keeps
// their replay window. Not safe for concurrent use.
type Opener struct {
	aead   cipher.AEAD
	dir    Direction
	conn   uint32
	window replayWindow
	nonce  nonce
}

// NewOpener returns an Opener for datagrams the peer sends in direction
// dir, under the peer's key, for the connection conn.
func NewOpener(key [KeyLen]byte, dir Direction, conn uint32) (*Opener, error) {
	a, err := chacha20poly1305.New(key[:])
	if err != nil {
		return nil, err
	}
	return &Opener{aead: a, dir: dir, conn: conn}, nil
}

// Open checks and decrypts a sealed datagram and appends its body to dst
// (dst may be b[:0] to decrypt in place). In order, and before any
// cryptographic work where it can: a datagram that is not a sealed header
// of this version or of another connection is ErrSealedHeader; a packet
// number already received is ErrReplay, one behind the window ErrTooOld;
// then a datagram whose tag does not verify is ErrOpen. Only a datagram
// that opens moves the window, so a forged one can neither replay nor
// lock out the real sender.
func (o *Opener) Open(dst, b []byte) (SealedHeader, []byte, error) {
	if len(b) < SealedHeaderLen+SealTagLen {
		return SealedHeader{}, dst, ErrSealedShort
	}
	h, ok := ParseSealedHeader(b)
	if !ok || h.Conn != o.conn {
		return SealedHeader{}, dst, ErrSealedHeader
	}
	if err := o.window.check(h.PN); err != nil {
		return h, dst, err
	}
	out, err := o.aead.Open(dst, o.nonce.set(o.dir, h.PN), b[SealedHeaderLen:], b[:SealedHeaderLen])
	if err != nil {
		return h, dst, ErrOpen
	}
	o.window.mark(h.PN)
	return h, out, nil
}

// Authentic reports whether b is a sealed datagram of this connection
// that the sender really sealed, whatever the replay window says of it:
// a copy of a datagram already opened is authentic. scratch is work
// space (b is not changed). It costs an authentication: a receiver asks
// it only of the rare datagram whose copy means something (a copy from a
// connection's validated address shows the sender is still there).
func (o *Opener) Authentic(scratch, b []byte) bool {
	h, ok := ParseSealedHeader(b)
	if !ok || h.Conn != o.conn || len(b) < SealedHeaderLen+SealTagLen {
		return false
	}
	_, err := o.aead.Open(scratch[:0], o.nonce.set(o.dir, h.PN), b[SealedHeaderLen:], b[:SealedHeaderLen])
	return err == nil
}

// Newest is the highest packet number opened so far (0: none).
func (o *Opener) Newest() uint32 { return o.window.newest }

// replayWindow remembers the newest packet number opened and which of the
// ReplayWindow−1 before it were opened too (RFC 4303's sliding window,
// RFC 6479's bitmap). Packet number 0 is never sent. The zero value has
// opened nothing. Unlike a plaintext sequence window, it needs no guard
// against forged jumps: only an authenticated datagram moves it.
type replayWindow struct {
	newest uint32
	// bits holds bit pn%64 of word (pn/64) mod len: pn was opened. One word
	// more than the window needs, so the words of every number less than
	// ReplayWindow behind the newest are all distinct.
	bits [ReplayWindow/64 + 1]uint64
}

// check reports whether pn may be opened: not 0, not seen, not too old.
func (w *replayWindow) check(pn uint32) error {
	switch {
	case pn == 0:
		return ErrTooOld
	case pn > w.newest:
		return nil
	case w.newest-pn >= ReplayWindow:
		return ErrTooOld
	}
	if w.bits[(pn/64)%uint32(len(w.bits))]&(1<<(pn%64)) != 0 {
		return ErrReplay
	}
	return nil
}

// mark records pn, which check allowed and which opened.
func (w *replayWindow) mark(pn uint32) {
	if pn > w.newest {
		// Clear the words the window slides over, between the old newest's
		// word (exclusive) and pn's (inclusive), at most all of them.
		from, to := w.newest/64+1, pn/64
		switch {
		case to < from: // the same word
		case to-from >= uint32(len(w.bits)):
			clear(w.bits[:])
		default:
			for i := from; i <= to; i++ {
				w.bits[i%uint32(len(w.bits))] = 0
			}
		}
		w.newest = pn
	}
	w.bits[(pn/64)%uint32(len(w.bits))] |= 1 << (pn % 64)
}

// The key exchange. The server proves it holds its long-term Ed25519 key
// by signing the handshake's transcript; both sides derive one key per
// direction from an ephemeral X25519 agreement, salted with the
// transcript, so the keys belong to this handshake alone and are fresh
// even when the server's long-term key is later stolen.

// Transcript is the hash both sides compute over what the handshake
// exchanged: the session id the client chose, the cookie the server
// issued, both ephemeral X25519 public keys, the server's long-term
// Ed25519 public key and the connection id it assigned. Any change to one
// of them gives different keys and voids the server's signature.
func Transcript(session uint64, cookie Cookie, clientEph, serverEph [32]byte, serverKey ed25519.PublicKey, conn uint32) [sha256.Size]byte {
	h := sha256.New()
	_, _ = io.WriteString(h, "ttytanks handshake v1")
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], session)
	h.Write(b[:])
	h.Write(cookie[:])
	h.Write(clientEph[:])
	h.Write(serverEph[:])
	h.Write(serverKey)
	binary.BigEndian.PutUint32(b[:4], conn)
	h.Write(b[:4])
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// signContext prefixes what the server signs, so its signature over a
// transcript can never be taken for a signature made for anything else
// with the same key (the key is also the server's SSH host key).
const signContext = "ttytanks server handshake signature v1\x00"

// SignTranscript is the server's signature over a transcript.
func SignTranscript(key ed25519.PrivateKey, t [sha256.Size]byte) []byte {
	return ed25519.Sign(key, append([]byte(signContext), t[:]...))
}

// VerifyTranscript reports whether sig is the holder of key's signature
// over t.
func VerifyTranscript(key ed25519.PublicKey, t [sha256.Size]byte, sig []byte) bool {
	return len(key) == ed25519.PublicKeySize && ed25519.Verify(key, append([]byte(signContext), t[:]...), sig)
}

// SessionKeys are what a handshake agrees: a key per direction and a key
// that proves, in a later reconnect, that the client held this session.
type SessionKeys struct {
	ClientToServer [KeyLen]byte
	ServerToClient [KeyLen]byte
	Resume         [KeyLen]byte
}

// ErrKeyExchange is an ephemeral public key that gives no usable secret
// (a low-order point: the agreement is all zeros).
var ErrKeyExchange = errors.New("sealed: bad ephemeral key")

// DeriveKeys agrees the session keys from one side's ephemeral private key
// and the peer's ephemeral public key, with the transcript as HKDF-SHA256's
// salt.
func DeriveKeys(own *ecdh.PrivateKey, peer [32]byte, t [sha256.Size]byte) (SessionKeys, error) {
	pub, err := ecdh.X25519().NewPublicKey(peer[:])
	if err != nil {
		return SessionKeys{}, ErrKeyExchange
	}
	shared, err := own.ECDH(pub)
	if err != nil {
		return SessionKeys{}, ErrKeyExchange // crypto/ecdh refuses an all-zero result
	}
	var k SessionKeys
	for _, d := range []struct {
		label string
		out   *[KeyLen]byte
	}{{"ttytanks c2s", &k.ClientToServer}, {"ttytanks s2c", &k.ServerToClient}, {"ttytanks resume", &k.Resume}} {
		b, err := hkdf.Key(sha256.New, shared, t[:], d.label, KeyLen)
		if err != nil {
			return SessionKeys{}, err
		}
		copy(d.out[:], b)
	}
	return k, nil
}

// A sealed packet's body is what its clear form carries after the 21-byte
// header, behind a prefix that stands for the header's match and player:
// the match epoch (u8), a number the server gives each (match, seat) the
// session is told of, in its Start; a Start also carries the match id
// (u32) after the epoch. The session id, the player and the sequence
// number need no bytes: the connection id, the epoch and the packet number
// stand for them.

// SealedPrefixLen returns the size of the prefix of a sealed body of type t.
func SealedPrefixLen(t Type) int {
	if t == TypeStart {
		return 5
	}
	return 1
}

// Packet is a packet as the sealed layer carries it: its type, its
// header (which the sealed form replaces by the connection, the packet
// number and the epoch) and its body. Every packet type of this package
// is one.
type Packet interface {
	PacketType() Type
	Head() *Header
	AppendBody([]byte) []byte
}

// AppendPacket appends to dst the sealed datagram of pkt under the next
// packet number: the sealed header, the prefix (epoch, standing for the
// packet's match and player, and for a Start the match id from pkt's
// header), pkt's body, all sealed in place, and the tag. pkt's header
// fields other than a Start's Match are not sent. It does not allocate
// when dst has SealOverhead+5 bytes of room beyond the body. On an error
// dst is returned as it was.
func (s *Sealer) AppendPacket(dst []byte, pkt Packet, epoch uint8) ([]byte, error) {
	if s.next == ^uint32(0) {
		return dst, ErrPNExhausted
	}
	t := pkt.PacketType()
	start := len(dst)
	dst = appendSealedHeader(dst, SealedHeader{Type: t, Conn: s.conn, PN: s.next + 1})
	body := len(dst)
	dst = append(dst, epoch)
	if t == TypeStart {
		dst = binary.BigEndian.AppendUint32(dst, pkt.Head().Match)
	}
	dst = pkt.AppendBody(dst)
	if len(dst)-body > MaxSealedBody {
		return dst[:start], ErrSealedBody
	}
	s.next++
	dst = slices.Grow(dst, SealTagLen)
	out := s.aead.Seal(dst[body:body], s.nonce.set(s.dir, s.next), dst[body:], dst[start:body])
	return dst[:body+len(out)], nil
}

// SplitSealedBody reads the prefix of an opened body of type t: the
// epoch, a Start's match id, and the rest, which is the clear form's body.
func SplitSealedBody(t Type, body []byte) (epoch uint8, match uint32, rest []byte, err error) {
	if len(body) < SealedPrefixLen(t) {
		return 0, 0, nil, ErrShort
	}
	if t == TypeStart {
		return body[0], binary.BigEndian.Uint32(body[1:5]), body[5:], nil
	}
	return body[0], 0, body[1:], nil
}

// resumeContext separates reconnect proofs from any other use of a resume
// key.
const resumeContext = "ttytanks resume proof v1"

// ResumeProof is the proof a reconnecting client gives, in its Request,
// that it holds the session its token was issued to: the first 16 bytes
// of HMAC-SHA256(that session's resume key, "ttytanks resume proof v1" ||
// the new handshake's transcript). A token read off the wire without the
// key is worth nothing, and a proof is good for one handshake only.
func ResumeProof(resume [KeyLen]byte, t [sha256.Size]byte) Proof {
	m := hmac.New(sha256.New, resume[:])
	_, _ = io.WriteString(m, resumeContext)
	m.Write(t[:])
	var sum [sha256.Size]byte
	var p Proof
	copy(p[:], m.Sum(sum[:0]))
	return p
}
