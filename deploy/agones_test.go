package deploy

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"ttytanks/internal/agones"
)

// The Agones manifests are checked as text: the module has no YAML
// parser, and Kubernetes does not run on the test machines.

// manifest reads a file of deploy/agones, and fails the test on a tab or
// an indentation that is not a multiple of two spaces (YAML's traps).
func manifest(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("agones/" + name)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if strings.Contains(line, "\t") || indent%2 != 0 {
			t.Errorf("%s:%d: a tab or an odd indentation: %q", name, i+1, line)
		}
	}
	return string(b)
}

// block returns the lines indented under the first line that is exactly
// head, dedented by head's indentation and two, with comments and blank
// lines left out.
func block(t *testing.T, text, head string) []string {
	t.Helper()
	lines := strings.Split(text, "\n")
	indent := len(head) - len(strings.TrimLeft(head, " "))
	var out []string
	in := false
	for _, line := range lines {
		if !in {
			in = line == head
			continue
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if len(line)-len(strings.TrimLeft(line, " ")) <= indent {
			break
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		out = append(out, strings.TrimRight(line[indent+2:], " "))
	}
	if !in {
		t.Fatalf("no line %q", head)
	}
	return out
}

// number returns the integer after "key: " in lines (the first).
func number(t *testing.T, lines []string, key string) int {
	t.Helper()
	for _, l := range lines {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), key+": "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("%s: %q", key, v)
			}
			return n
		}
	}
	t.Fatalf("no %s", key)
	return 0
}

// TestAgonesGameServer: the GameServer runs serve --agones with flags
// serve has (serve --print-config takes them), on UDP 7777; it declares
// the Counter and the List serve keeps, with capacities that fit its
// flags; its health period holds two of serve's pings, and its grace
// period covers the drain.
func TestAgonesGameServer(t *testing.T) {
	text := manifest(t, "gameserver.yaml")
	for _, want := range []string{"apiVersion: agones.dev/v1\n", "kind: GameServer\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q", want)
		}
	}
	spec := block(t, text, "spec:")
	checkSpec(t, spec)
}

// checkSpec checks a GameServer's spec (GameServer.spec, or a Fleet's
// template.spec).
func checkSpec(t *testing.T, spec []string) {
	t.Helper()
	joined := strings.Join(spec, "\n") + "\n"
	for _, want := range []string{"container: ttytanks\n", "  - name: game\n    portPolicy: Dynamic\n    containerPort: 7777\n    protocol: UDP\n",
		"counters:\n  rooms:\n", "lists:\n  players:\n", "health:\n  disabled: false\n"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the spec has no %q:\n%s", want, joined)
		}
	}
	m := regexp.MustCompile(`(?m)^\s*args: (\[.*\])$`).FindStringSubmatch(joined)
	if m == nil {
		t.Fatal("no args: [...] line")
	}
	var args []string
	if err := json.Unmarshal([]byte(m[1]), &args); err != nil {
		t.Fatalf("args %s: %v", m[1], err)
	}
	if len(args) == 0 || args[0] != "--agones" {
		t.Errorf("args %q do not start with --agones", args)
	}
	c := exec.Command(binary(t), append(append([]string{"serve"}, args...), "--print-config")...)
	c.Env = []string{"HOME=" + t.TempDir()}
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("serve %s --print-config: %v\n%s", strings.Join(args, " "), err, out)
	}
	setting := func(key string) int {
		m := regexp.MustCompile(`(?m)^` + key + ` = (\d+)$`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("--print-config has no %s", key)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	if !strings.Contains(string(out), "\nagones = true\n") || !strings.Contains(string(out), "\naddr = \":7777\"\n") {
		t.Errorf("serve does not take --agones on :7777:\n%s", out)
	}
	rooms := block(t, joined, "counters:")
	players := block(t, joined, "lists:")
	if got, want := number(t, rooms, "capacity"), setting("max-rooms"); got != want {
		t.Errorf("the rooms Counter's capacity %d, --max-rooms %d", got, want)
	}
	if got, want := number(t, players, "capacity"), min(setting("max-rooms")*setting("players"), agones.MaxListCapacity); got != want {
		t.Errorf("the players List's capacity %d, want --max-rooms x --players = %d", got, want)
	}
	health := block(t, joined, "health:")
	if period := time.Duration(number(t, health, "periodSeconds")) * time.Second; period < 2*agones.DefaultHealthEvery {
		t.Errorf("periodSeconds %v holds fewer than two pings %v apart", period, agones.DefaultHealthEvery)
	}
	drain := regexp.MustCompile(`(?m)^drain-timeout = "(\S+)"$`).FindSubmatch(out)
	d, err := time.ParseDuration(string(drain[1]))
	if err != nil {
		t.Fatal(err)
	}
	if grace := time.Duration(number(t, spec, "terminationGracePeriodSeconds")) * time.Second; grace < d+time.Minute {
		t.Errorf("terminationGracePeriodSeconds %v does not cover the drain of %v and a minute", grace, d)
	}
}

// TestAgonesFleet: the Fleet rolls out its GameServers a part at a
// time, and its template's spec is the GameServer's, line for line.
func TestAgonesFleet(t *testing.T) {
	text := manifest(t, "fleet.yaml")
	for _, want := range []string{"apiVersion: agones.dev/v1\n", "kind: Fleet\n", "  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q", want)
		}
	}
	spec := block(t, text, "    spec:")
	checkSpec(t, spec)
	gs := block(t, manifest(t, "gameserver.yaml"), "spec:")
	if strings.Join(spec, "\n") != strings.Join(gs, "\n") {
		t.Errorf("the Fleet's GameServer spec differs from gameserver.yaml's:\n%s\n---\n%s", strings.Join(spec, "\n"), strings.Join(gs, "\n"))
	}
}
