package netcode

import (
	"net/netip"
	"time"
)

// chatGuard is what the server keeps of chat across its rooms: the
// prefixes the operator muted, and each prefix's budget of lines, so
// that neither a mute nor a player's budget is shed by taking another
// place (a spectator's, the lobby's, the same seat again).
type chatGuard struct {
	muted  map[netip.Addr]bool // by limitKey; looked up only, never iterated
	budget *prefixLimiter
}

// A prefix's chat budget: chatPrefixBurst lines at once, then one every
// chatPrefixEvery, whatever places its players hold.
const (
	chatPrefixBurst = 6
	chatPrefixEvery = 500 * time.Millisecond
)

func newChatGuard() *chatGuard {
	return &chatGuard{muted: map[netip.Addr]bool{}, budget: newPrefixLimiter(chatPrefixBurst, chatPrefixEvery)}
}

// mute mutes (or unmutes) the prefix key, a limitKey.
func (g *chatGuard) mute(key netip.Addr, on bool) {
	if on {
		g.muted[key] = true
	} else {
		delete(g.muted, key)
	}
}

// isMuted reports whether the peer of l is muted: the prefix its place
// counts against, or its address's.
func (g *chatGuard) isMuted(l *link) bool {
	return g.muted[l.origin] || g.muted[limitKey(l.addr.Addr())]
}

// allow takes a line from the budget of the prefix l's place counts
// against, at now.
func (g *chatGuard) allow(l *link, now time.Time) bool {
	key := l.origin
	if !key.IsValid() {
		key = limitKey(l.addr.Addr())
	}
	return g.budget.allow(key, now)
}
