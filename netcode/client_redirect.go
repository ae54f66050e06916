package netcode

import (
	"crypto/ed25519"
	"fmt"
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

// onRedirect follows a Redirect from the server: a fresh handshake with
// the target, trusted by the key the Redirect vouches for, asking for the
// room it names. Only a session still being placed follows one.
func (c *Client) onRedirect(now time.Time, h proto.Header, b []byte) {
	rd, err := proto.ParseRedirectBody(h, b)
	if err != nil || c.sess.state() != StatusConnecting {
		c.m.dropped++
		return
	}
	if !c.hop.follow(&rd, c.cfg.Server, c.sess.asked()) {
		c.sess.end(fmt.Errorf("sent from server to server %d times: the fleet cannot place us", maxHops+1))
		return
	}
	c.cfg.Server = rd.Addr
	room := RoomRequest{Kind: roomKindOf(rd.Kind), Name: rd.Room, Spectate: c.cfg.Spectate,
		Spec: RoomSpec{Name: rd.Room, Seats: int(rd.Seats), Bots: int(rd.Bots), Private: rd.Private}}
	c.sess.redirect(room)
	c.hs.restart(now)
	c.link.reset()
	c.hear(now, 0)
}

// goBack takes a redirected session whose server went silent back to
// the server it first asked, as a new session there.
func (c *Client) goBack(now time.Time, after time.Duration) bool {
	gone := c.cfg.Server
	entry, room, ok := c.hop.returning(c.sess.silence(now), after)
	if !ok {
		return false
	}
	c.cfg.Server = entry
	c.sess.rejoin(room, fmt.Sprintf("server %v stopped answering: joining again through %v", gone, entry))
	c.hs.restart(now)
	c.tl.reset()
	c.sync.reset(0)
	c.link.reset()
	c.server.forget()
	c.hear(now, 0)
	return true
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
