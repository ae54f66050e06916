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
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := dispatch(c.args, &out, &errb)
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(errb.String(), c.err) {
			t.Errorf("dispatch(%q) = %d, stdout %q, stderr %q; want %d, %q, %q",
				c.args, code, out.String(), errb.String(), c.code, c.out, c.err)
		}
	}
}
