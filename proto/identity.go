package proto

import (
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
)

// IdentityKind says who the sender of a Request says it is (PROTOCOL.md
// §4.15). Its values are part of the wire format. Version 8.
type IdentityKind uint8

// Identity kinds.
const (
	// IdentityNone: a guest, who plays unranked.
	IdentityNone IdentityKind = iota
	// IdentityKey: a player key, an Ed25519 key of the player's own,
	// proved by its signature over the handshake's transcript.
	IdentityKey
	// IdentityVouched: a player a server knows by other means (an SSH
	// player by the fingerprint of their SSH key), vouched for by that
	// server's key with its signature over the transcript and the ID.
	IdentityVouched
)

// IDLen is the size of a player's ID: an Ed25519 public key, or the
// SHA-256 fingerprint of an SSH public key.
const IDLen = 32

// Identity is a Request's claim of who sends it, with its proof. The
// proof signs the transcript of the handshake the Request is sealed in, so
// it is good on that connection alone: one read off the wire (it is
// sealed anyway) proves nothing elsewhere.
type Identity struct {
	Kind IdentityKind
	// ID is the player: the player key (IdentityKey), or the SHA-256 of
	// the player's SSH public key in SSH wire form (IdentityVouched),
	// the bytes `ssh-keygen -l` prints as SHA256:…. Zero for a guest.
	ID [IDLen]byte
	// Voucher is the server key that vouches (IdentityVouched only).
	Voucher [ServerKeyLen]byte
	// Sig is the signature: by ID (IdentityKey) or by Voucher.
	Sig [SigLen]byte
}

// Labels of the identity signatures: each keeps a signature made for one
// purpose from being taken for another.
const (
	playerSignContext = "ttytanks player signature v1\x00"
	vouchSignContext  = "ttytanks vouched player v1\x00"
)

// identityLen returns the encoded size of an identity of kind k.
func identityLen(k IdentityKind) int {
	switch k {
	case IdentityKey:
		return 1 + IDLen + SigLen
	case IdentityVouched:
		return 1 + IDLen + ServerKeyLen + SigLen
	}
	return 1
}

// SignIdentity returns the identity of the holder of player key priv, on
// the handshake of transcript t.
func SignIdentity(priv ed25519.PrivateKey, t [sha256.Size]byte) Identity {
	id := Identity{Kind: IdentityKey}
	copy(id.ID[:], priv.Public().(ed25519.PublicKey))
	copy(id.Sig[:], ed25519.Sign(priv, append([]byte(playerSignContext), t[:]...)))
	return id
}

// VouchIdentity returns the identity a server with key server gives a
// player it knows as id (an SSH key's fingerprint), on the handshake of
// transcript t.
func VouchIdentity(server ed25519.PrivateKey, id [IDLen]byte, t [sha256.Size]byte) Identity {
	v := Identity{Kind: IdentityVouched, ID: id}
	copy(v.Voucher[:], server.Public().(ed25519.PublicKey))
	copy(v.Sig[:], ed25519.Sign(server, vouchMessage(id, t)))
	return v
}

func vouchMessage(id [IDLen]byte, t [sha256.Size]byte) []byte {
	m := append([]byte(vouchSignContext), t[:]...)
	return append(m, id[:]...)
}

// Verify reports whether the identity's signature holds on the handshake
// of transcript t: always for a guest. Whether a voucher is one to trust
// is the server's to say.
func (id *Identity) Verify(t [sha256.Size]byte) bool {
	switch id.Kind {
	case IdentityNone:
		return true
	case IdentityKey:
		return ed25519.Verify(id.ID[:], append([]byte(playerSignContext), t[:]...), id.Sig[:])
	case IdentityVouched:
		return ed25519.Verify(id.Voucher[:], vouchMessage(id.ID, t), id.Sig[:])
	}
	return false
}

// appendIdentity appends id's wire form.
func appendIdentity(b []byte, id *Identity) []byte {
	b = append(b, byte(id.Kind))
	switch id.Kind {
	case IdentityKey:
		b = append(b, id.ID[:]...)
		b = append(b, id.Sig[:]...)
	case IdentityVouched:
		b = append(b, id.ID[:]...)
		b = append(b, id.Voucher[:]...)
		b = append(b, id.Sig[:]...)
	}
	return b
}

// identity reads an identity: ErrRange for an unknown kind or a zero ID.
func (r *reader) identity() (Identity, error) {
	id := Identity{Kind: IdentityKind(r.u8())}
	switch id.Kind {
	case IdentityNone:
	case IdentityKey:
		copy(id.ID[:], r.bytes(IDLen))
		copy(id.Sig[:], r.bytes(SigLen))
	case IdentityVouched:
		copy(id.ID[:], r.bytes(IDLen))
		copy(id.Voucher[:], r.bytes(ServerKeyLen))
		copy(id.Sig[:], r.bytes(SigLen))
	default:
		if r.short {
			return Identity{}, ErrShort
		}
		return Identity{}, fmt.Errorf("%w: identity kind %d", ErrRange, id.Kind)
	}
	if id.Kind != IdentityNone && id.ID == ([IDLen]byte{}) && !r.short {
		return Identity{}, fmt.Errorf("%w: a zero player ID", ErrRange)
	}
	return id, nil
}
