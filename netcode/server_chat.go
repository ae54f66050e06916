package netcode

import (
	"net/netip"
	"time"

	"ttytanks/proto"
)

// The room's chat (PROTOCOL.md §5.17, §5.18): each peer's side of it (a
// chatter, in its link: the lines it said, its budget, the operator's
// mute) and the room's (a roomChat: the lines it relays, each copied to
// every peer three times). A line costs the server a handful of sealed
// datagrams per peer, so each player has a budget, whatever its address.

// A player's chat budget: chatBurst lines at once, then one every
// chatEvery; the server says why it dropped a line at most every
// chatNoticeEvery.
const (
	chatBurst       = 3
	chatEvery       = time.Second
	chatNoticeEvery = time.Second
)

// A line goes to each peer at once, again chatCopyAfter later, then
// every chatRepeatEvery, until the peer acknowledges it, for chatKeepFor.
var chatCopyAfter = [2]time.Duration{50 * time.Millisecond, 200 * time.Millisecond}

const (
	chatRepeatEvery = 250 * time.Millisecond
	chatKeepFor     = 10 * time.Second
	// chatRounds bounds the rounds of copies of a line: a peer that never
	// acknowledges (lost, or hostile) costs this many copies at most.
	chatRounds = 8
)

// A room's budget of lines relayed: chatRoomBurst at once, then
// chatRoomRate a second, whoever says them (the lobby's chat included).
const (
	chatRoomBurst = 10
	chatRoomRate  = 5.0
)

// chatter is a peer's side of its room's chat. It lives in the peer's
// link, so a place taken back on a new connection keeps its budget and
// its mute; the numbering of the lines is the connection's.
type chatter struct {
	conn     uint32    // the connection lastID counts on
	lastID   uint32    // the newest line id taken from conn
	budget   bucket    // chatBurst lines, one back every chatEvery
	noticeAt time.Time // the last notice the server sent it
	muted    bool      // by the operator: its lines reach nobody
	active   time.Time // when it took its place or last said a line
}

// fresh reports whether line id on connection conn is new, and takes it.
func (c *chatter) fresh(conn, id uint32) bool {
	if c.conn != conn {
		c.conn, c.lastID = conn, 0
	}
	if id <= c.lastID {
		return false
	}
	c.lastID = id
	return true
}

// spend takes a line from the budget at now, or reports false when none
// is left.
func (c *chatter) spend(now time.Time) bool {
	return take(&c.budget, now, 1/chatEvery.Seconds(), chatBurst)
}

// notice reports whether the peer may be sent a notice at now, and notes
// it.
func (c *chatter) notice(now time.Time) bool {
	if !c.noticeAt.IsZero() && now.Sub(c.noticeAt) < chatNoticeEvery {
		return false
	}
	c.noticeAt = now
	return true
}

// chatRecent is how many relayed lines a room keeps, to send a sender its
// receipt again when it repeats a line.
const chatRecent = 16

// relayed is a line the room took: the line, who said it (its
// connection and its own id of the line), its copies and the connections
// that acknowledged it.
type relayed struct {
	line   proto.ChatLine
	conn   uint32 // the sayer's connection
	id     uint32 // the sayer's id of the line
	at     time.Time
	copies int       // rounds sent so far
	sentAt time.Time // the last round
	acked  []uint32  // the connections that have it
}

// has reports whether connection conn acknowledged the line.
func (rl *relayed) has(conn uint32) bool {
	for _, c := range rl.acked {
		if c == conn {
			return true
		}
	}
	return false
}

// due reports whether the line's next round of copies is due at now.
func (rl *relayed) due(now time.Time) bool {
	switch {
	case rl.copies == 0 || rl.copies >= chatRounds || now.Sub(rl.at) >= chatKeepFor:
		return false
	case rl.copies <= len(chatCopyAfter):
		return now.Sub(rl.at) >= chatCopyAfter[rl.copies-1]
	}
	return now.Sub(rl.sentAt) >= chatRepeatEvery
}

// roomChat is the room's side of the chat: the count of its lines and the
// newest of them.
type roomChat struct {
	budget bucket // the lines the room may relay
	seq    uint32
	recent [chatRecent]relayed
	n      int // lines in recent, at most chatRecent
	next   int // where the next goes
}

// add keeps a line the room took, and returns it.
func (c *roomChat) add(rl relayed) *relayed {
	c.seq++
	rl.line.Seq = c.seq
	c.recent[c.next] = rl
	p := &c.recent[c.next]
	c.next = (c.next + 1) % chatRecent
	c.n = min(c.n+1, chatRecent)
	return p
}

// find returns the line id of connection conn, if the room still keeps it.
func (c *roomChat) find(conn, id uint32) *relayed {
	for i := range c.recent[:c.n] {
		if rl := &c.recent[i]; rl.conn == conn && rl.id == id {
			return rl
		}
	}
	return nil
}

// chat takes a Chat routed to r, opened on connection conn at from.
func (r *room) chat(now time.Time, from netip.AddrPort, conn uint32, p *proto.Chat) {
	l, slot := r.chatPeer(from, conn, p.Player)
	if l == nil {
		r.h.drop(DropUnknownPlayer)
		return
	}
	ch := &l.chat
	if !ch.fresh(conn, p.ID) {
		// A repeat: its receipt was lost. Send it again, to the sayer alone.
		if rl := r.chats.find(conn, p.ID); rl != nil {
			r.sendLine(rl, l, slot)
		}
		r.h.drop(DropDuplicate)
		return
	}
	why := ""
	text, err := proto.CleanChat(p.Text)
	switch {
	case !r.rules.chat:
		why = "chat is off on this server"
	case ch.muted || r.h.chatMuted(l):
		why = "the operator muted you: your lines reach nobody"
	case err != nil:
		why = "that line has nothing to show, or more than 120 characters"
	case !ch.spend(now), !r.h.chatAllowed(l, now):
		why = "slow down: three lines at once, then one a second"
	case !take(&r.chats.budget, now, chatRoomRate, chatRoomBurst):
		why = "the room is talking too fast: try again in a moment"
	}
	if why != "" {
		r.h.drop(DropChat)
		if ch.notice(now) {
			r.sayNotice(l, slot, why)
		}
		return
	}
	var flags uint8
	from8 := uint8(slot)
	if slot < 0 {
		from8 = proto.SpectatorSlot
		if !r.opened().lobby { // in the lobby everyone watches: nobody is marked
			flags = proto.ChatSpectator
		}
	}
	rl := r.chats.add(relayed{line: proto.ChatLine{From: from8, Flags: flags, Name: l.name, Text: text},
		conn: conn, id: p.ID, at: now})
	r.copyLine(rl, now)
	ch.active = now
	if slot >= 0 {
		r.seats.intent(r.seats.at(slot), now) // talking is being here
	}
	r.log.chat(l, slot, text)
}

// chatAck takes a peer's acknowledgement of room line seq.
func (r *room) chatAck(from netip.AddrPort, conn uint32, a *proto.ChatAck) {
	if l, _ := r.chatPeer(from, conn, a.Player); l == nil {
		r.h.drop(DropUnknownPlayer)
		return
	}
	c := &r.chats
	for i := range c.recent[:c.n] {
		if rl := &c.recent[i]; rl.line.Seq == a.Seq && rl.copies > 0 {
			if !rl.has(conn) {
				rl.acked = append(rl.acked, conn)
			}
			return
		}
	}
}

// chatPeer returns the peer of r that said a line as player (its seat,
// or SpectatorSlot) on connection conn at from, and its slot (-1: a
// spectator); nil if r holds no such peer.
func (r *room) chatPeer(from netip.AddrPort, conn uint32, player uint8) (*link, int) {
	st, sp := r.seats.byConn(from, conn)
	switch {
	case st != nil && int(player) == st.slot:
		return &st.link, st.slot
	case sp != nil && player == proto.SpectatorSlot:
		return &sp.link, -1
	}
	return nil, 0
}

// copyLine sends every peer of r that has not acknowledged rl its next
// copy at now.
func (r *room) copyLine(rl *relayed, now time.Time) {
	r.seats.each(func(l *link, slot int) {
		if !rl.has(l.conn) {
			r.sendLine(rl, l, slot)
		}
	})
	rl.copies++
	rl.sentAt = now
}

// sendLine sends the peer of l (in slot, -1 for a spectator) its copy of
// rl: the sayer's carries its own id and says it is its own.
func (r *room) sendLine(rl *relayed, l *link, slot int) {
	p := rl.line
	p.Header = proto.Header{Match: r.match.matchID(), Player: addressee(slot)}
	if l.conn == rl.conn {
		p.Flags |= proto.ChatYours
		p.ID = rl.id
	}
	r.h.send(l.conn, &p)
}

// sayNotice sends the peer of l a notice from the server.
func (r *room) sayNotice(l *link, slot int, text string) {
	r.h.send(l.conn, &proto.ChatLine{Header: proto.Header{Match: r.match.matchID(), Player: addressee(slot)},
		From: proto.ChatFromServer, Name: "server", Text: text})
}

// copyChat sends the copies of r's lines that are due at now.
func (r *room) copyChat(now time.Time) {
	c := &r.chats
	for i := range c.recent[:c.n] {
		rl := &c.recent[i]
		if rl.due(now) {
			r.copyLine(rl, now)
		}
	}
}

// mute mutes (or unmutes) the player in slot: its lines reach nobody. It
// returns the prefix its place counts against (the Server mutes that
// too), ok false when no network player holds the seat.
func (r *room) mute(slot int, on bool) (origin netip.Addr, ok bool) {
	if slot < 0 || slot >= r.cfg.Players || !r.seats.at(slot).human() {
		return netip.Addr{}, false
	}
	st := r.seats.at(slot)
	st.chat.muted = on
	r.log.muted(&st.link, on)
	origin = st.origin
	if !origin.IsValid() {
		origin = limitKey(st.addr.Addr())
	}
	return origin, true
}

// addressee is the header's Player of a packet to the peer in slot.
func addressee(slot int) uint8 {
	if slot < 0 {
		return proto.SpectatorSlot
	}
	return uint8(slot)
}
