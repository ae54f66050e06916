package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestDispatch(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"version"}, 0, "ttytanks " + version, ""},
		{[]string{"--version"}, 0, "ttytanks " + version, ""},
		{[]string{"help"}, 0, "Commands:", ""},
		{[]string{"--help"}, 0, "Commands:", ""},
		{nil, 2, "", "Usage:"},
		{[]string{"bogus"}, 2, "", `unknown command "bogus"`},
		{[]string{"version", "--bogus"}, 2, "", "unknown flag: --bogus"},
		{[]string{"version", "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{"help", "nope"}, 2, "", `unknown command "nope"`},
		{[]string{"help", "help"}, 0, "Commands:", ""},
		{[]string{"help", "serve"}, 0, "--players", ""},
		{[]string{"help", "serve", "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{"join", "--bogus"}, 2, "", "unknown flag: --bogus"},
		{[]string{"join", "not an address:x"}, 2, "", "is not a server address"},
		{[]string{"join", "localhost:99999"}, 2, "", "is not a server address"},
		{[]string{"join", "--name", ""}, 2, "", "has no printable characters"},
		{[]string{"join", "--name", "\x1b[2J\x07"}, 2, "", "has no printable characters"},
		{[]string{"join", "--fps", "0"}, 2, "", "--fps must be"},
		{[]string{"join", "--controls", "wiggle"}, 2, "", "--controls"},
		{[]string{"join", "--sim-loss", "150%"}, 2, "", "outside 0%..100%"},
		{[]string{"join", "--sim-loss", "5"}, 2, "", "a bare number is a fraction"},
		{[]string{"join", "--sim-loss", "NaN"}, 2, "", "is not a percentage"},
		{[]string{"join", "[::1"}, 2, "", "is not a server address"},
		{[]string{"join", "nosuchhost.invalid:7777", "--headless"}, 1, "", "cannot resolve"},
		{[]string{"serve", "--addr", "nonsense"}, 2, "", "is not a UDP address"},
		{[]string{"serve", "--addr", ":99999"}, 2, "", "is not a UDP address"},
		{[]string{"join", "--sim-latency"}, 2, "", "flag needs an argument"},
		{[]string{"serve", "--maze", "1x1"}, 2, "", "width and height must be odd"},
		{[]string{"serve", "--maze", "big"}, 2, "", "is not a size like 25x21"},
		{[]string{"serve", "--players", "9"}, 2, "", "--players must be 1..8"},
		{[]string{"serve", "--bots", "3"}, 2, "", "--bots must be"},
		{[]string{"serve", "--state-every", "0"}, 2, "", "--state-every must be"},
		{[]string{"play", "--bots", "0"}, 2, "", "--bots must be 1..7"},
		{[]string{"play", "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{"serve", "--help"}, 0, "--state-every", ""},
		{[]string{"join", "--help"}, 0, "--stats-json", ""},
		{[]string{"play", "--help"}, 0, "--bots", ""},
		{[]string{"play", "--help"}, 0, "--bot-level", ""},
		{[]string{"serve", "--help"}, 0, "--bot-level", ""},
		{[]string{"join", "--help"}, 0, "--bot-level", ""},
		{[]string{"play", "--bot-level", "expert"}, 2, "", `unknown bot level "expert" (want easy, normal or hard)`},
		{[]string{"serve", "--bot-level", "expert"}, 2, "", `unknown bot level "expert"`},
		{[]string{"join", "--bot-level", "easy"}, 2, "", "--bot-level needs --bot"},
		{[]string{"join", "--stats-json", "out.json"}, 2, "", "--stats-json and --duration need --headless"},
		{[]string{"join", "--duration", "5s"}, 2, "", "--stats-json and --duration need --headless"},
		{[]string{"serve", "--play", "--players", "2", "--bots", "2"}, 2, "", "--play takes a seat: with --players 2, --bots must be 0..1"},
		{[]string{"join", "--controls", "foo"}, 2, "", `--controls "foo" is not a control mode: use hold (move while keys repeat) or sticky`},
		{[]string{"serve", "--help"}, 0, "odd WxH from 9x7 to 63x31", ""},
		{[]string{"play", "--help"}, 0, "odd WxH from 9x7 to 63x31", ""},
		{[]string{"serve", "--ssh", ":0", "--ssh-fps", "61"}, 2, "", "--ssh-fps must be 10..60"},
		{[]string{"serve", "--ssh", ":0", "--ssh-fps", "9"}, 2, "", "--ssh-fps must be 10..60"},
		{[]string{"serve", "--ssh-fps", "20"}, 2, "", "--ssh-fps is for SSH play: give --ssh ADDR too"},
		{[]string{"serve", "--ssh-idle", "1m"}, 2, "", "--ssh-idle is for SSH play"},
		{[]string{"serve", "--ssh", ":0", "--ssh-max", "2305843009213693952"}, 2, "", "--ssh-max must be 1..100000"},
		{[]string{"serve", "--ssh", ":0", "--ssh-max", "0"}, 2, "", "--ssh-max must be 1..100000"},
		{[]string{"loadtest"}, 2, "", "give the server's address"},
		{[]string{"loadtest", "127.0.0.1:7777", "--clients", "0"}, 2, "", "--clients must be 1..20000"},
		{[]string{"loadtest", "127.0.0.1:7777", "--ramp", "0"}, 2, "", "--ramp must be a positive rate"},
		{[]string{"loadtest", "127.0.0.1:7777", "--duration", "0s"}, 2, "", "--duration must be positive"},
		{[]string{"loadtest", "127.0.0.1:7777", "--policy", "bot"}, 2, "", "--policy bot needs --predict"},
		{[]string{"loadtest", "127.0.0.1:7777", "--quick", "--room", "a"}, 2, "", "give --quick or --room, not both"},
		{[]string{"loadtest", "127.0.0.1:7777", "--size", "80x24"}, 2, "", "--size is the PTY of --ssh sessions"},
		{[]string{"loadtest", "--ssh", "127.0.0.1:2222", "--clients", "2001"}, 2, "", "with --ssh, --clients must be 1..2000"},
		{[]string{"loadtest", "--ssh", "127.0.0.1:2222", "--predict"}, 2, "", "--predict is for UDP clients, not with --ssh"},
		{[]string{"loadtest", "--ssh", "127.0.0.1:2222", "--room", "a"}, 2, "", "--room is for UDP clients"},
		{[]string{"loadtest", "--ssh", "127.0.0.1:2222", "--sim-loss", "5%"}, 2, "", "--sim-* flags are for UDP clients"},
		{[]string{"loadtest", "--ssh", "127.0.0.1:2222", "--size", "1x1"}, 2, "", "is not a terminal size like 80x24"},
		{[]string{"loadtest", "--ssh", "nonsense"}, 2, "", "is not an address like host:2222"},
		{[]string{"loadtest", "--ssh", "127.0.0.1:2222", "127.0.0.1:7777"}, 2, "", "with --ssh, give no other address"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := dispatch(c.args, &out, &errb)
		if strings.Contains(errb.String(), "goroutine ") || strings.Contains(errb.String(), "panic") {
			t.Errorf("dispatch(%q) printed a stack trace: %s", c.args, errb.String())
		}
		if strings.Contains(errb.String(), "tui:") {
			t.Errorf("dispatch(%q) speaks of a package, not of the flag: %s", c.args, errb.String())
		}
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(errb.String(), c.err) {
			t.Errorf("dispatch(%q) = %d, stdout %q, stderr %q; want %d, %q, %q",
				c.args, code, out.String(), errb.String(), c.code, c.out, c.err)
		}
	}
}
