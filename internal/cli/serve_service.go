package cli

import (
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// serviceFlags are serve's flags for running it as a service: its
// configuration file, the admin listener, the drain on SIGTERM and the
// log's format.
type serviceFlags struct {
	config       string
	printConfig  bool
	admin        string
	drainTimeout time.Duration
	logFormat    string
}

// defaultDrainTimeout is how long a drain may last by default.
const defaultDrainTimeout = 10 * time.Minute

// The flags that are about the configuration itself: neither a file nor
// the environment sets them.
var notConfigurable = []string{"config", "print-config"}

func (f *serviceFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "read the settings from this TOML file: each key is a flag's name (players = 4); the environment (TTYTANKS_PLAYERS=4) overrides it, and the command line both (default $TTYTANKS_CONFIG)")
	fs.BoolVar(&f.printConfig, "print-config", false, "print the settings in effect (file, environment and flags together) as a TOML file for --config, and exit")
	fs.StringVar(&f.admin, "admin", "", "serve Prometheus /metrics, /livez and /readyz over HTTP on this address, e.g. 127.0.0.1:9100 (off by default; keep it off the public internet)")
	fs.DurationVar(&f.drainTimeout, "drain-timeout", defaultDrainTimeout, "on SIGTERM, drain: take nobody new, let the running matches end, exit when they have or after this long (0: SIGTERM stops at once, like SIGINT)")
	fs.StringVar(&f.logFormat, "log-format", "text", "the log's format: text (key=value) or json (one object a line)")
}

// load applies the configuration file (--config, or $TTYTANKS_CONFIG)
// and the environment to the flags the command line left alone.
func (f *serviceFlags) load(fs *pflag.FlagSet, getenv func(string) string) error {
	if !fs.Changed("config") {
		f.config = getenv(envName("config"))
	}
	return applyConfig(fs, f.config, getenv, notConfigurable...)
}

func (f *serviceFlags) check() error {
	if f.admin != "" {
		if _, _, err := net.SplitHostPort(f.admin); err != nil {
			return fmt.Errorf("--admin %q is not a TCP address like 127.0.0.1:9100", f.admin)
		}
	}
	if f.drainTimeout < 0 {
		return fmt.Errorf("--drain-timeout must not be negative")
	}
	if f.logFormat != "text" && f.logFormat != "json" {
		return fmt.Errorf("--log-format must be text or json")
	}
	return nil
}

// configHeader opens serve --print-config's output.
const configHeader = `# ttytanks serve: the settings in effect, for serve --config FILE.
# Each key is a flag of 'ttytanks serve' (see --help); TTYTANKS_<KEY> in the
# environment overrides the file (TTYTANKS_SIM_LATENCY=60ms), and a flag on
# the command line overrides both.
`

// writeConfig prints serve's settings in effect (--print-config).
func writeConfig(fs *pflag.FlagSet) {
	var b strings.Builder
	printConfig(&b, fs, configHeader, notConfigurable...)
	os.Stdout.WriteString(b.String())
}
