package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestAgonesFlag: --agones reads the sidecar's port from
// AGONES_SDK_HTTP_PORT (9358 without it), refuses one that is no port and
// --play, and comes from the configuration file and the environment like
// every flag.
func TestAgonesFlag(t *testing.T) {
	check := func(env map[string]string, args ...string) (*serveFlags, error) {
		t.Helper()
		fs, f := serveFlagSet(t, args...)
		if err := f.svc.load(fs, envOf(env)); err != nil {
			t.Fatal(err)
		}
		return f, f.agones.check(f.play, envOf(env))
	}
	if f, err := check(nil, "--agones"); err != nil || f.agones.base != "http://localhost:9358" {
		t.Errorf("--agones: base %q, %v", f.agones.base, err)
	}
	if f, err := check(map[string]string{"AGONES_SDK_HTTP_PORT": "9400"}, "--agones"); err != nil || f.agones.base != "http://localhost:9400" {
		t.Errorf("AGONES_SDK_HTTP_PORT=9400: base %q, %v", f.agones.base, err)
	}
	if _, err := check(map[string]string{"AGONES_SDK_HTTP_PORT": "nine"}, "--agones"); err == nil || !strings.Contains(err.Error(), "AGONES_SDK_HTTP_PORT") {
		t.Errorf("a port that is none: %v", err)
	}
	if _, err := check(nil, "--agones", "--play"); err == nil {
		t.Error("--agones --play: no error")
	}
	if f, err := check(map[string]string{"AGONES_SDK_HTTP_PORT": "nine"}); err != nil || f.agones.on {
		t.Errorf("without --agones the port is not read: %v", err)
	}
	if f, _ := check(map[string]string{"TTYTANKS_AGONES": "true"}); !f.agones.on {
		t.Error("TTYTANKS_AGONES=true does not turn it on")
	}
	if f, _ := check(nil, "--config", writeFile(t, "agones = true\n")); !f.agones.on {
		t.Error("agones = true in the file does not turn it on")
	}
}

// TestServeAgonesUsage: serve --agones --play is a usage error (exit 2),
// and serve --help names the flag and the variable it reads.
func TestServeAgonesUsage(t *testing.T) {
	var stderr bytes.Buffer
	if code := Serve("test", []string{"--agones", "--play"}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "--agones") {
		t.Errorf("serve --agones --play: exit %d, %q", code, stderr.String())
	}
	var help bytes.Buffer
	Serve("test", []string{"--help"}, &help, io.Discard)
	if !strings.Contains(help.String(), "--agones") || !strings.Contains(help.String(), "AGONES_SDK_HTTP_PORT") {
		t.Errorf("serve --help:\n%s", help.String())
	}
}
