package tests

import "strings"

// Reading a game's screen, as tmux or the terminal emulator shows it: the
// field on the left, the sidebar on the right.

// arrows are the runes a tank is drawn with, one a direction.
const arrows = "↑↗→↘↓↙←↖"

// sidebarCol is the column of the sidebar's left border on the first
// row that has one ("╭", or "│" when the layout has no box), or -1.
func sidebarCol(screen string) int {
	for _, l := range strings.Split(screen, "\n") {
		for _, mark := range []string{"╭", "│"} {
			if i := strings.Index(l, mark); i >= 0 {
				return len([]rune(l[:i]))
			}
		}
	}
	return -1
}

// field returns the part of each screen line left of the sidebar.
func field(screen string) []string {
	cut := sidebarCol(screen)
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		r := []rune(l)
		if cut >= 0 && len(r) > cut {
			r = r[:cut]
		}
		out = append(out, string(r))
	}
	return out
}

// fieldText is the field as one text.
func fieldText(screen string) string { return strings.Join(field(screen), "\n") }

// tanks returns the cells (column, row) of the field that hold tank
// arrows.
func tanks(screen string) [][2]int {
	var at [][2]int
	for y, l := range field(screen) {
		for x, r := range []rune(l) {
			if strings.ContainsRune(arrows, r) {
				at = append(at, [2]int{x, y})
			}
		}
	}
	return at
}
