package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestServeLogFormats: --log-format text writes key=value lines, json one
// object a line with the same fields.
func TestServeLogFormats(t *testing.T) {
	var text, js bytes.Buffer
	l, _, _ := serveLog(false, &text, "text")
	l.Info("player joined", "name", "alice", "transport", "udp")
	if got := text.String(); !strings.Contains(got, `msg="player joined" name=alice transport=udp`) {
		t.Errorf("text log %q", got)
	}
	l, _, _ = serveLog(false, &js, "json")
	l.Info("player joined", "name", "alice", "transport", "udp")
	var m map[string]any
	if err := json.Unmarshal(js.Bytes(), &m); err != nil {
		t.Fatalf("json log %q: %v", js.String(), err)
	}
	if m["msg"] != "player joined" || m["name"] != "alice" || m["transport"] != "udp" {
		t.Errorf("json log %v", m)
	}
}
