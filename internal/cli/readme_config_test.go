package cli

import (
	"os"
	"regexp"
	"testing"
)

// TestREADMEConfigLoads: the annotated serve.toml in README.md's "Run it
// as a service" loads with serve's flags, passes their checks, and sets
// what it says.
func TestREADMEConfigLoads(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- example: serve.toml -->\n```toml\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("README.md has no serve.toml example")
	}
	fs, f := serveFlagSet(t, "--config", writeFile(t, string(m[1])))
	if err := f.svc.load(fs, envOf(nil)); err != nil {
		t.Fatalf("the README's serve.toml: %v", err)
	}
	if _, err := f.check(fs); err != nil {
		t.Fatalf("the README's serve.toml fails serve's checks: %v", err)
	}
	if f.server.rooms != 4 || f.ssh.addr != ":2222" || f.svc.admin != "127.0.0.1:9100" || f.svc.logFormat != "json" ||
		len(f.server.trust) != 1 || f.record.dir != "/var/lib/ttytanks/recordings" {
		t.Errorf("loaded rooms %d ssh %q admin %q log %q trust %v record %q", f.server.rooms, f.ssh.addr, f.svc.admin,
			f.svc.logFormat, f.server.trust, f.record.dir)
	}
}
