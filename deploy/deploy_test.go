package deploy

import (
	"bufio"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// staticBinary builds ttytanks as the Dockerfile does (CGO_ENABLED=0),
// once for the package's tests.
var staticBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "ttytanks-deploy-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "ttytanks")
	c := exec.Command("go", "build", "-trimpath", "-o", bin, "..")
	c.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := c.CombinedOutput(); err != nil {
		return "", &buildError{err, string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

func binary(t *testing.T) string {
	t.Helper()
	bin, err := staticBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bin, err := staticBinary(); err == nil {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

// unitKeys reads a unit file's Key=Value lines (the last of a repeated
// key).
func unitKeys(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			keys[k] = v
		}
	}
	return keys
}

// TestSystemdUnitVerifies: systemd-analyze verify finds nothing to say
// about the unit (its ExecStart pointed at a freshly built binary, as
// the unit's /usr/local/bin/ttytanks is not installed here).
func TestSystemdUnitVerifies(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Fatalf("systemd-analyze is not installed (Debian's systemd package has it): %v", err)
	}
	unit, err := os.ReadFile("ttytanks.service")
	if err != nil {
		t.Fatal(err)
	}
	const exec0 = "ExecStart=/usr/local/bin/ttytanks "
	if !strings.Contains(string(unit), "\n"+exec0) {
		t.Fatalf("the unit has no %q line", exec0)
	}
	copyPath := filepath.Join(t.TempDir(), "ttytanks.service")
	text := strings.Replace(string(unit), exec0, "ExecStart="+binary(t)+" ", 1)
	if err := os.WriteFile(copyPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(sa, "verify", copyPath).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) != 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestUnitStopsByDraining: the unit waits for serve's readiness
// notification, stops it with SIGTERM (the drain), and gives the drain
// its default time and a minute more before systemd kills.
func TestUnitStopsByDraining(t *testing.T) {
	k := unitKeys(t, "ttytanks.service")
	if k["Type"] != "notify" || k["KillSignal"] != "SIGTERM" {
		t.Errorf("Type=%q KillSignal=%q, want notify, SIGTERM", k["Type"], k["KillSignal"])
	}
	stop, err := time.ParseDuration(strings.ReplaceAll(k["TimeoutStopSec"], "min", "m"))
	if err != nil {
		t.Fatalf("TimeoutStopSec=%q: %v", k["TimeoutStopSec"], err)
	}
	if drain := 10 * time.Minute; stop < drain+time.Minute {
		t.Errorf("TimeoutStopSec %v does not cover the default drain of %v and a minute", stop, drain)
	}
	if !strings.Contains(k["ExecStart"], " serve --config /etc/ttytanks/serve.toml") {
		t.Errorf("ExecStart=%q does not serve the configuration file", k["ExecStart"])
	}
	for _, key := range []string{"NoNewPrivileges", "ProtectSystem", "DynamicUser", "PrivateTmp", "ProtectHome"} {
		if k[key] == "" || k[key] == "no" {
			t.Errorf("hardening %s=%q", key, k[key])
		}
	}
}

// TestStaticBuild: the binary the Dockerfile builds (CGO_ENABLED=0) is
// static: no interpreter and no shared library, so it runs on a base
// with no libc.
func TestStaticBuild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the image's binary is a Linux one; here the build itself has been checked")
	}
	f, err := elf.Open(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has an ELF interpreter: it is dynamically linked")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v", libs)
	}
}

// TestDockerfile: the image builds with the module's Go version and
// CGO_ENABLED=0, runs on a distroless static base as nonroot, stops with
// SIGTERM, runs serve, and the settings it gives in the environment are
// serve's: serve --print-config reads them back.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVer := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(string(mod))
	if goVer == nil || !strings.Contains(df, "FROM golang:"+goVer[1]+" AS build") {
		t.Errorf("the build stage is not golang:%v", goVer)
	}
	for _, want := range []string{"CGO_ENABLED=0 go build", "FROM gcr.io/distroless/static", "USER nonroot",
		"STOPSIGNAL SIGTERM", `ENTRYPOINT ["/usr/local/bin/ttytanks", "serve"]`, "EXPOSE 7777/udp"} {
		if !strings.Contains(df, want) {
			t.Errorf("the Dockerfile lacks %q", want)
		}
	}
	env := map[string]string{}
	for _, m := range regexp.MustCompile(`(TTYTANKS_[A-Z_]+|XDG_STATE_HOME)=(\S+)`).FindAllStringSubmatch(df, -1) {
		env[m[1]] = m[2]
	}
	if len(env) < 4 {
		t.Fatalf("the Dockerfile's environment %v", env)
	}
	c := exec.Command(binary(t), "serve", "--print-config")
	c.Env = []string{"HOME=" + t.TempDir()}
	for k, v := range env {
		c.Env = append(c.Env, k+"="+v)
	}
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("serve --print-config with the image's environment: %v\n%s", err, out)
	}
	for k, v := range env {
		if !strings.HasPrefix(k, "TTYTANKS_") {
			continue
		}
		key := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(k, "TTYTANKS_")), "_", "-")
		if !strings.Contains(string(out), "\n"+key+` = "`+v+`"`) {
			t.Errorf("%s=%s is not serve's %s:\n%s", k, v, key, out)
		}
	}
}
