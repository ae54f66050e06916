package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// serveFlagSet returns serve's flags parsed from args, and the flags.
func serveFlagSet(t *testing.T, args ...string) (*pflag.FlagSet, *serveFlags) {
	t.Helper()
	fs := newFlagSet("serve", "serve [flags]", io.Discard)
	var f serveFlags
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fs, &f
}

// writeFile writes a config file in a temp dir and returns its path.
func writeFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "serve.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// envOf returns a getenv over m.
func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestConfigPrecedence: a flag's value comes from the command line, else
// the environment, else the file, else its default; aliases count as one
// flag; lists, durations and percentages come through.
func TestConfigPrecedence(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  map[string]string
		args []string
		flag string
		want string
	}{
		{"default", "", nil, nil, "players", "2"},
		{"file", "players = 3", nil, nil, "players", "3"},
		{"env over file", "players = 3", map[string]string{"TTYTANKS_PLAYERS": "4"}, nil, "players", "4"},
		{"flag over env and file", "players = 3", map[string]string{"TTYTANKS_PLAYERS": "4"}, []string{"--players", "5"}, "players", "5"},
		{"env alone", "", map[string]string{"TTYTANKS_PLAYERS": "4"}, nil, "players", "4"},
		{"flag over file", "players = 3", nil, []string{"--players=6"}, "players", "6"},
		{"file for one flag, flag for another", "players = 3\nbots = 1", nil, []string{"--players=6"}, "bots", "1"},
		{"dashed name in env", "", map[string]string{"TTYTANKS_SIM_LATENCY": "60ms"}, nil, "sim-latency", "60ms"},
		{"duration", `start-wait = "2s"`, nil, nil, "start-wait", "2s"},
		{"percent", `sim-loss = "5%"`, nil, nil, "sim-loss", "5%"},
		{"maze", `maze = "31x21"`, nil, nil, "maze", "31x21"},
		{"bool", "play = true", nil, nil, "play", "true"},
		{"uint64", "sim-seed = 42", nil, nil, "sim-seed", "42"},
		{"list", `trust = ["10.0.0.0/8", "192.168.0.0/16"]`, nil, nil, "trust", "[10.0.0.0/8,192.168.0.0/16]"},
		{"empty list", `trust = []`, nil, nil, "trust", "[]"},
		{"list from env", `trust = ["10.0.0.0/8"]`, map[string]string{"TTYTANKS_TRUST": "1.2.3.0/24, 5.6.7.0/24"}, nil, "trust", "[1.2.3.0/24,5.6.7.0/24]"},
		{"alias on the command line", `key = "/from/file"`, nil, []string{"--ssh-host-key", "/from/flag"}, "key", "/from/flag"},
		{"alias in env", `key = "/from/file"`, map[string]string{"TTYTANKS_SSH_HOST_KEY": "/from/env"}, nil, "key", "/from/env"},
		{"new flags", "admin = \"127.0.0.1:9100\"\ndrain-timeout = \"90s\"\nlog-format = \"json\"", nil, nil, "drain-timeout", "1m30s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, f := serveFlagSet(t, tt.args...)
			if tt.file != "" {
				f.svc.config = writeFile(t, tt.file)
				fs.Lookup("config").Changed = true
			}
			if err := f.svc.load(fs, envOf(tt.env)); err != nil {
				t.Fatal(err)
			}
			if got := fs.Lookup(tt.flag).Value.String(); got != tt.want {
				t.Errorf("--%s = %q, want %q", tt.flag, got, tt.want)
			}
		})
	}
}

// TestConfigFromEnvironmentPath: TTYTANKS_CONFIG names the file when
// --config does not.
func TestConfigFromEnvironmentPath(t *testing.T) {
	fs, f := serveFlagSet(t)
	p := writeFile(t, "rooms = 3\nmax-rooms = 9")
	if err := f.svc.load(fs, envOf(map[string]string{"TTYTANKS_CONFIG": p})); err != nil {
		t.Fatal(err)
	}
	if f.server.rooms != 3 || f.server.maxRooms != 9 {
		t.Errorf("rooms %d of %d, want 3 of 9", f.server.rooms, f.server.maxRooms)
	}
}

// TestConfigRefuses: unknown keys, tables, wrong types, bad values and
// broken TOML are refused, naming the file and line (or the variable)
// and the key.
func TestConfigRefuses(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  map[string]string
		want string
	}{
		{"unknown key", "players = 3\n\nbogus = 1", nil, `serve.toml:3: unknown key "bogus"`},
		{"quoted unknown key", "players = 3\n'nope' = 1", nil, `serve.toml:2: unknown key "nope"`},
		{"dotted key", "ssh.idle = \"1m\"", nil, `serve.toml:1: unknown key "ssh.idle"`},
		{"a table", "players = 2\n[ssh]\nidle = \"1m\"", nil, `serve.toml:2: [ssh]: the file has no tables`},
		{"the config key itself", `config = "other.toml"`, nil, `serve.toml:1: unknown key "config"`},
		{"print-config", `print-config = true`, nil, `serve.toml:1: unknown key "print-config"`},
		{"string for an integer", "rooms = 1\nplayers = \"3\"", nil, `serve.toml:2: key "players": want an integer, got a string`},
		{"integer for a bool", "play = 1", nil, `serve.toml:1: key "play": want true or false, got an integer`},
		{"integer for a duration", "start-wait = 5", nil, `serve.toml:1: key "start-wait": want a string (like "5s"), got an integer`},
		{"string for a list", `trust = "10.0.0.0/8"`, nil, `serve.toml:1: key "trust": want an array of strings, got a string`},
		{"a number in a list", `trust = [1]`, nil, `serve.toml:1: key "trust": want an array of strings, got an item that is an integer`},
		{"a bad duration", `start-wait = "soon"`, nil, `serve.toml:1: key "start-wait": invalid argument "soon"`},
		{"a bad percent", "\n\nsim-loss = \"lots\"", nil, `serve.toml:3: key "sim-loss":`},
		{"a negative uint", "sim-seed = -1", nil, `serve.toml:1: key "sim-seed":`},
		{"broken TOML", "players = 3\nrooms = ", nil, "serve.toml:2:"},
		{"a bad variable", "", map[string]string{"TTYTANKS_PLAYERS": "many"}, `environment TTYTANKS_PLAYERS:`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, f := serveFlagSet(t)
			if tt.file != "" {
				f.svc.config = writeFile(t, tt.file)
				fs.Lookup("config").Changed = true
			}
			err := f.svc.load(fs, envOf(tt.env))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestPrintConfigRoundTrips: --print-config's output, read back with
// --config, gives the same settings and prints the same file; every
// configurable flag is in it once (an alias once, under its first name).
func TestPrintConfigRoundTrips(t *testing.T) {
	fs, f := serveFlagSet(t, "--players", "4", "--bots", "1", "--trust", "10.0.0.0/8", "--trust", "fd00::/8",
		"--sim-loss", "2.5%", "--start-wait", "1m30s", "--name", `odd "name" \ here`, "--record", "/var/lib/ttytanks/rec",
		"--admin", "127.0.0.1:9100", "--log-format", "json", "--maze", "31x21", "--bot-level", "hard", "--play")
	if err := f.svc.load(fs, envOf(nil)); err != nil {
		t.Fatal(err)
	}
	var first strings.Builder
	printConfig(&first, fs, configHeader, notConfigurable...)
	back, g := serveFlagSet(t, "--config", writeFile(t, first.String()))
	if err := g.svc.load(back, envOf(nil)); err != nil {
		t.Fatalf("reading --print-config's output back: %v\n%s", err, first.String())
	}
	var second strings.Builder
	printConfig(&second, back, configHeader, notConfigurable...)
	if first.String() != second.String() {
		t.Errorf("the round trip changed the file:\n%s\n---\n%s", first.String(), second.String())
	}
	if g.server.players != 4 || len(g.server.trust) != 2 || g.name != `odd "name" \ here` || !g.play || g.svc.logFormat != "json" {
		t.Errorf("read back players %d trust %v name %q play %v log %q", g.server.players, g.server.trust, g.name, g.play, g.svc.logFormat)
	}
	text := first.String()
	for _, f := range configKeys(fs, notConfigurable...) {
		n := strings.Count(text, "\n"+f.Name+" = ")
		if _, secret := f.Annotations[secretAnnotation]; secret {
			if n != 0 || !strings.Contains(text, "\n# "+f.Name+" = (secret: not printed)") {
				t.Errorf("the secret %q is printed, or not named", f.Name)
			}
		} else if want := 1; f.Name == "ssh-host-key" {
			if n != 0 {
				t.Errorf("the alias ssh-host-key is printed")
			}
		} else if n != want {
			t.Errorf("key %q printed %d times", f.Name, n)
		}
	}
	for _, n := range notConfigurable {
		if strings.Contains(text, "\n"+n+" = ") {
			t.Errorf("%q is printed", n)
		}
	}
}

// TestPrintConfigHidesSecrets: a flag marked secret is named in the
// printed file but its value is not.
func TestPrintConfigHidesSecrets(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("password", "", "the database's password")
	fs.String("host", "", "the database's host")
	if err := fs.SetAnnotation("password", secretAnnotation, []string{"true"}); err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse([]string{"--password", "hunter2", "--host", "db"}); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	printConfig(&b, fs, "")
	if strings.Contains(b.String(), "hunter2") || !strings.Contains(b.String(), "# password = (secret: not printed)") ||
		!strings.Contains(b.String(), `host = "db"`) {
		t.Errorf("printed:\n%s", b.String())
	}
}
