package cli

import (
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/spf13/pflag"

	"ttytanks/internal/loadtest"
)

// termSize is a --size WxH value in cells.
type termSize struct{ w, h int }

func (t *termSize) String() string { return fmt.Sprintf("%dx%d", t.w, t.h) }
func (t *termSize) Type() string   { return "WxH" }
func (t *termSize) Set(s string) error {
	var w, h int
	if n, err := fmt.Sscanf(strings.ToLower(s), "%dx%d", &w, &h); n != 2 || err != nil || fmt.Sprintf("%dx%d", w, h) != strings.ToLower(s) ||
		w < 20 || h < 10 || w > 1000 || h > 500 {
		return fmt.Errorf("%q is not a terminal size like 80x24 (20x10 to 1000x500)", s)
	}
	t.w, t.h = w, h
	return nil
}

// runLoadSSH is loadtest --ssh.
func runLoadSSH(f *loadFlags, fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	if fs.NArg() > 0 {
		return usageError(stderr, "loadtest", fmt.Sprintf("with --ssh, give no other address (got %q)", fs.Arg(0)))
	}
	if _, _, err := net.SplitHostPort(f.ssh); err != nil {
		return usageError(stderr, "loadtest", fmt.Sprintf("--ssh %q is not an address like host:2222", f.ssh))
	}
	if err := f.checkRun("with --ssh, --clients must be 1..2000", 2000); err != nil {
		return usageError(stderr, "loadtest", err.Error())
	}
	ctx, stop := signalContext()
	defer stop()
	cfg := f.config(stderr)
	rep, err := loadtest.RunSSH(ctx, f.ssh, &cfg, f.size.w, f.size.h)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks loadtest: %v\n", err)
		return 1
	}
	if code := emitReport(stdout, stderr, rep, f.jsonFile, rep.ServerStatsErr); code != 0 {
		return code
	}
	if rep.InGame < rep.Sessions || len(rep.Errors) > 0 {
		return 1
	}
	return 0
}
