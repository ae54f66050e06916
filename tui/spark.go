package tui

import "math"

// appendSparkCells appends a sparkline of the last width samples as cells
// from column 0, for Renderer.replayIn: one cell of levels per sample,
// scaled as sparkLevels says.
func appendSparkCells(dst []paintedCell, samples []float64, width int, levels *[8]string) []paintedCell {
	x := 0
	sparkLevels(samples, width, func(k int) {
		dst = append(dst, paintedCell{x: int16(min(x, math.MaxInt16)), w: 1, g: levels[k]})
		x++
	})
	return dst
}

// sparkLevels calls level with the level (0 lowest to 7) of each of the
// last width samples, oldest first. Samples are scaled from the lowest to
// the highest finite sample shown, so the line shows variation rather than
// absolute size; a flat line of equal samples draws a middle level (the
// lowest if they are zero). NaN draws the lowest level and ±Inf the
// extremes. Fewer samples than width give a shorter line.
func sparkLevels(samples []float64, width int, level func(k int)) {
	if width <= 0 {
		return
	}
	if len(samples) > width {
		samples = samples[len(samples)-width:]
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range samples {
		if !math.IsInf(s, 0) && !math.IsNaN(s) {
			lo, hi = min(lo, s), max(hi, s)
		}
	}
	for _, s := range samples {
		k := 0
		switch {
		case math.IsNaN(s) || math.IsInf(s, -1):
		case math.IsInf(s, 1):
			k = 7
		case hi > lo:
			k = min(max(int((s-lo)/(hi-lo)*7+0.5), 0), 7)
		case s != 0:
			k = 3
		}
		level(k)
	}
}
