package tui

import (
	"ttytanks/game"
	"ttytanks/netcode"
)

// goTicks is how long "GO" shows on the map once a round's countdown ends.
const goTicks = game.TickRate / 2

// bigFont holds the characters of the countdown, 3 columns by 5 rows each;
// '#' is a lit pixel. Each pixel is drawn two cells wide, so a character
// is 6 cells by 5 rows and looks square.
var bigFont = map[rune][5]string{
	'1': {" # ", "## ", " # ", " # ", "###"},
	'2': {"###", "  #", "###", "#  ", "###"},
	'3': {"###", "  #", " ##", "  #", "###"},
	'G': {"###", "#  ", "# #", "# #", "###"},
	'O': {"###", "# #", "# #", "# #", "###"},
}

// countdownText returns what the countdown shows for the round state r:
// "3", "2" or "1" during the countdown (the seconds left, rounded up),
// "GO" for the first goTicks of play, and "" otherwise.
func countdownText(r *game.Round) string {
	switch {
	case r.Phase == game.PhaseCountdown:
		return string(rune('0' + min(max((int(r.Timer)+game.TickRate-1)/game.TickRate, 1), 9)))
	case r.Phase == game.PhasePlaying && int(r.Timer) > game.RoundTicks-goTicks:
		return "GO"
	}
	return ""
}

// drawCountdown draws the countdown big and centred on the map, in the
// banner style: bigFont, scaled up (to 3 times) as the map allows, or
// plain text on a map too small for it. The field draws it over the walls
// and under the bullets, labels and tanks, which stay in view.
func (r *Renderer) drawCountdown(l *layout, v *netcode.View) {
	s := countdownText(&v.World.Round)
	if s == "" {
		return
	}
	f := l.field
	n := len(s)
	size := func(sc int) (w, h int) { return n*3*2*sc + (n-1)*2*sc, 5 * sc }
	sc := 0
	for k := 3; k >= 1 && sc == 0; k-- {
		if w, h := size(k); w+2 <= f.w && h+2 <= f.h {
			sc = k
		}
	}
	if sc == 0 {
		r.putCentred(f, f.y+f.h/2, " "+s+" ", r.t.banner)
		return
	}
	w, h := size(sc)
	x0, y0 := f.x+(f.w-w)/2, f.y+(f.h-h)/2
	for k, c := range s {
		pixel := r.t.g.bigPixel
		if pixel == "" {
			pixel = string(c)
		}
		cx := x0 + k*(3*2*sc+2*sc)
		for row, line := range bigFont[c] {
			for col, p := range line {
				if p != '#' {
					continue
				}
				for dy := range sc {
					for dx := range 2 * sc {
						r.put(cx+col*2*sc+dx, y0+row*sc+dy, pixel, 1, r.t.banner)
					}
				}
			}
		}
	}
}
