package proto

import (
	"errors"
	"net/netip"
	"testing"
	"time"
)

var (
	cookieSecret  = []byte("0123456789abcdef0123456789abcdef")
	cookieAddr    = netip.MustParseAddrPort("192.0.2.7:40000")
	cookieNow     = time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)
	cookieSession = uint64(0x3f6a1c2e9b0d4758)
)

func TestCookieValidWithinWindow(t *testing.T) {
	j := NewCookieJar(cookieSecret)
	c := j.Issue(cookieAddr, cookieSession, cookieNow)
	for _, dt := range []time.Duration{0, time.Millisecond, time.Second, CookieLifetime - time.Millisecond, CookieLifetime} {
		if err := j.Verify(c, cookieAddr, cookieSession, cookieNow.Add(dt)); err != nil {
			t.Errorf("Verify %v after issue: %v, want nil", dt, err)
		}
	}
	// Stateless: another jar with the same secret (a restarted server)
	// accepts it too.
	if err := NewCookieJar(cookieSecret).Verify(c, cookieAddr, cookieSession, cookieNow); err != nil {
		t.Errorf("a jar with the same secret rejects the cookie: %v", err)
	}
	// IPv4 and its IPv6-mapped form are the same address.
	mapped := netip.AddrPortFrom(netip.AddrFrom16(cookieAddr.Addr().As16()), cookieAddr.Port())
	if err := j.Verify(c, mapped, cookieSession, cookieNow); err != nil {
		t.Errorf("Verify from %v: %v, want nil", mapped, err)
	}
}

func TestCookieRejected(t *testing.T) {
	j := NewCookieJar(cookieSecret)
	c := j.Issue(cookieAddr, cookieSession, cookieNow)
	v6 := netip.MustParseAddrPort("[2001:db8::7]:40000")
	tests := []struct {
		name string
		jar  *CookieJar
		addr netip.AddrPort
		now  time.Time
		want error
	}{
		{"other IP", j, netip.MustParseAddrPort("192.0.2.8:40000"), cookieNow, ErrCookieInvalid},
		{"other port", j, netip.MustParseAddrPort("192.0.2.7:40001"), cookieNow, ErrCookieInvalid},
		{"IPv6", j, v6, cookieNow, ErrCookieInvalid},
		{"other secret", NewCookieJar([]byte("fedcba9876543210fedcba9876543210")), cookieAddr, cookieNow, ErrCookieInvalid},
		{"random secret", NewCookieJar(nil), cookieAddr, cookieNow, ErrCookieInvalid},
		{"expired by 1 ms", j, cookieAddr, cookieNow.Add(CookieLifetime + time.Millisecond), ErrCookieExpired},
		{"expired long ago", j, cookieAddr, cookieNow.Add(24 * time.Hour), ErrCookieExpired},
		{"from the future", j, cookieAddr, cookieNow.Add(-time.Second), ErrCookieExpired},
	}
	for _, tt := range tests {
		if err := tt.jar.Verify(c, tt.addr, cookieSession, tt.now); !errors.Is(err, tt.want) {
			t.Errorf("%s: Verify = %v, want %v", tt.name, err, tt.want)
		}
	}
	if err := j.Verify(Cookie{}, cookieAddr, cookieSession, cookieNow); !errors.Is(err, ErrCookieInvalid) {
		t.Errorf("zero cookie: Verify = %v, want ErrCookieInvalid", err)
	}
}

func TestCookieEveryBitFlipRejected(t *testing.T) {
	j := NewCookieJar(cookieSecret)
	c := j.Issue(cookieAddr, cookieSession, cookieNow)
	for bit := 0; bit < CookieLen*8; bit++ {
		bad := c
		bad[bit/8] ^= 1 << (bit % 8)
		if err := j.Verify(bad, cookieAddr, cookieSession, cookieNow); !errors.Is(err, ErrCookieInvalid) {
			t.Errorf("cookie with bit %d flipped: Verify = %v, want ErrCookieInvalid", bit, err)
		}
	}
}

func TestCookieDiffersByAddressAndTime(t *testing.T) {
	j := NewCookieJar(cookieSecret)
	a := j.Issue(cookieAddr, cookieSession, cookieNow)
	if b := j.Issue(netip.MustParseAddrPort("192.0.2.7:40001"), cookieSession, cookieNow); a == b {
		t.Errorf("cookies for two ports are equal")
	}
	if b := j.Issue(cookieAddr, cookieSession, cookieNow.Add(time.Millisecond)); a == b {
		t.Errorf("cookies 1 ms apart are equal")
	}
	if b := NewCookieJar(nil).Issue(cookieAddr, cookieSession, cookieNow); a == b {
		t.Errorf("cookies of two secrets are equal")
	}
}

func TestNewCookieJarShortSecretPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("NewCookieJar accepted a 15-byte secret")
		}
	}()
	NewCookieJar(make([]byte, 15))
}

func TestNewCookieJarCopiesSecret(t *testing.T) {
	secret := append([]byte(nil), cookieSecret...)
	j := NewCookieJar(secret)
	c := j.Issue(cookieAddr, cookieSession, cookieNow)
	secret[0] ^= 1
	if err := j.Verify(c, cookieAddr, cookieSession, cookieNow); err != nil {
		t.Errorf("changing the caller's secret slice broke the jar: %v", err)
	}
}
