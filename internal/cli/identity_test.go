package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuestWithAPlayerKeyIsAUsageError: --guest plays without a player
// key, so --player-key beside it is a mistake (exit 2), for join and top,
// said before anything is dialled or any key made.
func TestGuestWithAPlayerKeyIsAUsageError(t *testing.T) {
	key := filepath.Join(t.TempDir(), "k")
	for _, c := range []struct {
		run  func(args []string, stdout, stderr *bytes.Buffer) int
		args []string
	}{
		{func(a []string, o, e *bytes.Buffer) int { return Join(a, o, e) }, []string{"127.0.0.1:1", "--headless", "--guest", "--player-key", key}},
		{func(a []string, o, e *bytes.Buffer) int { return Top(a, o, e) }, []string{"127.0.0.1:1", "--guest", "--player-key", key}},
	} {
		var out, errb bytes.Buffer
		if code := c.run(c.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--guest plays without a player key: drop --player-key") {
			t.Errorf("%q: exit %d, %q; want a usage error", c.args, code, errb.String())
		}
		if _, err := os.Stat(key); err == nil {
			t.Errorf("%q made the key it was told not to use", c.args)
		}
	}
}

// TestABadPlayerKeySaysSoPlainly: a --player-key file that holds no key
// is named, with what is wrong and what to do, in the player's words:
// no package's prefix, no parser's message.
func TestABadPlayerKeySaysSoPlainly(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.key")
	if err := os.WriteFile(bad, []byte("not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Me([]string{"--player-key", bad}, &out, &errb)
	msg := errb.String()
	if code != 1 || !strings.Contains(msg, "--player-key "+bad+" is not an OpenSSH private key") {
		t.Errorf("me --player-key BADFILE: exit %d, %q", code, msg)
	}
	for _, leak := range []string{"known:", "ssh:", "--player-key:"} {
		if strings.Contains(msg, leak) {
			t.Errorf("me --player-key BADFILE says %q: %q", leak, msg)
		}
	}
}
