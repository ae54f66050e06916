package tui

import (
	"errors"

	"ttytanks/netcode"
	"ttytanks/proto"
)

// HeldNameHost is a LobbyChatHost that can take its places under the name
// the player's key holds on the server's ladder rather than the name
// typed (netcode.ClientConfig.DefaultName: the server then seats the key
// under the name it holds, or, holding none, under one made from the key,
// "player-" and hex). When the server refuses the lobby's place because
// another player holds the name typed (proto.RejectNameTaken), the lobby
// calls KeepHeldName and takes its place again, so that its chat and
// leaderboard work; the host joins every room of the session so too.
// KeepHeldName is called from the lobby's goroutine.
type HeldNameHost interface {
	LobbyChatHost
	KeepHeldName()
}

// lobbyPlace is the lobby's place on the server, its chat and where its
// leaderboard is asked: the host's LobbyChatPlace, taken again once under
// the name the key holds (HeldNameHost) if the server refused the name
// typed. Its methods are called from the lobby's goroutine.
type lobbyPlace struct {
	h   HeldNameHost // nil: a host that cannot take the place again
	cur LobbyChatPlace
	// taken is the name typed that another player holds, once the place
	// was taken under the held name instead.
	taken string
	// ask is the last question asked of the ladder, asked again of a new
	// place.
	ask      [3]int // offset, count, forget
	asked    bool
	switched bool // the place was taken again (once)
}

// newLobbyPlace returns the lobby's place on h (a HeldNameHost, or any
// Host: then it is never taken again) held by p; taken is a name the
// session already knows another player holds ("" if none).
func newLobbyPlace(h Host, p LobbyChatPlace, taken string) *lobbyPlace {
	lp := &lobbyPlace{cur: p, taken: taken}
	if hh, ok := h.(HeldNameHost); ok {
		lp.h = hh
	}
	return lp
}

// refusedName returns the name the server refused p as another player's,
// if it did: p says why it ended through Err, as a netcode.ClientDriver
// does.
func refusedName(p any) (string, bool) {
	e, ok := p.(interface{ Err() error })
	if !ok {
		return "", false
	}
	var refused *netcode.RefusedError
	if !errors.As(e.Err(), &refused) || refused.Reason != proto.RejectNameTaken {
		return "", false
	}
	return refused.Name, true
}

// View fills dst with the place's view. A place the server refused for
// the name typed is taken again first, under the held name (once): the
// host keeps that name from then on, the refused place is given up, and
// the ladder is asked again what it was asked last.
func (p *lobbyPlace) View(dst *netcode.View) {
	p.cur.View(dst)
	if p.h == nil || p.switched || dst.Status != netcode.StatusClosed {
		return
	}
	name, ok := refusedName(p.cur)
	if !ok {
		return
	}
	p.switched = true
	p.h.KeepHeldName()
	c, err := p.h.LobbyChat()
	if err != nil {
		return
	}
	p.cur.Leave()
	p.cur, p.taken = c, name
	if p.asked {
		p.AskLadder(p.ask[0], p.ask[1], p.ask[2] != 0)
	}
	*dst = netcode.View{}
	p.cur.View(dst)
}

// Say says text through the place.
func (p *lobbyPlace) Say(text string) error { return p.cur.Say(text) }

// AskLadder asks the place for the ladder, if it can ask (LobbyLadder).
func (p *lobbyPlace) AskLadder(offset, count int, forget bool) {
	p.ask, p.asked = [3]int{offset, count, 0}, true
	if forget {
		p.ask[2] = 1
	}
	if lad, ok := p.cur.(LobbyLadder); ok {
		lad.AskLadder(offset, count, forget)
	}
}

// Leave gives the place up.
func (p *lobbyPlace) Leave() { p.cur.Leave() }

// Err returns why the place ended, if it says (nil otherwise).
func (p *lobbyPlace) Err() error {
	if e, ok := p.cur.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

// Taken returns the name typed that another player holds, once the place
// was taken under the held name instead ("" before, or if never).
func (p *lobbyPlace) Taken() string { return p.taken }

// closedWhy returns why the place v views is closed, "" while it is not.
func closedWhy(v *netcode.View) string {
	if v.Status != netcode.StatusClosed {
		return ""
	}
	if v.Message == "" {
		return "the server gave this lobby no place"
	}
	return v.Message
}

// takenNotice is the lobby's notice of a session that plays under the
// name its key holds because another player holds the name typed: held
// is that name as the ladder said it ("" for a key that holds none, which
// plays under one made from the key), rename how to pick another ("":
// --name NEW), ell the ellipsis that stands for the key's hex. It is at
// most 80 cells for names of proto.MaxNameLen.
func takenNotice(typed, held, rename, ell string) string {
	q := "\"" + typed + "\" is another player's name: "
	if held != "" {
		return q + "you play under the name you hold"
	}
	if rename == "" {
		rename = "--name NEW"
	}
	return q + "you play as player-" + ell + " (" + rename + ")"
}

// placeOf returns the lobby's place: its chat's, else its ladder's (nil
// if neither).
func (l *lobby) placeOf() any {
	if l.opts.Chat != nil {
		return l.opts.Chat
	}
	if l.opts.Ladder != nil {
		return l.opts.Ladder
	}
	return nil
}

// placeView returns the view of the lobby's place as last polled.
func (l *lobby) placeView() *netcode.View {
	if l.opts.Chat != nil {
		return &l.chatView
	}
	return &l.ladder.view
}

// takenName returns the name typed that another player holds, once the
// lobby's place was taken under the held name instead.
func (l *lobby) takenName() string {
	if p, ok := l.placeOf().(*lobbyPlace); ok {
		return p.Taken()
	}
	return ""
}

// playerName is the name the header gives the player: as the ladder
// knows them; under a name typed that another player holds, the held
// name, or "player-…" for a key that holds none; nothing when the
// server refused the name and the lobby has no place.
func (l *lobby) playerName(g *glyphs) string {
	if l.takenName() != "" {
		if lv := l.ladder.ladderView(); lv.Has && lv.Page.HasCard {
			return lv.Page.Card.Name
		}
		return "player-" + g.ellipsis
	}
	if closedWhy(l.placeView()) != "" {
		if _, refused := refusedName(l.placeOf()); refused {
			return ""
		}
	}
	return l.ladder.name(l.opts.Name, l.opts.Guest)
}

// placeNotice is what the notice row says of the lobby's place: what
// became of a name another player holds, or why the server gave the
// lobby no place; "" while all is well.
func (l *lobby) placeNotice(g *glyphs) string {
	if typed := l.takenName(); typed != "" {
		held := ""
		if lv := l.ladder.ladderView(); lv.Has && lv.Page.HasCard {
			held = lv.Page.Card.Name
		}
		return takenNotice(typed, held, l.opts.Rename, g.ellipsis)
	}
	why := closedWhy(l.placeView())
	if why == "" || l.placeOf() == nil {
		return ""
	}
	if _, refused := refusedName(l.placeOf()); refused {
		return why // the refusal names the name and what to do, in 80 cells
	}
	return "lobby chat and leaderboard are off: " + why
}

// placeOff is what the chat and the leaderboard say while the lobby has
// no place.
const placeOff = "the server gave this lobby no place (see above)"
