package cli

import (
	"fmt"
	"io"
	"os"

	"ttytanks/netcode/desync"
)

// verifyDesync is "ttytanks verify --desync FILE": it explains a desync
// evidence file. Exit 1 when the received and own snapshots differ (the
// report names the first differing field) or the file cannot be read, 0
// when they are equal.
func verifyDesync(name string, stdout, stderr io.Writer) int {
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks verify: %v\n", err)
		return 1
	}
	defer f.Close()
	e, err := desync.Read(f)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks verify: %s: %v\n", name, err)
		return 1
	}
	rep, differs := desync.Explain(&e)
	fmt.Fprintf(stdout, "%s: %s", name, rep)
	if differs {
		return 1
	}
	return 0
}
