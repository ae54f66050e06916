package proto

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"net/netip"
	"time"
)

// CookieJar issues and verifies the stateless cookies of the handshake. A
// cookie is 8 bytes of issue time (Unix milliseconds, big-endian) followed
// by the first 16 bytes of HMAC-SHA256(secret, "ttytanks cookie v2" ||
// time || IP (16 bytes, IPv4 mapped into IPv6) || port u16 || session
// u64): it is good for one session, from one address. The server
// keeps nothing per client: Verify recomputes the MAC. Create one with
// NewCookieJar (the zero CookieJar has an empty secret). A CookieJar is
// safe for concurrent use.
type CookieJar struct {
	secret []byte
}

// cookieDomain separates cookie MACs from any other use of the secret.
const cookieDomain = "ttytanks cookie v2"

// NewCookieJar returns a jar keyed by a copy of secret, which must be at
// least 16 bytes; NewCookieJar(nil) draws a 32-byte secret from
// crypto/rand. It panics on a non-nil secret shorter than 16 bytes.
func NewCookieJar(secret []byte) *CookieJar {
	if secret == nil {
		secret = make([]byte, 32)
		rand.Read(secret) // never returns an error (crypto/rand docs)
	} else if len(secret) < 16 {
		panic("proto: NewCookieJar secret shorter than 16 bytes")
	}
	return &CookieJar{secret: append([]byte(nil), secret...)}
}

// Issue returns a cookie for session at addr, valid until now +
// CookieLifetime.
func (j *CookieJar) Issue(addr netip.AddrPort, session uint64, now time.Time) Cookie {
	var c Cookie
	binary.BigEndian.PutUint64(c[:8], uint64(now.UnixMilli()))
	j.mac(&c, addr, session)
	return c
}

// Verify checks that c was issued by this jar for session at addr (same
// IP and port) no more than CookieLifetime before now. It returns
// ErrCookieInvalid for a cookie this jar did not issue for that session
// and address, and ErrCookieExpired for one it did issue, but too long ago
// or after now.
func (j *CookieJar) Verify(c Cookie, addr netip.AddrPort, session uint64, now time.Time) error {
	want := c
	j.mac(&want, addr, session)
	if !hmac.Equal(want[8:], c[8:]) {
		return ErrCookieInvalid
	}
	issued := int64(binary.BigEndian.Uint64(c[:8]))
	age := now.UnixMilli() - issued
	if age < 0 || age > CookieLifetime.Milliseconds() {
		return ErrCookieExpired
	}
	return nil
}

// Issued returns the cookie's issue time, as written in it. Only a cookie
// that passed Verify is known to say the truth; a server uses it to measure
// the handshake's round trip (Challenge sent → Join received).
func (c Cookie) Issued() time.Time {
	return time.UnixMilli(int64(binary.BigEndian.Uint64(c[:8])))
}

// mac fills c[8:] from the time in c[:8], addr and session.
func (j *CookieJar) mac(c *Cookie, addr netip.AddrPort, session uint64) {
	m := hmac.New(sha256.New, j.secret)
	var msg [len(cookieDomain) + 8 + 16 + 2 + 8]byte
	n := copy(msg[:], cookieDomain)
	n += copy(msg[n:], c[:8])
	ip := addr.Addr().As16()
	n += copy(msg[n:], ip[:])
	binary.BigEndian.PutUint16(msg[n:], addr.Port())
	binary.BigEndian.PutUint64(msg[n+2:], session)
	m.Write(msg[:])
	var sum [sha256.Size]byte
	copy(c[8:], m.Sum(sum[:0]))
}
