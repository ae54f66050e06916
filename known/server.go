package known

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// maxZoneLen bounds the zone of an IPv6 address, in bytes (an interface
// name is at most 15).
const maxZoneLen = 64

// CanonicalServer returns the name under which a known_servers file keeps
// the server at addr, "HOST:PORT", so that one server has one name:
//
//   - the port is required, a decimal number from 1 to 65535, written
//     without leading zeros;
//   - an IP address is written the one way net/netip writes it (IPv6
//     compressed, lower-case, in brackets; an IPv4-mapped IPv6 address as
//     IPv4);
//   - a host name is lower-cased and loses a trailing dot, and may hold
//     only ASCII letters, digits, '-', '_' and '.' (the names Go's resolver
//     takes; an international name goes in its xn-- form), in dot-separated
//     labels of 1 to 63 characters.
//
// addr is the address as the user gave it (host name, not the address it
// resolves to), as ssh files known hosts. Anything else is an error
// wrapping ErrBadServer.
func CanonicalServer(addr string) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%w %q: %s", ErrBadServer, clip(addr), why)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return bad("want HOST:PORT, or [IPv6]:PORT")
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 {
		return bad("the port is not a number from 1 to 65535")
	}
	p := strconv.FormatUint(n, 10)
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Is4In6() && ip.Zone() == "" {
			ip = ip.Unmap()
		}
		if ip.Is4() {
			return ip.String() + ":" + p, nil
		}
		if len(ip.Zone()) > maxZoneLen || !nameChars(ip.Zone()) {
			return bad("the IPv6 zone may hold only letters, digits, '-', '_' and '.'")
		}
		return "[" + ip.String() + "]:" + p, nil
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" {
		return bad("no host")
	}
	if len(host) > 253 || !nameChars(host) {
		return bad("not a host name (letters, digits, '-', '_' and '.') or an IP address")
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 {
			return bad("a host name is dot-separated labels of 1 to 63 characters")
		}
	}
	return host + ":" + p, nil
}

// nameChars reports whether s holds only ASCII letters, digits, '-', '_'
// and '.'.
func nameChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
