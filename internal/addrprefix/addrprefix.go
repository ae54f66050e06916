// Package addrprefix holds the one rule every per-address limit of
// ttytanks counts under, over UDP and SSH alike: an IPv4 address, or the
// /64 of an IPv6 address (one host's usual share: an address per /128
// would be no limit at all). Seats, places, rooms, connections,
// handshakes, join-code tries, kicks and bans all use it, so a ban, a kick
// and a cap mean the same thing on both front ends.
package addrprefix

import "net/netip"

// Of returns the prefix ip counts under, as an address: ip itself for
// IPv4 (IPv4-mapped IPv6 addresses unmapped), the first address of its
// /64 for IPv6.
func Of(ip netip.Addr) netip.Addr {
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.Addr()
	}
	return ip
}
