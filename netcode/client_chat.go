package netcode

import (
	"errors"
	"fmt"
	"time"

	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// The client's side of the room's chat (PROTOCOL.md §5.17, §5.18): the
// lines the player said, repeated until their receipts come, within the
// same budget the server keeps; and the lines said in the room, each
// shown once, the newest ChatKeep of them in the View.

// ChatKeep is how many of the room's newest lines a View holds.
const ChatKeep = 8

// Chat repeats: a line not yet received back is sent again every
// chatRepeat, at most chatTries times; at most chatWaiting wait at once.
const (
	chatRepeat  = 250 * time.Millisecond
	chatTries   = 8
	chatWaiting = 3
)

// Errors of Client.Say.
var (
	// ErrChatSlow means the line is over the chat budget: three lines at
	// once, then one a second (or three still wait for their receipts).
	ErrChatSlow = errors.New("slow down: three lines at once, then one a second")
	// ErrChatOffline means there is no room to talk to yet (or any more).
	ErrChatOffline = errors.New("not in a room: nobody to talk to")
)

// ChatEntry is one line of the room's chat as a View shows it.
type ChatEntry struct {
	// Seq is the room's number of the line (0 for a notice).
	Seq uint32
	// From is the sayer's seat, -1 for a spectator, -2 for the server.
	From int
	// Name is the sayer's name; Text the line, both safe to show.
	Name, Text string
	// Spectator is set when a spectator said it; Own when we did.
	Spectator, Own bool
}

// chatBox is the client's chat: its own lines waiting for receipts, its
// budget, and the room's newest lines.
type chatBox struct {
	nextID  uint32
	budget  chatter // the same budget the server keeps (chatter.spend)
	waiting []waitingLine
	match   uint32    // the match the room's line numbers below are of
	seen    seqWindow // the room's lines shown
	lines   [ChatKeep]ChatEntry
	n, next int
	total   uint64 // lines shown so far
}

// waitingLine is a line of ours not yet received back.
type waitingLine struct {
	p      proto.Chat
	sentAt time.Time
	tries  int
}

// say queues text as our next line at now and returns its packet, or
// says why not.
func (b *chatBox) say(now time.Time, text string) (*proto.Chat, error) {
	clean, err := proto.CleanChat(text)
	if err != nil {
		return nil, fmt.Errorf("not sent: %w", err)
	}
	if len(b.waiting) >= chatWaiting || !b.budget.spend(now) {
		return nil, ErrChatSlow
	}
	b.nextID++
	b.waiting = append(b.waiting, waitingLine{p: proto.Chat{ID: b.nextID, Text: clean}, sentAt: now, tries: 1})
	return &b.waiting[len(b.waiting)-1].p, nil
}

// due calls send for each waiting line whose repeat is due at now, and
// gives up on those tried chatTries times.
func (b *chatBox) due(now time.Time, send func(p *proto.Chat)) {
	kept := b.waiting[:0]
	for _, w := range b.waiting {
		if now.Sub(w.sentAt) >= chatRepeat {
			if w.tries >= chatTries {
				continue // the server never received it back to us: drop it
			}
			w.tries++
			w.sentAt = now
			send(&w.p)
		}
		kept = append(kept, w)
	}
	b.waiting = kept
}

// heard takes a ChatLine of match: a receipt stops our repeats; a line
// of the room is kept once (a notice each time it comes). It reports
// whether the line is new.
func (b *chatBox) heard(match uint32, l *proto.ChatLine) bool {
	if l.Flags&proto.ChatYours != 0 {
		for i, w := range b.waiting {
			if w.p.ID == l.ID {
				b.waiting = append(b.waiting[:i], b.waiting[i+1:]...)
				break
			}
		}
	}
	if l.From == proto.ChatFromServer {
		b.keep(ChatEntry{From: -2, Name: l.Name, Text: l.Text})
		return true
	}
	if l.Seq == 0 || !b.fresh(match, l.Seq) {
		return false
	}
	from := int(l.From)
	if l.Flags&proto.ChatSpectator != 0 {
		from = -1
	}
	b.keep(ChatEntry{Seq: l.Seq, From: from, Name: l.Name, Text: l.Text,
		Spectator: l.Flags&proto.ChatSpectator != 0, Own: l.Flags&proto.ChatYours != 0})
	return true
}

// fresh reports whether room line seq of match has not been shown, and
// marks it shown (a line's copies come within 64 lines of it: the room's
// budget relays fewer in the 2 s its copies take).
func (b *chatBox) fresh(match, seq uint32) bool {
	if match != b.match {
		b.match, b.seen = match, seqWindow{}
	}
	return b.seen.fresh(seq)
}

// keep adds e to the newest lines.
func (b *chatBox) keep(e ChatEntry) {
	b.lines[b.next] = e
	b.next = (b.next + 1) % ChatKeep
	b.n = min(b.n+1, ChatKeep)
	b.total++
}

// fill copies the newest lines, oldest first, into v.
func (b *chatBox) fill(v *View) {
	v.ChatN, v.ChatTotal = b.n, b.total
	start := (b.next - b.n + ChatKeep) % ChatKeep
	for i := range b.n {
		v.Chat[i] = b.lines[(start+i)%ChatKeep]
	}
}

// Say sends text to the room as a chat line (cleaned, within the chat
// budget), repeated until the server has it; the datagrams to send are
// returned. It says why when the line cannot go: ErrChatSlow, a line that
// CleanChat refuses (proto.ErrChat), or ErrChatOffline before the client
// has a place.
func (c *Client) Say(now time.Time, text string) ([]transport.Datagram, error) {
	c.out.reset()
	switch c.sess.state() {
	case StatusWaiting, StatusPlaying:
	case StatusClosed:
		if err := c.sess.reason(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrChatOffline, err)
		}
		return nil, ErrChatOffline
	default:
		return nil, ErrChatOffline
	}
	p, err := c.chat.say(now, text)
	if err != nil {
		return nil, err
	}
	c.sendChat(p)
	return c.out.datagrams(), nil
}

// sendChat sends one copy of our line p, in our session's header.
func (c *Client) sendChat(p *proto.Chat) {
	q := *p
	q.Header = c.sess.header()
	c.send(&q)
}
