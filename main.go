// Command ttytanks is a real-time multiplayer maze-tank game for the
// terminal with server-authoritative rollback netcode.
//
// This file is the command table and its dispatch; each command lives in
// package internal/cli.
package main

import (
	"fmt"
	"io"
	"os"

	"ttytanks/internal/cli"
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
		{"play", "play against bots right here: an embedded server, you and bots", cli.Play},
		{"serve", "run the authoritative game server (UDP)", withVersion(cli.Serve)},
		{"join", "join a server and play (or watch with --spectate)", cli.Join},
		{"rooms", "print a server's room list (a fleet's, through any of its servers)", cli.Rooms},
		{"top", "print a server's leaderboard (a fleet's: they share one) and your place on it", cli.Top},
		{"me", "print your player key, and your record on a server (--forget deletes it)", cli.Me},
		{"replay", "watch a match recording (serve --record)", cli.Replay},
		{"verify", "check a match recording by re-simulating it", cli.Verify},
		{"loadtest", "load a server with many protocol clients and report what they saw", cli.Loadtest},
		{"version", "print the version and exit", withVersion(cli.Version)},
		{"help", "show help for ttytanks or one of its commands", runHelp},
	}
}

// withVersion gives a command that needs it the binary's version.
func withVersion(run func(version string, args []string, stdout, stderr io.Writer) int) func(args []string, stdout, stderr io.Writer) int {
	return func(args []string, stdout, stderr io.Writer) int { return run(version, args, stdout, stderr) }
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

// runHelp is "ttytanks help [COMMAND]": the usage, or a command's
// --help.
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
