package cli

import "testing"

func TestOperatorKeys(t *testing.T) {
	tests := []struct {
		keys   string
		action operatorAction
		slot   int
	}{
		{"k3", opKick, 3},
		{"b0", opBan, 0},
		{"kx3", opNone, 0}, // anything else disarms
		{"3", opNone, 0},   // a digit alone does nothing
		{"kb5", opBan, 5},  // the last letter counts
		{"\x03", opStop, 0},
	}
	for _, tt := range tests {
		var o operatorKeys
		var a operatorAction
		var slot int
		for i := 0; i < len(tt.keys); i++ {
			a, slot = o.key(tt.keys[i])
		}
		if a != tt.action || slot != tt.slot {
			t.Errorf("%q: action %d slot %d, want %d %d", tt.keys, a, slot, tt.action, tt.slot)
		}
	}
}
