package cli

import "testing"

func TestPercentFlag(t *testing.T) {
	cases := []struct {
		in   string
		want float64
	}{{"5%", 0.05}, {"0.05", 0.05}, {"1", 1}, {"0", 0}, {"100%", 1}, {" 2.5% ", 0.025}}
	for _, c := range cases {
		var p percent
		if err := p.Set(c.in); err != nil || float64(p) != c.want {
			t.Errorf("percent.Set(%q) = %v, %v; want %v", c.in, float64(p), err, c.want)
		}
	}
}
