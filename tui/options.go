package tui

import "fmt"

// ControlMode says how key presses, which terminals report without
// releases, become held movement.
type ControlMode uint8

const (
	// ControlsHold makes a first press a tap, held until the tank will stop
	// on the next tile's centre (see Controls.Track), and holds a direction
	// for HoldRepeat after each auto-repeat. It is the default.
	ControlsHold ControlMode = iota
	// ControlsSticky keeps moving until another direction key or 'x'
	// (which stops): the opposite key reverses at once, a perpendicular
	// key turns, and two keys pressed within StickyChord move diagonally.
	ControlsSticky
)

// String returns the mode's flag value, "hold" or "sticky".
func (m ControlMode) String() string {
	switch m {
	case ControlsHold:
		return "hold"
	case ControlsSticky:
		return "sticky"
	}
	return fmt.Sprintf("ControlMode(%d)", uint8(m))
}

// ParseControlMode parses a --controls flag value: "hold" or "sticky".
func ParseControlMode(s string) (ControlMode, error) {
	switch s {
	case "hold":
		return ControlsHold, nil
	case "sticky":
		return ControlsSticky, nil
	}
	return ControlsHold, fmt.Errorf("tui: unknown control mode %q (want hold or sticky)", s)
}

// DefaultFPS is the display frame rate Run uses when Options.FPS is zero or
// negative.
const DefaultFPS = 60

// Options configure the terminal client's screen.
type Options struct {
	// Pause, when set, stops the game (true) or starts it again (false):
	// ttytanks play, whose embedded server and client share a
	// netcode.PauseClock. Run pauses while p has paused it, while the
	// help overlay is open and while the terminal is too small to draw
	// the game. nil (a game with other people): nothing pauses.
	Pause func(paused bool)
	// Lobby is set when Run plays inside Play: l then returns ErrToLobby
	// at any time (the key hints say so), not only on the results screen.
	Lobby bool
	// ASCII restricts every drawn cell to ASCII: no box drawing, arrows,
	// blocks or hearts.
	ASCII bool
	// NoColor draws without any colour attribute (every cell keeps the
	// terminal's default foreground and background); bold and reverse are
	// still used where they carry meaning. main sets it when NO_COLOR is set.
	NoColor bool
	// Controls chooses how key presses become held movement.
	Controls ControlMode
	// FPS is the display frame rate; zero or negative means DefaultFPS.
	FPS int
	// NoSmoothing turns correction smoothing off: Run then draws every tank
	// exactly where the client simulates it, so a correction shows as a
	// jump. The default smooths corrections in the drawing only (see the
	// package documentation); the simulation is never affected either way.
	NoSmoothing bool
	// HUD is what a session starts showing (names on the map, the sidebar's
	// level, ...); the player's keys change it as the session goes on.
	HUD HUD
	// ShareAddr is shown on the waiting screen as the address other players
	// pass to "ttytanks join"; empty hides the hint.
	ShareAddr string
	// ShareKey, with ShareAddr, is the server key's fingerprint: the
	// shared command pins it (--server-key), so the players who copy it
	// know the server by its key from their first join.
	ShareKey string
	// Share, when set, is the whole command the waiting screen tells other
	// players to run instead (an SSH session shares "ssh -p PORT HOST").
	Share string
	// Server is the address the client connects to, shown while connecting.
	Server string
	// ConfirmQuit asks before q quits while another person is connected:
	// the host of serve --play, whose quitting ends the match for everyone.
	// HumanSeats is how many seats, the first ones, people take; the
	// server's bots have the rest and are not asked about. Ctrl-C always
	// quits at once.
	ConfirmQuit bool
	HumanSeats  int
	// Bell rings the terminal bell when the local tank is hit and when it
	// destroys another tank (Run).
	Bell bool
}

func (o Options) fps() int {
	if o.FPS <= 0 {
		return DefaultFPS
	}
	return o.FPS
}
