package sshfront

import (
	"net/netip"
	"sync"

	gossh "golang.org/x/crypto/ssh"
)

// BanList is a set of address prefixes and public keys refused for good:
// a banned prefix (an IPv4 address, an IPv6 /64: banning one address
// bans its /64) has its connections closed at accept, and a session
// authenticated with a banned key is told so and closed. Entries can be added at any time and
// are never removed. The zero value is an empty list, and a nil
// *BanList bans nothing. Its methods are safe for concurrent use.
type BanList struct {
	mu    sync.Mutex
	addrs map[netip.Addr]struct{} // by prefixOf
	keys  map[string]struct{}     // by wire encoding
}

// Ban adds addr's prefix (an IPv4-mapped IPv6 address counts as its
// IPv4 one; an IPv6 address bans its /64).
func (b *BanList) Ban(addr netip.Addr) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.addrs == nil {
		b.addrs = map[netip.Addr]struct{}{}
	}
	b.addrs[prefixOf(addr)] = struct{}{}
}

// BanKey adds key.
func (b *BanList) BanKey(key gossh.PublicKey) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.keys == nil {
		b.keys = map[string]struct{}{}
	}
	b.keys[string(key.Marshal())] = struct{}{}
}

// banned reports whether addr's prefix is on the list.
func (b *BanList) banned(addr netip.Addr) bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.addrs[prefixOf(addr)]
	return ok
}

// keyBanned reports whether key is on the list.
func (b *BanList) keyBanned(key gossh.PublicKey) bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.keys[string(key.Marshal())]
	return ok
}
