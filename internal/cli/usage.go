package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

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

// usageError tells of a usage error msg of command cmd on stderr, with
// where to find the command's usage, and returns its exit code, 2.
func usageError(stderr io.Writer, cmd, msg string) int {
	fmt.Fprintf(stderr, "ttytanks %s: %s\nRun 'ttytanks %s --help' for usage.\n", cmd, msg, cmd)
	return 2
}
