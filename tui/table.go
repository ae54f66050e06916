package tui

// column describes one column of a text table (the lobby's room list, the
// dashboard's rooms and players). Widths are in cells.
type column struct {
	title    string
	min, max int  // the column's width lies in [min, max]
	right    bool // right-aligned (numbers)
	// drop orders the columns a narrow table leaves out: the highest drop
	// goes first; 0 is never dropped.
	drop int
}

// fitColumns lays out cols in width cells with gap cells between
// neighbours. It returns each column's width, 0 for a column left out:
// while the columns' minimum widths do not fit it leaves out the column
// with the highest drop, then it widens the columns in order, each up to
// its max, with the cells left over. When even the columns that cannot be
// left out do not fit, they keep their minimum widths and the caller's
// line is cut at width.
func fitColumns(cols []column, width, gap int) []int {
	w := make([]int, len(cols))
	for i, c := range cols {
		w[i] = c.min
	}
	for {
		used, drop := -gap, -1
		for i, c := range cols {
			if w[i] == 0 {
				continue
			}
			used += w[i] + gap
			if c.drop > 0 && (drop < 0 || c.drop > cols[drop].drop) {
				drop = i
			}
		}
		if used <= width || drop < 0 {
			spare := width - used
			for i, c := range cols {
				if w[i] == 0 || spare <= 0 {
					continue
				}
				grow := min(c.max-w[i], spare)
				if grow > 0 {
					w[i] += grow
					spare -= grow
				}
			}
			return w
		}
		w[drop] = 0
	}
}
