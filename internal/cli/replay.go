package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ttytanks/proto/recording/resim"
	"ttytanks/tui/replay"
)

// Replay is "ttytanks replay FILE": it plays a match recording in the
// renderer of a live match. It returns the exit code: 0 when the player
// quits, 1 on a runtime failure, 2 on a usage error.
func Replay(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("replay", "replay FILE [flags]\n\nWatch a match recording (serve --record) as a spectator.\n\n"+replay.Keys, stdout)
	speed := fs.Float64("speed", 1, "playback speed: 0.25, 0.5, 1, 2, 4 or 8")
	follow := fs.Int("follow", 0, "follow this player (1-8; 0: nobody)")
	paused := fs.Bool("paused", false, "start paused")
	var uf uiFlags
	uf.register(fs)
	fs.MarkHidden("controls") // nothing to steer
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "replay", "want exactly one recording FILE")
	}
	if err := uf.check(); err != nil {
		return usageError(stderr, "replay", err.Error())
	}
	si := slices.Index(replay.Speeds, *speed)
	if si < 0 {
		return usageError(stderr, "replay", fmt.Sprintf("--speed %g: want one of %v", *speed, replay.Speeds))
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks replay: %v\n", err)
		return 1
	}
	tl, err := resim.Load(bufio.NewReaderSize(f, 1<<16))
	f.Close()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks replay: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	if *follow < 0 || *follow > tl.Header().Slots {
		return usageError(stderr, "replay", fmt.Sprintf("--follow %d: the match has %d players", *follow, tl.Header().Slots))
	}
	p := replay.NewPlayer(tl)
	p.Speed, p.Follow, p.Paused = si, *follow-1, *paused
	p.Name = strings.TrimSuffix(filepath.Base(fs.Arg(0)), ".ttrec")
	screen, err := newScreen()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks replay: %v\n", err)
		return 1
	}
	ctx, stop := signalContext()
	defer stop()
	opts := uf.options("")
	opts.NoSmoothing = true
	if err := replay.Play(ctx, screen, p, opts, replay.Hooks{}); err != nil && err != context.Canceled {
		fmt.Fprintf(stderr, "ttytanks replay: %v\n", err)
		return 1
	}
	if err := tl.Err(); err != nil && !tl.Interrupted() {
		fmt.Fprintf(stderr, "ttytanks replay: the recording ends early at tick %d: %v\n", tl.End(), err)
	}
	return 0
}
