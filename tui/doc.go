// Package tui is the terminal client's screen: it draws a netcode.View with
// tcell and turns key presses into the game.Input the player holds.
//
// # Drawing
//
// A frame is a function of the view, the Options and the screen size
// (Draw). The maze is on the left, each tile two columns by one row, so a
// bullet at (X, Y) sub-tiles is drawn at column X*2/game.SubTile, row
// Y/game.SubTile of the maze, and a tank in the cell whose middle is
// nearest (column (X*2+game.SubTile/2)/game.SubTile): a tank at rest on a
// tile's centre is drawn in the middle of the tile's right cell, not on
// the edge between two; when the whole maze fits at twice that
// (four columns by two rows a tile) it is drawn so. The maze is centred in
// its area, and when it does not fit, a window of it follows the local tank
// (or the player a spectator follows). Right above it a title row shows the
// round and its timer, or the round's result; below it the event feed
// ("alice joined", "bot2 destroyed alice", "round 3: alice wins"). The
// sidebar on the right lists the netcode figures, one labelled line each,
// the players and the controls, at one of three levels (SidebarDetail);
// its layout is done with lipgloss on a renderer of its
// own whose colour profile is set from Options (never detected from
// stdout), and an SGR painter copies lipgloss's ANSI output into tcell
// cells. Below MinWidth×MinHeight the match has a compact layout: no
// sidebar, and the title row is a status line with the essential figures
// (round and timer, your hearts and score, RTT, rollbacks, as many as fit);
// it goes down to the maze's own size, two columns a tile and a row for
// the status. Only below that is a "terminal too small" message drawn.
//
// Glyphs: walls are "██" ("##" with Options.ASCII), bullets "•" ("*").
// A tank shows its facing (AimX, AimY) as an arrow, ↑ ↗ → ↘ ↓ ↙ ← ↖, or in
// ASCII as ^ > v < for the axes and the slash along a diagonal: '/' for
// up-right and down-left, '\' for up-left and down-right. A destroyed tank
// is an 'x'. Each slot has its own colour; the local player's tank is in
// reverse video, which also marks it when Options.NoColor removes every
// colour.
//
// Each tank has its name by it (HUD.HideNames hides them), on free floor
// only: above it, else below, else beside it, shortened to the room there,
// or not at all; a name never covers a wall, a tank or another name. A tank in
// hitstun flashes: hit marks either side and its reverse video toggled,
// every few ticks while the view shows the hitstun. A destroyed tank
// bursts for BurstTicks and is then a wreck; the renderer remembers the
// tick it first drew the tank destroyed, and forgets it the moment a view
// shows the tank alive again (a predicted death a State rolled back), so
// nothing of a death that did not happen stays. The event feed derives
// its lines from successive views and reports kills and round results only
// once the newest State applied has reached them.
//
// The HUD holds what the player chose to see: n toggles the names, ? or F1
// the help overlay (Esc closes it), Tab the sidebar's level, and a
// spectator's number keys the player to follow.
//
// A Renderer keeps which cells its previous frame wrote and rewrites only
// what is needed, so an unchanged cell costs nothing to show; Run uses one.
//
// # Correction smoothing
//
// When a State arrives the client restores it and replays, so a tank's
// simulated position can jump: a remote tank was mispredicted, or our own
// was corrected. The simulation takes the jump at once; only the drawing
// hides it. Renderer.DrawAt(v, now), which Run calls on every frame with
// its clock, keeps for each slot the last simulated position and an offset,
// in sub-tiles, at which the tank is drawn from it:
//
//   - A live tank's move between two frames beyond what it can do in the
//     ticks between them (2×TankSpeed per tick on each axis, which covers
//     top speed, knockback and being pushed) is a correction: the excess
//     is subtracted from the offset, so the tank is first drawn where it
//     was drawn before.
//   - The offset halves every 60 ms of frame time (the times DrawAt is
//     given, not a frame count) and is dropped below TankSpeed, so a
//     correction of half a tile is gone within 200 ms and one of
//     1.5 tiles within 300 ms.
//   - Anything larger than 1.5 tiles on an axis, a tank that dies, respawns
//     or is seated, a new round or maze, and any frame outside play snap:
//     the tank is drawn where it is simulated.
//   - Normal movement gives no offset, so a tank that is not corrected is
//     drawn exactly where it is simulated, with no lag.
//
// A tank is drawn at its simulated position plus its offset, mapped to
// cells as above (and, should that point be in a wall, with the offset on
// one axis or none); the window that follows the local tank follows where
// it is drawn. Bullets are not smoothed: they are fast and short-lived.
// Nothing flows back: the offset is never seen by netcode or game, and the
// sidebar's figures are the client's. Options.NoSmoothing turns smoothing
// off, as do Renderer.Draw and the package-level Draw, which draw every
// tank where it is simulated.
//
// # Keys
//
// Terminals report key presses but no releases: a held key arrives as one
// press, a pause (the auto-repeat delay, often 250–500 ms) and repeats every
// 30–50 ms. In the default ControlsHold mode a first press is therefore a
// tap: Run shows the Controls the local tank on every frame
// (Controls.Track), and a tap holds its direction until the tank, braking,
// will come to rest on the centre of the next tile that way, so one tap
// moves one tile; a tap towards a wall only turns the tank to face it. A
// press of the key while its step is under way is an auto-repeat: the
// direction stays held for HoldRepeat (200 ms) after each repeat, and when
// the repeats stop the tank goes on to the next tile centre. Without a
// tracked tank a first press holds for HoldFirst (750 ms), longer than the
// auto-repeat delay. The two axes
// are independent: a perpendicular key adds a diagonal while both are
// held, and the opposite key replaces the direction on its axis at once.
// Space holds the fire button for HoldFire (150 ms), so a tick whose
// cooldown blocks the shot does not lose the press; firing never cancels
// movement; x stops at once.
//
// One limit comes from the terminal: while two keys are held, only the
// last one pressed auto-repeats, so the other expires after its deadline
// and a held diagonal decays to the direction pressed last. ControlsSticky
// needs no repeats: a direction key sets the direction until another
// direction key or 'x' (which stops). The opposite key reverses at once; a
// perpendicular key turns, dropping the direction held before unless the
// two were pressed within StickyChord (150 ms), which moves diagonally, so
// a direction pressed earlier against a wall never lingers to turn a later
// turn into a diagonal slide. 'x' stops movement in hold mode too.
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
//			case <-frames.C:     // s.View(&v); now := time.Now(); c.Track(&v, now); r.DrawAt(&v, now); s.SetInput(c.Input(now))
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
//
// # The lobby
//
// Lobby (lobby.go, lobbydraw.go) shows a server's rooms, polled from a
// LobbySource (netcode.Lobby), and returns the netcode.RoomRequest the
// player picked: a room (Enter), a room to watch (s), a quick match (n),
// a room to create (c, a form), a private room's code (p); ErrQuit when the
// player quits. A ranked room (its matches rated) has ★ after its name.
// l or Tab shows the leaderboard tab instead of the rooms: a page of
// the server's best players (rank, name, rating ± 2·RD, Glicko's 95%
// interval, rated matches, wins) and the player's own card under it,
// asked through LobbyOptions.Ladder (a LobbyLadder: the lobby chat's
// place, a netcode.ClientDriver) when the tab opens, every
// LadderRefresh while it shows and for each page ←→ or PgUp/PgDn move
// to. t opens a line of the lobby's chat (LobbyChat) on either tab. Play (play.go) runs the lobby and the game on one screen:
// WithScreen owns the screen (one Init, one Fini, the terminal restored on
// a panic) and hands Lobby and Run a shared one whose Init and Fini do
// nothing; a Host joins the room picked and gives back a Seat; Run returns
// ErrToLobby on l (Options.Lobby), and a session the server ended brings
// the lobby back with a line saying why. The UDP join and every SSH
// session run this same loop.
//
// # Files
//
//	run.go              Run: the game's select loop over a Session
//	play.go             Play: the lobby and the games picked from it on one screen; Host, Seat
//	sharedscreen.go     SharedScreen, WithScreen: one Init and one Fini for several loops
//	options.go          Options, ControlMode
//	controls.go         Controls: keys to held inputs (hold and sticky modes)
//	tap.go              Controls.Track: a tap moves one tile and stops on its centre
//	render.go           Renderer, Draw: one frame of a View
//	layout.go           where the field, the sidebar and the title go for a screen size
//	field.go            the maze, tanks, bullets and the title row
//	labels.go           the names by the tanks, placed on free floor
//	smooth.go           correction smoothing: a decaying render-layer offset
//	effects.go          hit flashes and bursts
//	bell.go             the terminal bell on a hit on the local tank and on its kills (Options.Bell)
//	countdown.go        the round's countdown
//	results.go          the match's results: standings, accuracy, rating changes, why not rated
//	feed.go             the event feed (kills, joins, rounds)
//	chat.go             the chat line: typing, sending, what the feed shows (m)
//	hud.go              HUD: the sidebar's detail level and the player followed
//	sidebar.go          the lipgloss sidebar: figures, levels, frame
//	spark.go            sparklines
//	panels.go           message boxes and the "terminal too small" screen
//	help.go             the help panel
//	panel.go            Panel: a sidebar, help and feed of the caller's own (the replay's)
//	glyphs.go           the box-drawing and ASCII glyph sets
//	theme.go            colours and styles, NO_COLOR and --ascii
//	sgr.go              lipgloss output (SGR sequences) painted into cells
//	table.go            column fitting
//	format.go           figures as text (HP, ticks, ms, %)
//	clean.go            text cleaned of control characters, padded to a width
//	lobby.go            Lobby, LobbySource, LobbyOptions
//	lobbymodel.go       the lobby's state: the room list, the modes, the choice
//	lobbydraw.go        the lobby drawn
//	lobbyform.go        the create-a-room form
//	lobbychat.go        the lobby's chat: LobbyChat, LobbyChatHost, its rows above the footer
//	lobbyplace.go       the lobby's place on the server: HeldNameHost, a name refused, a place refused
//	lobbyladder.go      the leaderboard tab: LobbyLadder, the page asked, its keys and refresh
//	lobbyladderdraw.go  the leaderboard drawn: the table, the player's card, the status
//	dashboard.go        RenderDashboard: the server's status screen
//	logring.go          LogRing: the dashboard's last log lines
package tui
