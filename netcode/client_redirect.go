package netcode

import (
	"crypto/ed25519"
	"net/netip"
	"time"

	"ttytanks/proto"
)

// maxHops bounds the Redirects one session follows: a server never
// redirects a Redirected Request, so one hop is the rule and a second a
// fleet whose view changed under the join.
const maxHops = 2

// fleetGiveUp is how long a session placed by a Redirect waits for a
// silent server before it goes back to the server it first asked, which
// knows the fleet (a dead server leaves the fleet's lobby within 3 s).
const fleetGiveUp = 8 * time.Second

// handover is the client's side of the fleet: the Redirects it followed,
// the key the server it trusted vouched for, and the server it first
// asked, to go back to if the one it was sent to dies.
type handover struct {
	hops  int
	key   ed25519.PublicKey // the target's key, as vouched; nil: not redirected
	entry netip.AddrPort
	room  RoomRequest // the entry's request, for a return
	back  bool        // went back to the entry once already
}

// follow takes a Redirect from the server at from (which asked room):
// it reports false when the session has hopped enough.
func (h *handover) follow(rd *proto.Redirect, from netip.AddrPort, room RoomRequest) bool {
	if h.hops >= maxHops {
		return false
	}
	if h.hops == 0 && !h.back {
		h.entry, h.room = from, afterDeath(room)
	}
	h.hops++
	h.key = append(ed25519.PublicKey(nil), rd.Key[:]...)
	return true
}

// redirected reports whether the session plays on a server it was sent to.
func (h *handover) redirected() bool { return h.key != nil }

// trust returns the check of a server's key: the vouched key exactly
// after a Redirect (no prompt: the server we trusted vouched for it),
// else the configured one.
func (h *handover) trust(configured func(ed25519.PublicKey) error) func(ed25519.PublicKey) error {
	if h.key == nil {
		return configured
	}
	want := h.key
	return func(got ed25519.PublicKey) error {
		if !want.Equal(got) {
			return &KeyError{Want: want, Got: got}
		}
		return nil
	}
}

// returning reports whether a redirected session silent for silence
// (after is the limit) should go back to its entry server, and if so gives it and the request
// to send there: once per session.
func (h *handover) returning(silence, after time.Duration) (netip.AddrPort, RoomRequest, bool) {
	if h.key == nil || h.back || silence < after {
		return netip.AddrPort{}, RoomRequest{}, false
	}
	h.back, h.key, h.hops = true, nil, 0
	return h.entry, h.room, true
}

// afterDeath is what a session asks its entry server for when the server
// it was sent to dies: the same room by name (opened again), or, for a
// private room, whose code died with it, a quick match.
func afterDeath(r RoomRequest) RoomRequest {
	switch r.Kind {
	case RoomCode:
		return RoomRequest{Kind: RoomQuick, Spectate: r.Spectate}
	case RoomCreate:
		if r.Spec.Private || r.Spec.Name == "" {
			return RoomRequest{Kind: RoomQuick, Spectate: r.Spectate}
		}
		return RoomRequest{Kind: RoomNamed, Name: r.Spec.Name, Spectate: r.Spectate}
	}
	return r
}

// roomKindOf maps a wire room kind to the request's.
func roomKindOf(k proto.RoomKind) RoomRequestKind {
	switch k {
	case proto.RoomNamed:
		return RoomNamed
	case proto.RoomCode:
		return RoomCode
	case proto.RoomCreate:
		return RoomCreate
	}
	return RoomQuick
}
