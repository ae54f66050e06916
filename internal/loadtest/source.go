package loadtest

import "net/netip"

// loadSource returns the source address of client i: toward a loopback
// server, perAddr clients per address of 127.1.0.0/16 and up (127.0.0.0/8
// is all loopback on Linux, and 127.0.x.x holds the server and the SSH
// players' range); elsewhere the host's own address.
func loadSource(target netip.AddrPort, i, perAddr int) netip.Addr {
	if !target.Addr().IsLoopback() || !target.Addr().Is4() {
		return netip.Addr{}
	}
	k := i / perAddr
	return netip.AddrFrom4([4]byte{127, byte(1 + k/(254*256)), byte(k / 254 % 256), byte(k%254 + 1)})
}
