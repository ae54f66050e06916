package tui

import (
	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
)

// LobbyChat is the lobby's chat: a place among the lobby's viewers, such
// as a netcode.ClientDriver that asked for netcode.RoomLobby. The lobby
// shows its newest lines above the footer, and t opens a line to say.
type LobbyChat interface {
	Say(text string) error
	View(dst *netcode.View)
}

// LobbyChatHost is a Host whose lobby has a chat: Play opens a place in
// it for as long as the player is in the lobby (an error: the lobby
// shows no chat).
type LobbyChatHost interface {
	Host
	LobbyChat() (LobbyChatPlace, error)
}

// LobbyChatPlace is a place in the lobby's chat, given up with Leave.
type LobbyChatPlace interface {
	LobbyChat
	Leave()
}

// lobbyChatLines is how many of the chat's newest lines the lobby shows;
// one more row holds the line being typed.
const lobbyChatLines = 3

// lobbyChatH returns the rows the chat takes above the lobby's footer.
func (l *lobby) lobbyChatH() int {
	if l.opts.Chat == nil {
		return 0
	}
	return lobbyChatLines + 1
}

// chatPoll takes the chat's newest lines in.
func (l *lobby) chatPoll() {
	if l.opts.Chat == nil {
		return
	}
	l.opts.Chat.View(&l.chatView)
	l.chatFeed.observeChat(&l.chatView)
}

// chatKey applies ev to the chat; it reports whether ev was the chat's
// (t opens the line; while it is open, every key but Ctrl-C is its).
func (l *lobby) chatKey(ev *tcell.EventKey, r *Renderer) bool {
	if l.opts.Chat == nil || l.mode != modeList || isCtrlC(ev) {
		return false
	}
	p := &l.chat
	if !p.open {
		if closedWhy(&l.chatView) != "" {
			return false // no place to say it from: drawChat says so
		}
		if ev.Key() == tcell.KeyRune && ev.Rune() == 't' {
			p.open = true
			return true
		}
		return false
	}
	if text, send := p.key(ev); send {
		if err := l.opts.Chat.Say(text); err != nil {
			p.failed(err, r.now)
		}
	}
	return true
}

// drawChat draws the chat's newest lines and the line being typed on the
// rows just above the footer of a w×h lobby.
func (l *lobby) drawChat(r *Renderer, look *lobbyLook, w, h int) {
	if l.opts.Chat == nil {
		return
	}
	top := h - lobbyFooterH - l.lobbyChatH()
	area := rect{0, top, w, l.lobbyChatH()}
	lines := l.chatFeed.lastLines(lobbyChatLines)
	if closedWhy(&l.chatView) != "" {
		r.putSpans(0, top+lobbyChatLines-1, w, r.t.g.ellipsis, span{"lobby chat is off: " + placeOff, look.faint})
		return
	}
	if len(lines) == 0 {
		r.putSpans(0, top, w, r.t.g.ellipsis, span{"lobby chat " + r.t.g.dash + " t to say something to everyone here", look.faint})
	}
	for k, line := range lines {
		r.putFeedLine(0, top+lobbyChatLines-len(lines)+k, line, w, look.text, area)
	}
	if s := l.chat.line(r.t.g, r.now); s != "" {
		r.putSpans(0, top+lobbyChatLines, w, r.t.g.ellipsis, span{s, look.accent})
	}
}
