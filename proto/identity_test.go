package proto

import (
	"crypto/ed25519"
	"crypto/sha256"
	"testing"
)

// TestIdentityProofs: a player key's signature and a server's vouching
// hold on their own transcript only, and a signature made for one purpose
// is never taken for the other.
func TestIdentityProofs(t *testing.T) {
	player := ed25519.NewKeyFromSeed(testBytes(0x10, ed25519.SeedSize))
	server := ed25519.NewKeyFromSeed(testBytes(0x50, ed25519.SeedSize))
	tr := sha256.Sum256([]byte("one handshake"))
	other := sha256.Sum256([]byte("another handshake"))
	fp := sha256.Sum256([]byte("an SSH key in wire form"))

	signed := SignIdentity(player, tr)
	if !signed.Verify(tr) {
		t.Error("a player's identity does not verify on its transcript")
	}
	if signed.Verify(other) {
		t.Error("a player's identity verifies on another transcript")
	}
	if string(signed.ID[:]) != string(player.Public().(ed25519.PublicKey)) {
		t.Error("the identity is not the player's key")
	}
	vouched := VouchIdentity(server, fp, tr)
	if !vouched.Verify(tr) || vouched.Verify(other) {
		t.Error("a vouched identity holds on the wrong transcripts")
	}
	forged := vouched
	forged.ID[0] ^= 1 // another player, same signature
	if forged.Verify(tr) {
		t.Error("a vouching signature covers another ID")
	}
	// The server's signature over the transcript (its Accept's) is not a
	// player's, nor a vouching.
	var asPlayer Identity
	asPlayer.Kind = IdentityKey
	copy(asPlayer.ID[:], server.Public().(ed25519.PublicKey))
	copy(asPlayer.Sig[:], SignTranscript(server, tr))
	if asPlayer.Verify(tr) {
		t.Error("the server's handshake signature passes for a player's")
	}
	if (&Identity{Kind: 3}).Verify(tr) {
		t.Error("an unknown kind verifies")
	}
	if !(&Identity{}).Verify(tr) {
		t.Error("a guest needs no proof")
	}
	// Through the wire and back.
	for _, id := range []Identity{signed, vouched, {}} {
		q := &Request{Name: "alice", Identity: id}
		got, err := ParseRequest(q.Append(nil))
		if err != nil || got.Identity != id || !got.Identity.Verify(tr) {
			t.Errorf("identity kind %d: %v, %+v", id.Kind, err, got.Identity)
		}
		if q.Len() != len(q.Append(nil)) {
			t.Errorf("identity kind %d: Len %d, encoded %d", id.Kind, q.Len(), len(q.Append(nil)))
		}
	}
}
