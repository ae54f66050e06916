package tui

import "github.com/gdamore/tcell/v2"

// SharedScreen returns screen with Init and Fini made no-ops, for a caller
// that shows several screens in a row on one terminal: the lobby, a game,
// the lobby again. Run calls Init at its start and Fini at its end; on a
// SharedScreen both do nothing, so the terminal stays in the caller's hands
// between them. The caller must have initialised screen and must finalise
// it itself (WithScreen does both).
func SharedScreen(screen tcell.Screen) tcell.Screen {
	if s, ok := screen.(sharedScreen); ok {
		return s
	}
	return sharedScreen{screen}
}

// sharedScreen is a screen whose Init and Fini belong to someone else.
type sharedScreen struct{ tcell.Screen }

func (sharedScreen) Init() error { return nil }
func (sharedScreen) Fini()       {}

// WithScreen initialises screen, calls f with SharedScreen(screen) and
// finalises screen when f returns, or when it panics: the terminal is
// restored first and the panic re-raised. It returns f's error, or
// screen.Init's. Inside f, Lobby and Run may follow each other any number
// of times on the screen f is given:
//
//	err := tui.WithScreen(screen, func(s tcell.Screen) error {
//		for {
//			req, err := tui.Lobby(ctx, s, rooms, lobbyOpts)
//			if err != nil {
//				return err // tui.ErrQuit: the player quit
//			}
//			session := join(req)
//			if err := tui.Run(ctx, s, session, opts); err != nil {
//				return err
//			}
//			lobbyOpts.Notice = "you left room " + req.Name
//		}
//	})
//
// Each of Lobby and Run reads terminal events only while it runs; a key
// pressed in the instant one hands over to the next may be lost.
func WithScreen(screen tcell.Screen, f func(tcell.Screen) error) error {
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
	return f(SharedScreen(screen))
}
