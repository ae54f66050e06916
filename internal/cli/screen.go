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

// openGameScreen opens the terminal for cmd ("play", "join", "serve
// --play"), or says why it cannot and what to do instead.
func openGameScreen(cmd string, bot bool, stderr io.Writer) (tcell.Screen, error) {
	screen, err := newScreen()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: %s needs a terminal to draw in, and there is none here (%v)\n", cmd, err)
		fmt.Fprintln(stderr, "ttytanks: "+noTerminalHint(cmd, bot))
	}
	return screen, err
}

// noTerminalHint says how cmd plays without a terminal: --headless, with
// join's bot playing for the player.
func noTerminalHint(cmd string, bot bool) string {
	switch {
	case cmd == "join" && bot:
		return "to let the bot play without a terminal, add --headless (and --duration)"
	case cmd == "join":
		return "to play without a terminal, let the bot play for you: add --bot --headless (and --duration)"
	case cmd == "serve --play":
		return "run it in a terminal, or leave out --play: the server needs none, and a bot can join it headless (ttytanks join ADDR --bot --headless)"
	}
	return "run it in a terminal; without one, a bot can play headless against a server: ttytanks serve, then ttytanks join ADDR --bot --headless"
}
