package netcode

import (
	"errors"
	"math"
	"net/netip"
	"time"

	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// Lobby timing: the list is asked for every lobbyRefresh; a Hello or
// ListRooms unanswered for lobbyRetry is sent again; after lobbyGiveUp
// without an answer the lobby reports the server unreachable (and keeps
// trying).
const (
	lobbyRefresh = time.Second
	lobbyRetry   = 500 * time.Millisecond
	lobbyGiveUp  = 5 * time.Second
	// cookieRenew is how long a lobby uses a cookie before it asks for a
	// new one: well inside the server's 10 s.
	cookieRenew = 7 * time.Second
)

// maxListed bounds the rooms a lobby lists: a ListRooms offset is a u16.
const maxListed = math.MaxUint16

// ErrNoAnswer is the lobby's error while the server does not answer.
var ErrNoAnswer = errors.New("no answer from the server")

// LobbyClient is the lobby's sans-IO core: it gets a cookie, asks for the
// room list page by page every second, and keeps the newest complete
// list. Receive and Advance return the datagrams to send.
type LobbyClient struct {
	server  netip.AddrPort
	session uint64
	epoch   time.Time // ClientTime is milliseconds since epoch

	cookie    proto.Cookie
	cookieAt  time.Time // zero: none
	sentAt    time.Time // the last request
	heardAt   time.Time // the last answer
	nextAsk   time.Time // the next list request
	offset    int       // the page being fetched
	pending   []RoomInfo
	list      RoomList
	seq       uint32
	out       outbox
	ended     error
	startedAt time.Time
}

// NewLobbyClient returns a lobby core for server; session must be
// non-zero and random (it keys the cookie).
func NewLobbyClient(server netip.AddrPort, session uint64) *LobbyClient {
	return &LobbyClient{server: server, session: session | 1, out: newOutbox(256, nil)}
}

// Rooms copies the newest list into dst.
func (l *LobbyClient) Rooms(dst *RoomList) {
	*dst = l.list
	dst.Rooms = append([]RoomInfo(nil), l.list.Rooms...)
}

// Advance sends what is due at now: a Hello when the cookie is missing or
// old, else the next ListRooms.
func (l *LobbyClient) Advance(now time.Time) []transport.Datagram {
	l.out.reset()
	if l.epoch.IsZero() {
		l.epoch, l.startedAt, l.heardAt = now, now, now
	}
	if l.ended != nil {
		return nil
	}
	if now.Sub(l.heardAt) > lobbyGiveUp {
		l.list.Err = ErrNoAnswer
	}
	if !l.sentAt.IsZero() && now.Sub(l.sentAt) < lobbyRetry {
		return nil
	}
	switch {
	case l.cookieAt.IsZero() || now.Sub(l.cookieAt) > cookieRenew:
		l.cookieAt = time.Time{}
		l.put(now, &proto.Hello{Header: proto.Header{Session: l.session}})
	case !now.Before(l.nextAsk) || l.offset > 0:
		l.put(now, &proto.ListRooms{Header: proto.Header{Session: l.session}, Cookie: l.cookie, Offset: uint16(l.offset),
			ClientTime: uint32(now.Sub(l.epoch) / time.Millisecond)})
	}
	return l.out.datagrams()
}

func (l *LobbyClient) put(now time.Time, p packet) {
	l.seq++
	p.Head().Seq = l.seq
	l.sentAt = now
	l.out.clear(l.server, p)
}

// Deadline returns when Advance must next be called.
func (l *LobbyClient) Deadline() time.Time {
	if l.sentAt.IsZero() {
		return l.nextAsk
	}
	d := l.sentAt.Add(lobbyRetry)
	if l.nextAsk.After(d) {
		return l.nextAsk
	}
	return d
}

// Receive takes a datagram from the server.
func (l *LobbyClient) Receive(now time.Time, from netip.AddrPort, b []byte) []transport.Datagram {
	l.out.reset()
	if from != l.server {
		return nil
	}
	h, err := proto.ParseHeader(b)
	if err != nil {
		var ve *proto.VersionError
		if errors.As(err, &ve) {
			l.ended = &VersionError{Server: ve.Got}
			l.list.Err = l.ended
		}
		return nil
	}
	if h.Session != l.session {
		return nil
	}
	switch h.Type {
	case proto.TypeChallenge:
		c, err := proto.ParseChallengeBody(h, b[proto.HeaderLen:])
		if err != nil {
			return nil
		}
		l.cookie, l.cookieAt, l.heardAt = c.Cookie, now, now
		l.sentAt = time.Time{} // ask for the list at once
		l.nextAsk = now
	case proto.TypeReject:
		r, err := proto.ParseRejectBody(h, b[proto.HeaderLen:])
		if err != nil {
			return nil
		}
		l.heardAt = now
		if r.Reason == proto.RejectBadCookie {
			l.cookieAt, l.sentAt = time.Time{}, time.Time{}
		} else if r.Reason == proto.RejectVersion {
			l.ended = &VersionError{}
			l.list.Err = l.ended
		}
	case proto.TypeRoomList:
		p, err := proto.ParseRoomListBody(h, b[proto.HeaderLen:])
		if err != nil || int(p.Offset) != l.offset {
			return nil
		}
		l.heardAt = now
		if l.offset == 0 {
			l.pending = l.pending[:0]
		}
		for _, e := range p.Rooms {
			l.pending = append(l.pending, RoomInfo{Name: e.Name, Private: e.Private, Closing: e.Closing, Ranked: e.Ranked, Players: int(e.Players), Seats: int(e.Seats),
				Bots: int(e.Bots), Spectators: int(e.Spectators), State: RoomState(e.State), Round: int(e.Round),
				RoundsToWin: int(e.RoundsToWin), Leader: e.Leader, LeaderScore: int(e.LeaderScore), Server: e.Server})
		}
		l.sentAt = time.Time{}
		if len(p.Rooms) > 0 && len(l.pending) < int(p.Total) && len(l.pending) < maxListed {
			l.offset = len(l.pending) // the next page at once
			return nil
		}
		sent := l.epoch.Add(time.Duration(p.ClientTime) * time.Millisecond)
		l.list = RoomList{Rooms: append([]RoomInfo(nil), l.pending...), Total: int(p.Total), Ping: now.Sub(sent), Updated: now}
		l.offset = 0
		l.nextAsk = now.Add(lobbyRefresh)
	}
	return nil
}
