//go:build !linux

package loadtest

import "net/netip"

// newSocketSet returns the socket set of a shard of n clients: here a
// goroutine a socket (Linux has an epoll loop).
func newSocketSet(_ netip.AddrPort, cfg *Config, n int) (socketSet, error) {
	return newGoroutineSockets(cfg, n), nil
}
