package tui

import (
	"fmt"
	"math"
	"testing"
)

func TestSpark(t *testing.T) {
	tests := []struct {
		name    string
		samples []float64
		width   int
		want    string
	}{
		{"empty", nil, 10, ""},
		{"ramp", []float64{0, 1, 2, 3, 4, 5, 6, 7}, 10, "▁▂▃▄▅▆▇█"},
		{"offset ramp scales from the lowest", []float64{100, 101, 102, 103, 104, 105, 106, 107}, 10, "▁▂▃▄▅▆▇█"},
		{"keeps the newest", []float64{7, 0, 7, 0}, 3, "▁█▁"},
		{"flat", []float64{5, 5, 5}, 10, "▄▄▄"},
		{"flat zero", []float64{0, 0}, 10, "▁▁"},
		{"spike", []float64{1, 1, 15, 1}, 10, "▁▁█▁"},
		{"odd values", []float64{math.NaN(), 0, 7, math.Inf(1), math.Inf(-1)}, 10, "▁▁██▁"},
		{"zero width", []float64{1, 2}, 0, ""},
	}
	for _, tt := range tests {
		if got := sparkText(tt.samples, tt.width, &unicodeGlyphs.spark); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := sparkText([]float64{0, 1, 2, 3, 4, 5, 6, 7}, 8, &asciiGlyphs.spark); got != "_.:-=+*#" {
		t.Errorf("ASCII ramp %q", got)
	}
}

// sparkText is a sparkline's cells as text, checking that they stand in
// consecutive columns from 0, one cell wide each.
func sparkText(samples []float64, width int, levels *[8]string) string {
	var b []byte
	for i, c := range appendSparkCells(nil, samples, width, levels) {
		if int(c.x) != i || c.w != 1 {
			return fmt.Sprintf("cell %d at column %d, %d wide", i, c.x, c.w)
		}
		b = append(b, c.g...)
	}
	return string(b)
}
