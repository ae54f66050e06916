// Package tui is the terminal client's screen: it draws a netcode.View with
// tcell and turns key presses into the game.Input the player holds.
//
// # Drawing
//
// A frame is a function of the view, the Options and the screen size
// (Draw). The maze is on the left, each tile two columns by one row, so a
// tank or bullet at (X, Y) sub-tiles is drawn at column X*2/game.SubTile,
// row Y/game.SubTile of the maze; the maze is centred in its area, and when
// it does not fit, a window of it follows the local tank. Above it a title
// row shows the round and its timer, or the round's result. The sidebar on
// the right lists the netcode figures, one labelled line each, the players
// and the controls; its layout is done with lipgloss on a renderer of its
// own whose colour profile is set from Options (never detected from
// stdout), and an SGR painter copies lipgloss's ANSI output into tcell
// cells. Below MinWidth×MinHeight only a "terminal too small" message is
// drawn.
//
// Glyphs: walls are "██" ("##" with Options.ASCII), bullets "•" ("*").
// A tank shows its facing (AimX, AimY) as an arrow, ↑ ↗ → ↘ ↓ ↙ ← ↖, or in
// ASCII as ^ > v < for the axes and the slash along a diagonal: '/' for
// up-right and down-left, '\' for up-left and down-right. A destroyed tank
// is an 'x'. Each slot has its own colour; the local player's tank is in
// reverse video, which also marks it when Options.NoColor removes every
// colour.
//
// A Renderer keeps which cells its previous frame wrote and rewrites only
// what is needed, so an unchanged cell costs nothing to show; Run uses one.
//
// # Keys
//
// Terminals report key presses but no releases: a held key arrives as one
// press, a pause (the auto-repeat delay, often 250–500 ms) and repeats every
// 30–50 ms. In the default ControlsHold mode a direction therefore stays
// held for HoldFirst (600 ms) after the first press of its key, longer than
// the auto-repeat delay, and for HoldRepeat (200 ms) after each repeat; a
// press of the key while it is still held counts as a repeat. The two axes
// are independent: a perpendicular key adds a diagonal while both are
// held, and the opposite key replaces the direction on its axis at once.
// Space holds the fire button for HoldFire (150 ms), so a tick whose
// cooldown blocks the shot does not lose the press; firing never cancels
// movement. Letting go of a held key stops the tank within HoldRepeat; a
// single tap moves it for HoldFirst.
//
// One limit comes from the terminal: while two keys are held, only the
// last one pressed auto-repeats, so the other expires after its deadline
// and a held diagonal decays to the direction pressed last. ControlsSticky
// avoids all timing: a direction key sets its axis until the opposite key
// (which stops that axis; pressed again, it moves the other way) or 'x'
// (which stops both axes). 'x' stops movement in hold mode too.
//
// Controls takes the time of each event as an argument, so it is tested
// with a fake clock.
//
// # The loop
//
// Run owns the screen: it initialises it, restores it on return or panic,
// and runs one select loop over terminal events, a frame ticker, the
// context and the session's end. In outline:
//
//	func Run(ctx context.Context, screen tcell.Screen, s Session, opts Options) error {
//		screen.Init()
//		defer func() { p := recover(); screen.Fini(); if p != nil { panic(p) } }()
//		go screen.ChannelEvents(events, stop)
//		r, c := NewRenderer(screen, opts), NewControls(opts.Controls)
//		for {
//			select {
//			case ev := <-events: // keys go to c (q, Q, Ctrl-C return nil); a resize Syncs and redraws
//			case <-frames.C:     // s.View(&v); r.Draw(&v); s.SetInput(c.Input(time.Now()))
//			case <-ctx.Done():   // return ctx.Err()
//			case <-s.Done():     // return nil
//			}
//		}
//	}
//
// A caller runs it as:
//
//	screen, err := tcell.NewScreen()
//	if err != nil {
//		return err
//	}
//	err = tui.Run(ctx, screen, client, tui.Options{NoColor: os.Getenv("NO_COLOR") != ""})
package tui
