package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"strings"

	"ttytanks/game"
	"ttytanks/proto/recording"
	"ttytanks/proto/recording/resim"
)

// Verify is "ttytanks verify FILE": it re-simulates a match recording
// and checks every block checksum, hash checkpoint and result. Exit 0 with
// a one-line summary; 1 naming the first block or checkpoint that fails;
// 2 on a usage error.
func Verify(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("verify", "verify [--desync] FILE\n\nRe-simulate a match recording (serve --record) and check every block\nchecksum and every hash checkpoint. Exit 0 with a summary, 1 naming the\nfirst block (byte offset, ticks) or checkpoint tick that fails.", stdout)
	desyncFile := fs.Bool("desync", false, "FILE is desync evidence (join --desync-dir): name the first snapshot field where the State received and the client's own snapshot differ (exit 1 when they do)")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "verify", "want exactly one recording FILE")
	}
	name := fs.Arg(0)
	if *desyncFile {
		return verifyDesync(name, stdout, stderr)
	}
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks verify: %v\n", err)
		return 1
	}
	defer f.Close()
	start := time.Now()
	sum, err := resim.Verify(bufio.NewReaderSize(f, 1<<16))
	elapsed := time.Since(start)
	switch {
	case errors.Is(err, recording.ErrMagic):
		fmt.Fprintf(stderr, "ttytanks verify: %s: FAILED: not a ttytanks recording\n", name)
		return 1
	case errors.Is(err, recording.ErrShort) && sum.Header.Slots == 0:
		fmt.Fprintf(stderr, "ttytanks verify: %s: FAILED: truncated before its first block (the file ends inside its header)\n", name)
		return 1
	case errors.Is(err, resim.ErrNoTicks):
		fmt.Fprintf(stderr, "ttytanks verify: %s: FAILED: %s\n", name, strings.TrimPrefix(err.Error(), resim.ErrNoTicks.Error()+": "))
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "ttytanks verify: %s: FAILED after %d good ticks: %v\n", name, sum.Ticks, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: OK %s\n", name, verifyLine(&sum, elapsed))
	return 0
}

// verifyLine is the one-line summary of a verified recording simulated in
// elapsed wall time.
func verifyLine(s *resim.Summary, elapsed time.Duration) string {
	res := fmt.Sprintf("interrupted at tick %d", s.End)
	var cut *recording.BlockError
	if errors.As(s.Interrupted, &cut) {
		res += fmt.Sprintf(" (the file ends inside the block at byte %d)", cut.Offset)
	}
	if s.Ended {
		res = "a tie"
		if s.Winner >= 0 {
			res = fmt.Sprintf("won by %s (score %d)", seatName(s, s.Winner), s.Scores[s.Winner])
		}
	}
	dur := time.Duration(s.Ticks) * time.Second / game.TickRate
	rate := float64(s.Ticks) / max(elapsed.Seconds(), 1e-9)
	return fmt.Sprintf("match %d: %s (%s), %s, %s, %s; verified at %.0f ticks/s (%.0fx real time)",
		s.Header.Match, plural(s.Ticks, "tick"), dur.Round(time.Second), plural(s.Rounds, "round"), plural(s.Checkpoints, "checkpoint"), res, rate, rate/60)
}

func seatName(s *resim.Summary, slot int) string {
	if n := s.Names[slot]; n != "" {
		return n
	}
	return fmt.Sprintf("seat %d", slot+1)
}

// plural is "1 round", "2 rounds"; "1 match", "2 matches".
func plural(n int, what string) string {
	switch {
	case n == 1:
		return "1 " + what
	case strings.HasSuffix(what, "ch"), strings.HasSuffix(what, "sh"), strings.HasSuffix(what, "s"), strings.HasSuffix(what, "x"):
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
