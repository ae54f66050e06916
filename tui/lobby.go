package tui

import (
	"context"
	"errors"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
)

// ErrQuit is returned by Lobby when the player quits (q, Q or Ctrl-C) or
// the screen is finalised under it.
var ErrQuit = errors.New("tui: the player quit")

// LobbySource is where the lobby gets the server's rooms. Rooms fills dst
// with the newest list the source has (reusing dst.Rooms' storage); it must
// not block on the network, since the lobby calls it on every refresh, and
// is called from the lobby's goroutine while the source's own goroutines
// may be updating it: it must be safe for concurrent use. The lobby keeps
// nothing of dst between calls that the source could change.
type LobbySource interface {
	Rooms(dst *netcode.RoomList)
}

// LobbySourceFunc adapts a function to LobbySource.
type LobbySourceFunc func(dst *netcode.RoomList)

// Rooms calls f(dst).
func (f LobbySourceFunc) Rooms(dst *netcode.RoomList) { f(dst) }

// DefaultLobbyRefresh is how often Lobby polls its source and redraws when
// LobbyOptions.Refresh is zero or negative.
const DefaultLobbyRefresh = 100 * time.Millisecond

// LobbyOptions configure Lobby.
type LobbyOptions struct {
	// Options are the screen's looks, shared with Run: ASCII and NoColor
	// are honoured, and Server is named in the header and while
	// connecting.
	Options
	// Notice is a message shown on the lobby's second line for as long as
	// this Lobby call runs ("you left room a", "this room stopped after a
	// server error"); the caller clears it before the next call.
	Notice string
	// Name is the player's name, shown in the header; empty hides it.
	Name string
	// Refresh is how often the source is polled and the list redrawn;
	// zero or negative means DefaultLobbyRefresh.
	Refresh time.Duration
	// Chat, when set, is the lobby's chat, shown above the footer (t
	// talks); Play sets it from a LobbyChatHost.
	Chat LobbyChat
	// Ladder, when set, is where the leaderboard tab (l or Tab) asks for
	// the server's ladder; nil: the tab says it needs a connection. Play
	// sets it to the chat's place when that is a LobbyLadder too (a
	// netcode.ClientDriver is).
	Ladder LobbyLadder
	// Rename says how the player picks another name, for the notice of
	// a name typed that another player holds ("": "--name NEW", join's
	// flag; an SSH player's is "ssh NEW@host").
	Rename string
	// Guest says the player has no identity the server's ladder knows
	// them by (no player key, no SSH key the server vouches for): the
	// leaderboard's card says how to be ranked, rather than that they
	// have no rated match yet.
	Guest bool
}

func (o LobbyOptions) refresh() time.Duration {
	if o.Refresh <= 0 {
		return DefaultLobbyRefresh
	}
	return o.Refresh
}

// lobbyHooks let tests drive Lobby's loop without a wall clock. Zero
// values mean the real thing.
type lobbyHooks struct {
	frames    <-chan time.Time // refresh ticks; nil: a time.Ticker at opts.Refresh
	now       func() time.Time // nil: time.Now
	afterDraw func()           // called after each frame is drawn
	afterKey  func()           // called after each key event that did not end the lobby
}

// Lobby shows the server's rooms on screen and returns the room the player
// picks, as the request to send:
//
//   - Enter on a room: RoomNamed with the room's name (as the server sent
//     it, not as it is shown); Enter on an empty list, or n: RoomQuick.
//   - s: the same with Spectate set (on an empty list, RoomQuick to watch).
//   - c: a form to create a room: its name, seats (2 to game.MaxPlayers),
//     bots (0 to seats-1), private or not and ranked or casual; Tab and the arrows move
//     between fields and change them, Enter returns RoomCreate with that
//     RoomSpec, Esc goes back to the list.
//   - p: a prompt for a private room's join code; Enter returns RoomCode
//     with the code in Name, Esc goes back.
//   - ↑↓ or j/k pick a room, PgUp/PgDn, Home/End (g/G) jump.
//   - l or Tab: the leaderboard tab, asked of opts.Ladder when it opens
//     and every LadderRefresh while it shows: a page of the best players
//     (rank, name, rating ± 2·RD, rated matches, wins) and the player's
//     own card under it. ←→ or PgUp/PgDn ask for the page before or
//     after (proto.MaxLadderPage lines each), Home/End (g/G) the first
//     and the last, ↑↓ or j/k scroll a page that does not all show; n is
//     a quick match, and l, Tab or Esc go back to the rooms.
//
// It returns ErrQuit when the player presses q or Ctrl-C (in a form q is
// text; Ctrl-C always quits), ctx.Err() when ctx is done. The request is
// the zero RoomRequest whenever the error is not nil.
//
// The lobby polls src every opts.Refresh and redraws: a "connecting"
// message until a list has arrived, the room table (scrolled to keep the
// selection in view, with "showing N of M rooms" when it does not all
// show), an error line from RoomList.Err, and opts.Notice on top. Below
// LobbyMinWidth×LobbyMinHeight it shows the game's "terminal too small" message.
//
// Lobby does not own the screen: it neither initialises nor finalises
// it, so the caller can show the lobby and a game in turn on one
// terminal, and it stops reading the screen's events before it returns. Run it on a screen that is initialised, within WithScreen
// (which also restores the terminal if anything panics); pass Run the same
// screen WithScreen hands over, so that Run's own Init and Fini do nothing.
func Lobby(ctx context.Context, screen tcell.Screen, src LobbySource, opts LobbyOptions) (netcode.RoomRequest, error) {
	return runLobby(ctx, screen, src, opts, lobbyHooks{})
}

func runLobby(ctx context.Context, screen tcell.Screen, src LobbySource, opts LobbyOptions, hooks lobbyHooks) (netcode.RoomRequest, error) {
	screen.HideCursor()
	screen.Clear()

	events := make(chan tcell.Event, 16)
	stop := make(chan struct{})
	go screen.ChannelEvents(events, stop)
	defer func() {
		// End ChannelEvents and wait until it has (it closes events), so
		// that no event is taken from the screen once Lobby has returned:
		// the next screen gets every key pressed after that.
		close(stop)
		for range events {
		}
	}()

	frames := hooks.frames
	if frames == nil {
		tk := time.NewTicker(opts.refresh())
		defer tk.Stop()
		frames = tk.C
	}
	clock := hooks.now
	if clock == nil {
		clock = time.Now
	}
	r := NewRenderer(screen, opts.Options)
	l := newLobby(opts)
	draw := func() {
		r.now = clock()
		l.draw(r)
		if hooks.afterDraw != nil {
			hooks.afterDraw()
		}
	}
	poll := func() {
		src.Rooms(&l.list)
		l.refresh()
		l.chatPoll()
		if l.tab == tabLadder {
			l.ladder.poll(l.opts.Ladder, clock())
		} else {
			l.ladder.whoAmI(l.opts.Ladder, clock())
		}
		draw()
	}

	poll()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return netcode.RoomRequest{}, ErrQuit // the screen was finalised under us
			}
			switch ev := ev.(type) {
			case *tcell.EventKey:
				if l.chatKey(ev, r) {
					draw()
					if hooks.afterKey != nil {
						hooks.afterKey()
					}
					continue
				}
				switch req, out := l.key(ev, clock()); out {
				case lobbyPick:
					return req, nil
				case lobbyQuit:
					return netcode.RoomRequest{}, ErrQuit
				}
				draw()
				if hooks.afterKey != nil {
					hooks.afterKey()
				}
			case *tcell.EventResize:
				r.Invalidate()
				screen.Sync()
				draw()
			}
		case <-frames:
			poll()
		case <-ctx.Done():
			return netcode.RoomRequest{}, ctx.Err()
		}
	}
}
