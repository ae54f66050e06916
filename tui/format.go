package tui

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rivo/uniseg"

	"ttytanks/game"
)

// The sidebar's number formats. Each returns plain text.

// fmtHP draws hit points as hearts ("♥♥♡") or, in ASCII, "HP 2/3".
func fmtHP(hp int8, g *glyphs) string {
	hp = min(max(hp, 0), game.TankHP)
	if g.ascii {
		return "HP " + strconv.Itoa(int(hp)) + "/" + strconv.Itoa(game.TankHP)
	}
	return strings.Repeat(g.heart, int(hp)) + strings.Repeat(g.noHeart, game.TankHP-int(hp))
}

// fmtTicks formats a tick count: "1 tick", "-3 ticks".
func fmtTicks(n int32) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(int(n)) + " tick"
	}
	return strconv.Itoa(int(n)) + " ticks"
}

// fmtMS formats a duration in milliseconds, with one decimal below 10 ms.
func fmtMS(d time.Duration) string {
	if d < 10*time.Millisecond && d > -10*time.Millisecond {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
	}
	return strconv.FormatInt(d.Round(time.Millisecond).Milliseconds(), 10) + " ms"
}

// fmtSignedMS is fmtMS with an explicit sign on positive values.
func fmtSignedMS(d time.Duration) string {
	if d > 0 {
		return "+" + fmtMS(d)
	}
	return fmtMS(d)
}

// fmtUS formats a duration in whole microseconds.
func fmtUS(d time.Duration, g *glyphs) string {
	unit := " µs"
	if g.ascii {
		unit = " us"
	}
	return strconv.FormatInt(d.Round(time.Microsecond).Microseconds(), 10) + unit
}

// fmtPct formats a 0..1 fraction as a percentage with one decimal.
func fmtPct(f float64) string {
	return strconv.FormatFloat(f*100, 'f', 1, 64) + "%"
}

// fmtKB formats bytes per second as kilobytes (1000 bytes) per second.
func fmtKB(bps float64) string {
	return strconv.FormatFloat(bps/1000, 'f', 1, 64)
}

// truncate cuts the plain text s to at most w cells, ending in ellipsis
// when cut.
func truncate(s string, w int, ellipsis string) string {
	if textWidth(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	out := ""
	for s != "" {
		c, rest, cw, _ := uniseg.FirstGraphemeClusterInString(s, -1)
		if textWidth(out)+cw > w-textWidth(ellipsis) {
			break
		}
		out += c
		s = rest
	}
	return out + ellipsis
}

// textWidth is the width of plain (unstyled) text in cells.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return unicodeWidth(s)
		}
	}
	return len(s)
}

// widths holds the widths of the non-ASCII texts measured lately, for
// every session of the process: finding a text's grapheme clusters is
// most of measuring it, and the same titles, names and hints are measured
// every frame. It forgets everything when it holds maxWidths.
var widths struct {
	m sync.Map // string → int
	n atomic.Int32
}

const maxWidths = 4096

// unicodeWidth is textWidth of a text that is not all ASCII.
func unicodeWidth(s string) int {
	if w, ok := widths.m.Load(s); ok {
		return w.(int)
	}
	w := uniseg.StringWidth(s)
	if widths.n.Add(1) > maxWidths {
		widths.m.Clear()
		widths.n.Store(0)
	}
	widths.m.Store(s, w)
	return w
}
