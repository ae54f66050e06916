package proto

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"encoding/hex"
	"testing"
)

// TestHandshakeVectors pins the key exchange with vectors computed apart
// from this code, from the design alone, with Python's cryptography 48
// and hashlib/hmac: X25519 private keys 01..20 (client) and 41..60
// (server), the Ed25519 key of seed 61..80, session 0x0123456789abcdef,
// the fixtures' cookie (c0..d7) and connection id 0x00c0ffee.
func TestHandshakeVectors(t *testing.T) {
	const (
		wantClientEph  = "07a37cbc142093c8b755dc1b10e86cb426374ad16aa853ed0bdfc0b2b86d1c7c"
		wantServerEph  = "64b101b1d0be5a8704bd078f9895001fc03e8e9f9522f188dd128d9846d48466"
		wantServerKey  = "882d0ea3b2864e7a587f3e698cea4459998312e655e05fa5e8b5119d8baac8cd"
		wantTranscript = "5cb595a124350898b0dc40f3231ae9aa9bd04bc68a1f24e35c766c61f06dfd41"
		wantSig        = "aa229bb3e840614e684ac578cf98d941dd36d845260f899f4a528238d8640a6b" +
			"69d141776d149e65f73489bfafc97b28af5e8b19028447fb7f5454d74422e905"
		wantC2S    = "1eb4e8068db8f548a3c7acef36c43d85d962920842bbc284a537b252175cd19f"
		wantS2C    = "014d3a33b7028970965fd16a7bdee2052f2eebebb02f84f5dc2443e87c09db0d"
		wantResume = "a92bd0c24ab5ab968d9ddf93305d8a2c6123f484cffcda569588e5e404dcc070"
		wantProof  = "1dcb93a60ec72436f9287db62ccddba7"
	)
	ce, err := ecdh.X25519().NewPrivateKey(testBytes(0x01, 32))
	if err != nil {
		t.Fatal(err)
	}
	se, err := ecdh.X25519().NewPrivateKey(testBytes(0x41, 32))
	if err != nil {
		t.Fatal(err)
	}
	serverPriv := ed25519.NewKeyFromSeed(testBytes(0x61, ed25519.SeedSize))
	serverPub := serverPriv.Public().(ed25519.PublicKey)
	var cpub, spub [32]byte
	copy(cpub[:], ce.PublicKey().Bytes())
	copy(spub[:], se.PublicKey().Bytes())
	tr := Transcript(0x0123456789abcdef, testCookie(), cpub, spub, serverPub, 0x00c0ffee)
	sig := SignTranscript(serverPriv, tr)
	ck := deriveBoth(t, ce, se, cpub, spub, tr)
	proof := ResumeProof(ck.Resume, tr)
	for _, v := range []struct {
		name      string
		got, want string
	}{
		{"client ephemeral key", hex.EncodeToString(cpub[:]), wantClientEph},
		{"server ephemeral key", hex.EncodeToString(spub[:]), wantServerEph},
		{"server key", hex.EncodeToString(serverPub), wantServerKey},
		{"transcript", hex.EncodeToString(tr[:]), wantTranscript},
		{"signature", hex.EncodeToString(sig), wantSig},
		{"client → server key", hex.EncodeToString(ck.ClientToServer[:]), wantC2S},
		{"server → client key", hex.EncodeToString(ck.ServerToClient[:]), wantS2C},
		{"resume key", hex.EncodeToString(ck.Resume[:]), wantResume},
		{"resume proof", hex.EncodeToString(proof[:]), wantProof},
	} {
		if v.got != v.want {
			t.Errorf("%s:\n got %s\nwant %s", v.name, v.got, v.want)
		}
	}
	if !VerifyTranscript(serverPub, tr, sig) {
		t.Error("the vector's signature does not verify")
	}
}

// TestResumeProof: a proof is a function of the resume key and the
// transcript alone, and any change to either changes it.
func TestResumeProof(t *testing.T) {
	var key, other [KeyLen]byte
	copy(key[:], testBytes(0x10, KeyLen))
	copy(other[:], testBytes(0x10, KeyLen))
	other[KeyLen-1] ^= 1
	var tr, tr2 [32]byte
	copy(tr[:], testBytes(0x50, 32))
	copy(tr2[:], testBytes(0x50, 32))
	tr2[0] ^= 0x80
	p := ResumeProof(key, tr)
	if p == (Proof{}) {
		t.Fatal("the proof is zero")
	}
	if again := ResumeProof(key, tr); again != p {
		t.Errorf("the same key and transcript gave %x, then %x", p, again)
	}
	if ResumeProof(other, tr) == p {
		t.Error("another resume key gives the same proof")
	}
	if ResumeProof(key, tr2) == p {
		t.Error("another transcript gives the same proof")
	}
	if ResumeProof(other, tr2) == p {
		t.Error("another key and transcript give the same proof")
	}
	// The key and the transcript are not interchangeable.
	if ResumeProof(tr, key) == p {
		t.Error("swapping the key and the transcript gives the same proof")
	}
}
