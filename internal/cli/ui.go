package cli

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"ttytanks/netcode"
	"ttytanks/tui"
)

// uiFlags configure the terminal client.
type uiFlags struct {
	ascii    bool
	fps      int
	controls string
	spectate bool
	// room is where to play; lobby is set when the player picks it in the
	// lobby screen instead (join without --quick, --room or --code, on a
	// terminal).
	room  netcode.RoomRequest
	lobby bool
	// confirmQuit, humanSeats and shareKey: see tui.Options (serve --play
	// sets them).
	confirmQuit bool
	humanSeats  int
	shareKey    string
	// bell: see tui.Options (join and play have --bell).
	bell bool
}

func (f *uiFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.ascii, "ascii", false, "draw with ASCII only (for terminals without box drawing)")
	fs.IntVar(&f.fps, "fps", 60, "display frames per second (10-240)")
	fs.StringVar(&f.controls, "controls", "hold", "movement keys: hold (move while keys repeat) or sticky (move until another direction key or x)")
}

// registerBell adds --bell, for the commands whose player plays in this
// terminal (join, play).
func (f *uiFlags) registerBell(fs *pflag.FlagSet) {
	fs.BoolVar(&f.bell, "bell", false, "ring the terminal bell when your tank is hit and when it destroys another")
}

func (f *uiFlags) check() error {
	if f.fps < 10 || f.fps > 240 {
		return fmt.Errorf("--fps must be 10..240")
	}
	if _, err := tui.ParseControlMode(f.controls); err != nil {
		return fmt.Errorf("--controls %q is not a control mode: use hold (move while keys repeat) or sticky (move until another direction key or x)", f.controls)
	}
	return nil
}

// options are the screen's options, with share as the address the
// sidebar tells others to join.
func (f *uiFlags) options(share string) tui.Options {
	mode, _ := tui.ParseControlMode(f.controls)
	return tui.Options{ASCII: f.ascii, NoColor: os.Getenv("NO_COLOR") != "", Controls: mode, FPS: f.fps, ShareAddr: share,
		ShareKey: f.shareKey, ConfirmQuit: f.confirmQuit, HumanSeats: f.humanSeats, Bell: f.bell}
}
