package sshterm

import (
	"os"
	"strings"
	"sync"

	"github.com/gdamore/tcell/v2/terminfo"
	// The extended terminfo set: every terminal tcell knows, looked up by
	// the client's TERM without running infocmp.
	_ "github.com/gdamore/tcell/v2/terminfo/extended"
)

// FallbackTerm is the terminal type used when the client's TERM is empty
// or unknown.
const FallbackTerm = "xterm-256color"

// lookupTerm finds the terminfo entry for the client's TERM in tcell's
// built-in set (never by running infocmp on a name a client chose), or
// FallbackTerm's.
//
// The entry is a copy of its own: tcell's entries are shared, and a
// screen made from one writes to it (XTermLike).
func lookupTerm(term string) (string, *terminfo.Terminfo) {
	if term != "" {
		if ti, err := lookupTerminfo(term); err == nil {
			return term, ti
		}
	}
	ti, err := lookupTerminfo(FallbackTerm)
	if err != nil {
		panic("sshterm: no terminfo for " + FallbackTerm) // linked in by the extended import
	}
	return FallbackTerm, ti
}

// terminfoMu serialises the lookups and copies of tcell's shared entries.
var terminfoMu sync.Mutex

func lookupTerminfo(term string) (*terminfo.Terminfo, error) {
	terminfoMu.Lock()
	defer terminfoMu.Unlock()
	ti, err := terminfo.LookupTerminfo(term)
	if err != nil {
		return nil, err
	}
	c := *ti
	return &c, nil
}

// envValue is key's value in env ("KEY=value" strings), or "".
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// localeUTF8 reports whether the locale in env (the server process's own
// when env is nil) says UTF-8, by the rule tcell applies to the process's
// environment when it picks the output encoding: LC_ALL, else LC_CTYPE,
// else LANG; "C" and "POSIX" are ASCII, a charset after the '.' counts,
// and no charset (or no locale at all) means UTF-8.
func localeUTF8(env []string) bool {
	get := envValue
	if env == nil {
		get = func(_ []string, key string) string { return os.Getenv(key) }
	}
	loc := get(env, "LC_ALL")
	if loc == "" {
		loc = get(env, "LC_CTYPE")
	}
	if loc == "" {
		loc = get(env, "LANG")
	}
	if loc == "C" || loc == "POSIX" {
		return false
	}
	loc, _, _ = strings.Cut(loc, "@")
	_, cs, ok := strings.Cut(loc, ".")
	if !ok {
		return true
	}
	cs = strings.ToLower(strings.ReplaceAll(cs, "-", ""))
	return cs == "utf8"
}
