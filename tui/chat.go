package tui

import (
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
	"ttytanks/proto"
)

// Chatter is a Session whose player can talk to the room
// (netcode.ClientDriver is one). Run opens the chat line only for one.
type Chatter interface {
	Say(text string) error
}

// ChatShow is which chat lines the feed shows, cycled with m.
type ChatShow uint8

const (
	// ChatAll shows every line. It is the default.
	ChatAll ChatShow = iota
	// ChatPlayers hides the spectators' lines.
	ChatPlayers
	// ChatOff hides every line but the server's notices.
	ChatOff
	numChatShows
)

// String returns the setting as the footer shows it.
func (c ChatShow) String() string {
	switch c {
	case ChatAll:
		return "chat on"
	case ChatPlayers:
		return "chat: players only"
	case ChatOff:
		return "chat hidden"
	}
	return "unknown"
}

// chatErrFor is how long a line the server or the budget refused keeps
// its reason on the prompt.
const chatErrFor = 3 * time.Second

// chatPrompt is the line the player types a chat line into: Enter (or t)
// opens it, Enter sends, Esc cancels, Backspace deletes; at most
// proto.MaxChatRunes characters. Not safe for concurrent use.
type chatPrompt struct {
	open     bool
	text     []rune
	msg      string // a refusal's reason, or a setting changed
	msgUntil time.Time
}

// key applies ev to the open prompt at now. It returns the line to send
// when Enter sends one.
func (p *chatPrompt) key(ev *tcell.EventKey) (send string, ok bool) {
	switch ev.Key() {
	case tcell.KeyEscape:
		p.open, p.text = false, p.text[:0]
	case tcell.KeyEnter:
		s := string(p.text)
		p.open, p.text = false, p.text[:0]
		return s, s != ""
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if len(p.text) > 0 {
			p.text = p.text[:len(p.text)-1]
		}
	case tcell.KeyRune:
		if r := ev.Rune(); len(p.text) < proto.MaxChatRunes && r >= ' ' && utf8.ValidRune(r) {
			p.text = append(p.text, r)
		}
	}
	return "", false
}

// failed shows why a line did not go, for chatErrFor.
func (p *chatPrompt) failed(err error, now time.Time) { p.say("not sent: "+err.Error(), now) }

// say shows msg on the prompt's row for chatErrFor.
func (p *chatPrompt) say(msg string, now time.Time) { p.msg, p.msgUntil = msg, now.Add(chatErrFor) }

// line returns what the prompt row shows at now: the line being typed,
// or a refusal's reason for a while after it, else "".
func (p *chatPrompt) line(g *glyphs, now time.Time) string {
	switch {
	case p.open:
		return "say: " + string(p.text) + "_  (Enter sends " + g.dot + " Esc cancels)"
	case p.msg != "" && now.Before(p.msgUntil):
		return p.msg
	}
	return ""
}

// chatOpens reports whether ev opens the chat line: Enter or t.
func chatOpens(ev *tcell.EventKey) bool {
	return ev.Key() == tcell.KeyEnter || ev.Key() == tcell.KeyRune && ev.Rune() == 't'
}

// observeChat adds to the feed the chat lines of v it has not shown yet
// (drawing shows those the HUD's chat setting lets through).
func (f *feed) observeChat(v *netcode.View) {
	if v.ChatTotal < f.chat {
		f.chat = 0 // a new session
	}
	fresh := int(min(v.ChatTotal-f.chat, uint64(v.ChatN)))
	f.chat = v.ChatTotal
	for _, e := range v.Chat[v.ChatN-fresh : v.ChatN] {
		if e.From == -2 { // the server's notices always show
			f.addLine(feedLine{text: e.Name + ": " + e.Text, slot: -1, notice: true})
			continue
		}
		name := e.Name
		if e.Spectator {
			name = "(spectator) " + name
		}
		slot := int8(-1)
		if e.From >= 0 && e.From < len(v.Names) {
			slot = int8(e.From)
		}
		f.addLine(feedLine{text: name + ": " + e.Text, slot: slot, name: len(name), chat: true, spectator: e.Spectator})
	}
}

// putFeedLine draws a feed line at x, y, at most w cells: a chat line's
// sayer in its seat's colour, the rest in st.
func (r *Renderer) putFeedLine(x, y int, l feedLine, w int, st tcell.Style, clip rect) {
	s := truncate(l.text, w, r.t.g.ellipsis)
	if l.notice {
		st = r.t.banner
	}
	if l.slot < 0 || l.name > len(s) {
		r.putString(x, y, s, st, clip)
		return
	}
	name := s[:l.name]
	r.putString(x, y, name, r.t.slotCell[l.slot], clip)
	r.putString(x+textWidth(name), y, s[l.name:], st, clip)
}
