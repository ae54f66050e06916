package tests

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildDir  string
)

// binary builds the ttytanks binary once per test run and returns its path.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "ttytanks-e2e-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "ttytanks")
		out, err := exec.Command("go", "build", "-o", binPath, "..").CombinedOutput()
		if err != nil {
			buildErr = &buildError{err: err, out: string(out)}
		}
	})
	if buildErr != nil {
		t.Fatalf("building ttytanks: %v", buildErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// TestMain gives the run its own state directory: every serve the tests
// start makes its key there, and every join remembers server keys there,
// never in the user's ~/.local/state. A test that studies the key files
// sets XDG_STATE_HOME of its own on its commands.
// waitersRunBeside lets four tests marked t.Parallel run at once, not
// GOMAXPROCS: they are the ones that spend their minute waiting on the
// wall clock for a real process's schedule (a freeze, a match's rounds, a
// drain), not working. A -parallel given on the command line stands.
func waitersRunBeside() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
}

func TestMain(m *testing.M) {
	if os.Getenv(hammerEnv) != "" { // the test binary as a hostile SSH client (sshcpu_test.go)
		os.Exit(runHammer())
	}
	state, err := os.MkdirTemp("", "ttytanks-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", state)
	// A ladder holds names across matches and runs: in one database
	// shared by every serve of the run, one test's players would hold
	// another's names. So serve keeps none here (TTYTANKS_LADDER, as a
	// service's environment would say it), and the tests of the ladder
	// (ladder_test.go) turn it on, each with a database of its own.
	os.Setenv("TTYTANKS_LADDER", "false")
	waitersRunBeside()
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.RemoveAll(state)
	os.Exit(code)
}
