package proto

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"testing"
)

// testKeys are fixed direction keys for the sealed layer's tests.
func testKeys() (c2s, s2c [KeyLen]byte) {
	for i := range c2s {
		c2s[i], s2c[i] = byte(i), byte(0x80+i)
	}
	return
}

func newPair(t testing.TB, dir Direction, conn uint32) (*Sealer, *Opener) {
	t.Helper()
	c2s, s2c := testKeys()
	key := c2s
	if dir == ServerToClient {
		key = s2c
	}
	s, err := NewSealer(key, dir, conn)
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOpener(key, dir, conn)
	if err != nil {
		t.Fatal(err)
	}
	return s, o
}

// TestSealVector pins the sealed layout to the byte: fixed key, connection,
// packet number and body give exactly these bytes, and they open. (The
// version byte is part of it: a new protocol version changes the vector.)
func TestSealVector(t *testing.T) {
	s, o := newPair(t, ClientToServer, 0x01020304)
	body := []byte("ttytanks")
	got, err := s.Seal(nil, TypeInput, body)
	if err != nil {
		t.Fatal(err)
	}
	// magic 5454, version, type 0x85 (sealed Input), conn 01020304, pn 1,
	// then 8 bytes of ciphertext and the 16-byte tag.
	wantHead := []byte{0x54, 0x54, Version, 0x85, 1, 2, 3, 4, 0, 0, 0, 1}
	if !bytes.Equal(got[:SealedHeaderLen], wantHead) || len(got) != SealedHeaderLen+len(body)+SealTagLen {
		t.Fatalf("sealed % x, want header % x and %d bytes", got, wantHead, SealedHeaderLen+len(body)+SealTagLen)
	}
	// Checked against another implementation of RFC 8439's AEAD (Python's
	// cryptography 48: ChaCha20Poly1305(key 00..1f).encrypt(nonce
	// 00000000 0000000000000001, b"ttytanks", the header
	// 5454 0a 85 01020304 00000001)).
	const want = "54540a8501020304000000011d2805ad5064d30909e752a57dc7b0aa4afba9884c594dbb"
	if h := hex.EncodeToString(got); h != want {
		t.Errorf("sealed\n %s\nwant\n %s", h, want)
	}
	h, out, err := o.Open(nil, got)
	if err != nil || !bytes.Equal(out, body) || h != (SealedHeader{Type: TypeInput, Conn: 0x01020304, PN: 1}) {
		t.Fatalf("Open = %+v %q %v", h, out, err)
	}
}

// TestSealRoundTrip: many packets of every size seal and open in order,
// in place, with their header; the packet numbers count from 1.
func TestSealRoundTrip(t *testing.T) {
	s, o := newPair(t, ServerToClient, 7)
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 0, MaxDatagram)
	for i := 1; i <= 500; i++ {
		body := make([]byte, rng.IntN(MaxSealedBody+1))
		for j := range body {
			body[j] = byte(rng.Uint32())
		}
		d, err := s.Seal(buf[:0], TypeState, body)
		if err != nil {
			t.Fatal(err)
		}
		if len(d) > MaxDatagram {
			t.Fatalf("sealed %d bytes, more than %d", len(d), MaxDatagram)
		}
		h, out, err := o.Open(d[:SealedHeaderLen], d) // in place
		if err != nil || h.PN != uint32(i) || h.Type != TypeState || !bytes.Equal(out[SealedHeaderLen:], body) {
			t.Fatalf("packet %d: %+v, %v", i, h, err)
		}
	}
	if _, err := s.Seal(nil, TypeState, make([]byte, MaxSealedBody+1)); !errors.Is(err, ErrSealedBody) {
		t.Errorf("a body over MaxSealedBody: %v", err)
	}
}

// TestSealTamper: flipping any bit of a sealed datagram, cutting it or
// opening it with the other direction's key or as another connection
// makes Open fail with a reason, and never yields a body.
func TestSealTamper(t *testing.T) {
	s, _ := newPair(t, ClientToServer, 99)
	d, err := s.Seal(nil, TypeInput, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	if err != nil {
		t.Fatal(err)
	}
	for i := range d {
		for bit := range 8 {
			_, o := newPair(t, ClientToServer, 99)
			bad := bytes.Clone(d)
			bad[i] ^= 1 << bit
			_, out, err := o.Open(nil, bad)
			if err == nil || out != nil {
				t.Fatalf("byte %d bit %d flipped: opened %x, %v", i, bit, out, err)
			}
			if i >= 4 && i < 8 && !errors.Is(err, ErrSealedHeader) { // the connection id
				t.Errorf("byte %d (conn) flipped: %v, want ErrSealedHeader", i, err)
			}
			if i >= 8 && !errors.Is(err, ErrOpen) && !(i < SealedHeaderLen && errors.Is(err, ErrTooOld)) {
				t.Errorf("byte %d flipped: %v, want ErrOpen (or, for the packet number, ErrTooOld)", i, err)
			}
		}
	}
	for n := range len(d) {
		_, o := newPair(t, ClientToServer, 99)
		if _, _, err := o.Open(nil, d[:n]); err == nil {
			t.Fatalf("cut to %d bytes: opened", n)
		}
	}
	_, wrongDir := newPair(t, ServerToClient, 99)
	if _, _, err := wrongDir.Open(nil, d); !errors.Is(err, ErrOpen) {
		t.Errorf("opened with the other direction's key: %v, want ErrOpen", err)
	}
	c2s, _ := testKeys()
	reflected, _ := NewOpener(c2s, ServerToClient, 99) // same key, the other direction's nonces
	if _, _, err := reflected.Open(nil, d); !errors.Is(err, ErrOpen) {
		t.Errorf("a datagram reflected to its sender: %v, want ErrOpen", err)
	}
}

// TestSealReplayAndReorder: a datagram opens once; reordered datagrams
// within the window open; one behind the window is dropped as too old;
// a forged datagram with a far packet number does not move the window.
func TestSealReplayAndReorder(t *testing.T) {
	s, o := newPair(t, ClientToServer, 5)
	var ds [][]byte
	for range 600 {
		d, err := s.Seal(nil, TypeInput, []byte{0xAA})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	open := func(i int) error { _, _, err := o.Open(nil, bytes.Clone(ds[i])); return err }
	if err := open(0); err != nil {
		t.Fatal(err)
	}
	if err := open(0); !errors.Is(err, ErrReplay) {
		t.Fatalf("replayed: %v, want ErrReplay", err)
	}
	// A forged datagram numbered far ahead fails and moves nothing.
	forged := bytes.Clone(ds[599])
	forged[len(forged)-1] ^= 1
	if _, _, err := o.Open(nil, forged); !errors.Is(err, ErrOpen) {
		t.Fatalf("forged: %v", err)
	}
	// 2..300 in reverse: each is within 256 of the newest when it comes.
	if err := open(299); err != nil {
		t.Fatal(err)
	}
	for i := 298; i >= 299-ReplayWindow+1; i-- {
		if err := open(i); err != nil {
			t.Fatalf("pn %d, %d behind the newest: %v", i+1, 299-i, err)
		}
	}
	if err := open(299 - ReplayWindow); !errors.Is(err, ErrTooOld) {
		t.Fatalf("pn %d, %d behind: %v, want ErrTooOld", 300-ReplayWindow, ReplayWindow, err)
	}
	for _, i := range []int{299, 250, 100} {
		if err := open(i); !errors.Is(err, ErrReplay) && !errors.Is(err, ErrTooOld) {
			t.Errorf("pn %d again: %v", i+1, err)
		}
	}
	if err := open(599); err != nil {
		t.Fatal(err)
	}
	if o.Newest() != 600 {
		t.Errorf("newest %d, want 600", o.Newest())
	}
}

// TestReplayWindowModel drives the window with random packet numbers near
// the newest and compares every verdict with a plain model: a number is
// accepted iff it is not 0, was not accepted before and is less than
// ReplayWindow behind the newest accepted.
func TestReplayWindowModel(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 3))
		var w replayWindow
		seen := map[uint32]bool{}
		var newest uint32
		for range 20000 {
			pn := newest + 1
			switch r := rng.IntN(10); {
			case r < 4:
				pn = newest + uint32(rng.IntN(70))
			case r < 8:
				pn = newest - uint32(rng.IntN(300))
			case r == 8:
				pn = newest + uint32(rng.IntN(1000))
			}
			if pn > 1<<31 { // wrapped below zero: keep to small numbers
				pn = uint32(rng.IntN(3))
			}
			want := pn != 0 && !seen[pn] && (pn > newest || newest-pn < ReplayWindow)
			err := w.check(pn)
			if (err == nil) != want {
				t.Fatalf("seed %d: pn %d with newest %d (seen %v): check %v, want accepted=%v", seed, pn, newest, seen[pn], err, want)
			}
			if err == nil {
				w.mark(pn)
				seen[pn] = true
				newest = max(newest, pn)
			}
		}
	}
}

// TestKeyExchange: client and server agree the same keys, which seal and
// open across; the server's signature over the transcript verifies with
// its public key and fails when any field of the transcript differs or
// another key signed; a low-order ephemeral key is refused.
func TestKeyExchange(t *testing.T) {
	serverPub, serverPriv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	ce, err := ecdh.X25519().GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	se, err := ecdh.X25519().GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	var cpub, spub [32]byte
	copy(cpub[:], ce.PublicKey().Bytes())
	copy(spub[:], se.PublicKey().Bytes())
	cookie := Cookie{1, 2, 3}
	tr := Transcript(42, cookie, cpub, spub, serverPub, 7)
	sig := SignTranscript(serverPriv, tr)
	if !VerifyTranscript(serverPub, tr, sig) {
		t.Fatal("the server's signature does not verify")
	}
	otherPub, _, _ := ed25519.GenerateKey(nil)
	for name, t2 := range map[string][32]byte{
		"session":    Transcript(43, cookie, cpub, spub, serverPub, 7),
		"cookie":     Transcript(42, Cookie{1, 2, 4}, cpub, spub, serverPub, 7),
		"client eph": Transcript(42, cookie, spub, spub, serverPub, 7),
		"server eph": Transcript(42, cookie, cpub, cpub, serverPub, 7),
		"server key": Transcript(42, cookie, cpub, spub, otherPub, 7),
		"conn":       Transcript(42, cookie, cpub, spub, serverPub, 8),
	} {
		if t2 == tr || VerifyTranscript(serverPub, t2, sig) {
			t.Errorf("a transcript with another %s verifies", name)
		}
	}
	if VerifyTranscript(otherPub, tr, sig) || VerifyTranscript(serverPub, tr, sig[:63]) || VerifyTranscript(nil, tr, sig) {
		t.Error("a signature verified under the wrong key, or cut short")
	}
	ck := deriveBoth(t, ce, se, cpub, spub, tr)
	if ck.ClientToServer == ck.ServerToClient || ck.ClientToServer == ck.Resume || ck.ServerToClient == ck.Resume {
		t.Fatal("two of the derived keys are equal")
	}
	other, _ := DeriveKeys(ce, spub, Transcript(42, cookie, cpub, spub, serverPub, 8))
	if other == ck {
		t.Fatal("another transcript derived the same keys")
	}
	cs, _ := NewSealer(ck.ClientToServer, ClientToServer, 7)
	so, _ := NewOpener(ck.ClientToServer, ClientToServer, 7)
	d, _ := cs.Seal(nil, TypeRequest, []byte("hello"))
	if _, out, err := so.Open(nil, d); err != nil || string(out) != "hello" {
		t.Fatalf("across the exchange: %q %v", out, err)
	}
	if _, err := DeriveKeys(ce, [32]byte{}, tr); !errors.Is(err, ErrKeyExchange) {
		t.Errorf("an all-zero (low-order) peer key: %v, want ErrKeyExchange", err)
	}
}

// twoTankStateBody is the body of a 2-tank State with no bullet: the
// datagram without today's plaintext header.
const twoTankStateBody = 72 + 12*2 + 8*2 - HeaderLen

func BenchmarkSealState(b *testing.B) {
	s, _ := newPair(b, ServerToClient, 1)
	body := make([]byte, twoTankStateBody)
	buf := make([]byte, 0, MaxDatagram)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Seal(buf[:0], TypeState, body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpenState(b *testing.B) {
	s, o := newPair(b, ServerToClient, 1)
	body := make([]byte, twoTankStateBody)
	// Seal b.N datagrams ahead, so each opens once, in order.
	n := b.N
	ds := make([][]byte, n)
	for i := range ds {
		ds[i], _ = s.Seal(nil, TypeState, body)
	}
	buf := make([]byte, 0, MaxDatagram)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := range n {
		if _, _, err := o.Open(buf[:0], ds[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// deriveBoth derives the session keys on both sides of a handshake and
// fails the test unless they agree.
func deriveBoth(t *testing.T, ce, se *ecdh.PrivateKey, cpub, spub [32]byte, tr [sha256.Size]byte) SessionKeys {
	t.Helper()
	ck, err := DeriveKeys(ce, spub, tr)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := DeriveKeys(se, cpub, tr)
	if err != nil {
		t.Fatal(err)
	}
	if ck != sk {
		t.Fatal("the two sides derived different keys")
	}
	return ck
}

// TestAuthenticIgnoresTheWindow: a datagram already opened is still
// authentic (a copy the sender really sealed), a damaged one is not, and
// asking changes neither the window nor the datagram.
func TestAuthenticIgnoresTheWindow(t *testing.T) {
	s, o := newPair(t, ClientToServer, 7)
	leave := Leave{Reason: LeaveQuit}
	d, err := s.AppendPacket(nil, &leave, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := o.Open(nil, bytes.Clone(d)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := o.Open(nil, bytes.Clone(d)); !errors.Is(err, ErrReplay) {
		t.Fatalf("the copy opened: %v, want ErrReplay", err)
	}
	orig := bytes.Clone(d)
	if !o.Authentic(nil, d) {
		t.Fatal("a copy of an opened datagram is not authentic")
	}
	if !bytes.Equal(d, orig) {
		t.Fatal("Authentic changed the datagram")
	}
	d[len(d)-1] ^= 1
	if o.Authentic(nil, d) {
		t.Fatal("a damaged datagram is authentic")
	}
	if _, _, err := o.Open(nil, orig); !errors.Is(err, ErrReplay) {
		t.Fatalf("after Authentic the copy opens: %v, want ErrReplay still", err)
	}
}
