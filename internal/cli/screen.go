package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/gdamore/tcell/v2"
	_ "github.com/gdamore/tcell/v2/terminfo/extended" // the fallback's entry, built in
)

// fallbackTerm is the terminal type used when $TERM is unknown here, as
// SSH play does.
const fallbackTerm = "xterm-256color"

// openScreen returns a screen on this process's terminal (/dev/tty) for the
// terminal type term. A type with no terminfo entry falls back to
// fallbackTerm, with a warning on warn. With no terminal to open, it
// returns the error of opening it.
func openScreen(term string, warn io.Writer) (tcell.Screen, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	tty.Close()
	ti, err := tcell.LookupTerminfo(term)
	if err != nil {
		fmt.Fprintf(warn, "ttytanks: TERM=%q is unknown here; drawing for %s\n", term, fallbackTerm)
		if ti, err = tcell.LookupTerminfo(fallbackTerm); err != nil {
			return nil, err
		}
	}
	return tcell.NewTerminfoScreenFromTtyTerminfo(nil, ti)
}

// newScreen opens the terminal for tcell (see openScreen).
func newScreen() (tcell.Screen, error) { return openScreen(os.Getenv("TERM"), os.Stderr) }

// openGameScreen opens the terminal, or says why it cannot (and, for a
// bot, how to play without one).
func openGameScreen(bot bool, stderr io.Writer) (tcell.Screen, error) {
	screen, err := newScreen()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: cannot open the terminal: %v\n", err)
		if bot {
			fmt.Fprintln(stderr, "ttytanks: to let the bot play without a terminal, add --headless (and --duration)")
		}
	}
	return screen, err
}
