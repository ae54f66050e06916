// Command ttytanks is a real-time multiplayer maze-tank game for the
// terminal with server-authoritative rollback netcode.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"
)

// version is the release version; the build may override it with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// command is one subcommand of the ttytanks binary.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"play", "play against bots right here: an embedded server, you and bots", runPlay},
		{"serve", "run the authoritative game server (UDP)", runServe},
		{"join", "join a server and play (or watch with --spectate)", runJoin},
		{"replay", "watch a match recording (serve --record)", runReplay},
		{"verify", "check a match recording by re-simulating it", runVerify},
		{"loadtest", "load a server with many protocol clients and report what they saw", runLoadtest},
		{"version", "print the version and exit", runVersion},
		{"help", "show help for ttytanks or one of its commands", runHelp},
	}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch runs the subcommand named by args[0] and returns the process exit
// code: 0 on success, 1 on a runtime failure, 2 on a usage error.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	if name == "-h" || name == "--help" {
		usage(stdout)
		return 0
	}
	if name == "--version" {
		name = "version"
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "ttytanks: unknown command %q\n\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "ttytanks %s: a multiplayer maze-tank game for the terminal\n\nUsage:\n  ttytanks COMMAND [flags]\n\nCommands:\n", version)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'ttytanks COMMAND --help' for a command's flags.\n")
}

// newFlagSet returns a pflag set that reports errors instead of exiting, so
// every command maps a usage error to exit code 2 with a clear message.
// Help (--help) goes to stdout.
func newFlagSet(name, synopsis string, stdout io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard) // parseFlags reports errors itself
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: ttytanks %s\n", synopsis)
		if fs.HasFlags() {
			fmt.Fprintf(stdout, "\nFlags:\n%s", fs.FlagUsages())
		}
	}
	return fs
}

// parseFlags parses args into fs; it returns (code, true) when the command
// should exit now with code (help requested or a usage error).
func parseFlags(fs *pflag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		return 0, true
	}
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks %s: %v\nRun 'ttytanks %s --help' for usage.\n", fs.Name(), err, fs.Name())
		return 2, true
	}
	return 0, false
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "version", stdout)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ttytanks version: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	fmt.Fprintf(stdout, "ttytanks %s\n", version)
	return 0
}

func runHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0 || len(args) == 1 && args[0] == "help":
		usage(stdout)
		return 0
	case len(args) > 1:
		fmt.Fprintf(stderr, "ttytanks help: unexpected argument %q\n", args[1])
		return 2
	}
	for _, c := range commands() {
		if c.name == args[0] && c.name != "help" {
			return c.run([]string{"--help"}, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "ttytanks help: unknown command %q\n", args[0])
	return 2
}
