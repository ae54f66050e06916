package tui

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// Session is the game the UI drives. The netcode client driver implements
// it; its methods are safe for concurrent use.
type Session interface {
	// View copies the newest view into dst.
	View(dst *netcode.View)
	// SetInput sets the input the player currently holds; the client samples
	// it on each tick (the Tick field is ignored).
	SetInput(in game.Input)
	// Done is closed when the session is over; View then reports
	// netcode.StatusClosed and its Message says why.
	Done() <-chan struct{}
}

// ErrToLobby is what Run returns when the player pressed l on the results
// screen of a match that is over: the caller takes them back to the lobby.
var ErrToLobby = errors.New("tui: back to the lobby")

// loopHooks let tests drive Run's loop without a wall clock. Zero values
// mean the real thing.
type loopHooks struct {
	frames    <-chan time.Time // frame ticks; nil: a time.Ticker at opts.FPS
	now       func() time.Time // nil: time.Now
	afterDraw func()           // called after each frame is drawn
	afterKey  func()           // called after each key event is handled
}

// Run draws s on screen until the player quits, ctx is cancelled or the
// session ends. It returns nil when the player quits (q, Q or Ctrl-C) or
// s.Done() is closed, ErrToLobby when the player presses l on the results
// screen, ctx.Err() when ctx is cancelled, and the error of screen.Init if
// that fails. After a closed session the caller may print
// the final View's Message: the screen is gone by then.
//
// Run calls screen.Init and, in a deferred function that also recovers a
// panic, screen.Fini, so the terminal is restored even if drawing panics;
// the panic is then re-raised. One select loop joins terminal events (keys
// and resizes), a frame ticker at opts.FPS, ctx.Done and s.Done. Each frame
// it copies s's view, shows the Controls where the local tank is
// (Controls.Track, which ends a tap on the next tile's centre), draws it
// with Renderer.DrawAt at the current time (so corrections are smoothed
// unless opts.NoSmoothing) and hands s the input the Controls hold at that
// moment; a key event hands the new input
// over at once as well. With Options.ConfirmQuit, q while another person is
// connected asks first (y quits; any other key plays on). The display keys (names, help, sidebar level,
// following; see HUD.Key) change the Renderer's HUD and draw at once. A
// resize re-syncs the screen and draws at once. With Options.Bell, a
// frame that shows the local tank hit, or a tank it destroyed, rings the
// terminal bell (screen.Beep) once for each.
//
// When the match is over (the results screen), r votes for a rematch: the
// input handed to s holds game.ButtonRematch from then on, for as long as
// the match stays over, so it goes out with the usual redundancy; l
// returns ErrToLobby.
func Run(ctx context.Context, screen tcell.Screen, s Session, opts Options) error {
	return run(ctx, screen, s, opts, loopHooks{})
}

func run(ctx context.Context, screen tcell.Screen, s Session, opts Options, hooks loopHooks) (err error) {
	if err := screen.Init(); err != nil {
		return err
	}
	defer func() {
		p := recover()
		screen.Fini()
		if p != nil {
			panic(p)
		}
	}()
	screen.HideCursor()
	screen.Clear()

	events := make(chan tcell.Event, 16)
	stop := make(chan struct{})
	defer close(stop) // ends ChannelEvents, before Fini runs
	go screen.ChannelEvents(events, stop)

	frames := hooks.frames
	if frames == nil {
		tk := time.NewTicker(time.Second / time.Duration(opts.fps()))
		defer tk.Stop()
		frames = tk.C
	}
	now := hooks.now
	if now == nil {
		now = time.Now
	}
	controls := NewControls(opts.Controls)
	renderer := NewRenderer(screen, opts)
	var v netcode.View
	rematch := false // r was pressed on this results screen
	chatter, canChat := s.(Chatter)
	input := func(t time.Time) game.Input {
		in := controls.Input(t)
		if renderer.chat.open {
			in = game.Input{} // typing: the tank stands
		}
		if !matchOver(&v) {
			rematch = false // a new match: the vote was for the last one
		} else if rematch {
			in.Buttons |= game.ButtonRematch
		}
		return in
	}
	userPaused := false // p paused the game
	if opts.Pause != nil {
		defer opts.Pause(false) // whoever drives the session next needs its clock
	}
	// pause tells opts.Pause what the game should be now: paused by p,
	// under the help overlay or on a screen too small for it.
	pause := func() {
		if opts.Pause == nil {
			return
		}
		hud := renderer.HUD()
		w, h := screen.Size()
		want := userPaused || hud.Help || computeLayout(w, h, &v).tooSmall
		if want != hud.Paused {
			hud.Paused = want
			opts.Pause(want)
		}
	}
	var bell bell
	frame := func() {
		s.View(&v)
		pause()
		t := now()
		controls.Track(&v, t)
		renderer.DrawAt(&v, t)
		if opts.Bell {
			for range bell.observe(&v) {
				_ = screen.Beep()
			}
		}
		s.SetInput(input(t))
		if hooks.afterDraw != nil {
			hooks.afterDraw()
		}
	}

	frame()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return nil // the screen was finalised under us
			}
			switch ev := ev.(type) {
			case *tcell.EventKey:
				hud := renderer.HUD()
				if hud.Quitting {
					if isCtrlC(ev) || ev.Key() == tcell.KeyRune && strings.ContainsRune("yYqQ", ev.Rune()) {
						return nil
					}
					hud.Quitting = false // anything else plays on
					frame()
					if hooks.afterKey != nil {
						hooks.afterKey()
					}
					continue
				}
				if p := &renderer.chat; p.open && !isCtrlC(ev) {
					// The chat line takes every key while it is open.
					if text, send := p.key(ev); send {
						if err := chatter.Say(text); err != nil {
							p.failed(err, now())
						}
					}
					renderer.HUD().Typing = p.open
					frame()
					if hooks.afterKey != nil {
						hooks.afterKey()
					}
					continue
				}
				if canChat && chatOpens(ev) && (v.Status == netcode.StatusWaiting || v.Status == netcode.StatusPlaying) {
					renderer.chat.open = true
					renderer.HUD().Typing = true
					frame()
					if hooks.afterKey != nil {
						hooks.afterKey()
					}
					continue
				}
				if opts.Lobby && ev.Key() == tcell.KeyRune && (ev.Rune() == 'l' || ev.Rune() == 'L') {
					return ErrToLobby
				}
				if opts.Pause != nil && ev.Key() == tcell.KeyRune && (ev.Rune() == 'p' || ev.Rune() == 'P') {
					userPaused = !userPaused
					frame()
					if hooks.afterKey != nil {
						hooks.afterKey()
					}
					continue
				}
				if matchOver(&v) && ev.Key() == tcell.KeyRune {
					switch ev.Rune() {
					case 'r', 'R':
						if v.Slot >= 0 {
							rematch = true
							s.SetInput(input(now()))
						}
						if hooks.afterKey != nil {
							hooks.afterKey()
						}
						continue
					}
				}
				chatWas := hud.Chat
				if hud.Key(ev, v.Slot < 0) {
					if hud.Chat != chatWas {
						renderer.chat.say(hud.Chat.String(), now())
					}
					frame() // show the change at once
					if hooks.afterKey != nil {
						hooks.afterKey()
					}
					continue
				}
				t := now()
				if controls.Key(ev, t) {
					if opts.ConfirmQuit && !isCtrlC(ev) && othersConnected(&v, opts.HumanSeats) {
						hud.Quitting = true
						frame()
						if hooks.afterKey != nil {
							hooks.afterKey()
						}
						continue
					}
					return nil
				}
				s.SetInput(input(t))
				if hooks.afterKey != nil {
					hooks.afterKey()
				}
			case *tcell.EventResize:
				renderer.Invalidate()
				screen.Sync()
				frame()
			}
		case <-frames:
			frame()
		case <-ctx.Done():
			return ctx.Err()
		case <-s.Done():
			return nil
		}
	}
}

// othersConnected reports whether a person other than us is connected in
// one of the first humanSeats seats.
func othersConnected(v *netcode.View, humanSeats int) bool {
	for i := range min(humanSeats, game.MaxPlayers) {
		if i != v.Slot && v.Names[i] != "" && v.Connected[i] {
			return true
		}
	}
	return false
}
