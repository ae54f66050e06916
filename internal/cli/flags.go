package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"ttytanks/game"
	"ttytanks/game/bot"
)

// percent is a probability given as a percentage ("5%") or a fraction
// ("0.05").
type percent float64

func (p *percent) String() string { return strconv.FormatFloat(float64(*p)*100, 'g', -1, 64) + "%" }
func (p *percent) Type() string   { return "percent" }
func (p *percent) Set(s string) error {
	s = strings.TrimSpace(s)
	pct := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%q is not a percentage (try 5%% or 0.05)", s)
	}
	if pct {
		v /= 100
	}
	if v < 0 || v > 1 {
		return fmt.Errorf("%q is outside 0%%..100%% (a bare number is a fraction: 0.05 is 5%%)", s)
	}
	*p = percent(v)
	return nil
}

// The smallest maze the server offers: room for a fight.
const minMazeW, minMazeH = 9, 7

// mazeUsage is the --maze flag's help, with the sizes it takes.
var mazeUsage = fmt.Sprintf("maze size in tiles, odd WxH from %dx%d to %dx%d", minMazeW, minMazeH, game.MaxMazeW, game.MaxMazeH)

// mazeSize is a --maze WxH value.
type mazeSize struct{ w, h int }

func (m *mazeSize) String() string { return fmt.Sprintf("%dx%d", m.w, m.h) }
func (m *mazeSize) Type() string   { return "WxH" }
func (m *mazeSize) Set(s string) error {
	var w, h int
	if n, err := fmt.Sscanf(strings.ToLower(s), "%dx%d", &w, &h); n != 2 || err != nil || fmt.Sprintf("%dx%d", w, h) != strings.ToLower(s) {
		return fmt.Errorf("%q is not a size like 25x21", s)
	}
	if err := game.CheckMazeSize(w, h); err != nil || w < minMazeW || h < minMazeH {
		return fmt.Errorf("maze %s: width and height must be odd, %d..%d wide and %d..%d high",
			s, minMazeW, game.MaxMazeW, minMazeH, game.MaxMazeH)
	}
	m.w, m.h = w, h
	return nil
}

// botLevelFlag is a --bot-level value: easy, normal or hard.
type botLevelFlag struct{ l *bot.Level }

func (f botLevelFlag) String() string {
	if f.l == nil {
		return bot.Normal.String()
	}
	return f.l.String()
}
func (f botLevelFlag) Type() string { return "easy|normal|hard" }
func (f botLevelFlag) Set(s string) error {
	l, err := bot.ParseLevel(strings.ToLower(strings.TrimSpace(s)))
	if err != nil {
		return err
	}
	*f.l = l
	return nil
}

// registerBotLevel adds --bot-level to fs, stored in l (whose value is the
// default).
func registerBotLevel(fs *pflag.FlagSet, l *bot.Level, usage string) {
	fs.Var(botLevelFlag{l}, "bot-level", usage+": easy, normal or hard")
}
