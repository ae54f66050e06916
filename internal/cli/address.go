package cli

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
)

// splitServer checks the form of HOST:PORT (or HOST, port 7777; IPv6 in
// brackets) without looking anything up: a malformed address is a usage
// error.
func splitServer(addr string) (host string, port uint16, err error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil { // no port: HOST, or [IPv6]
		h, p = addr, "7777"
		if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
			h = h[1 : len(h)-1]
		}
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 || h == "" || strings.ContainsAny(h, " /[]") {
		return "", 0, fmt.Errorf("%q is not a server address like host:7777", addr)
	}
	return h, uint16(n), nil
}

// resolveServer looks the host up; failing that is a runtime error.
func resolveServer(host string, port uint16) (netip.AddrPort, error) {
	ips, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip", host)
	if err != nil || len(ips) == 0 {
		return netip.AddrPort{}, fmt.Errorf("cannot resolve %q: %v", host, err)
	}
	ip := ips[0]
	for _, a := range ips {
		if a.Is4() {
			ip = a
			break
		}
	}
	return netip.AddrPortFrom(ip.Unmap(), port), nil
}

// shareAddr is the address other players should join: the host's name
// when listening on all interfaces.
func shareAddr(listen string, port uint16) string {
	host, _, err := net.SplitHostPort(listen)
	if err != nil || host == "" || host == "0.0.0.0" || host == "::" {
		if h, err := os.Hostname(); err == nil && h != "" {
			host = h
		} else {
			host = "localhost"
		}
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}

// sshShare is the command other players run to join over SSH: "ssh -p
// PORT HOST", with the host as shareAddr names it.
func sshShare(listen string, port int) string {
	host, _, _ := net.SplitHostPort(shareAddr(listen, uint16(port)))
	if port == 22 {
		return "ssh " + host
	}
	return "ssh -p " + strconv.Itoa(port) + " " + host
}

// loopback is the address of a port of this host's own server.
func loopback(port uint16) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), port)
}
