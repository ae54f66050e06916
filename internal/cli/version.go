package cli

import (
	"fmt"
	"io"
)

// Version is "ttytanks version": it prints the binary's version. It
// returns the exit code: 0, or 2 on a usage error.
func Version(version string, args []string, stdout, stderr io.Writer) int {
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
