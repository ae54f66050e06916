//go:build unix

package known

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// testKey is a fixed Ed25519 public key, one for each i.
func testKey(i int) ed25519.PublicKey {
	seed := bytes.Repeat([]byte{byte(i)}, ed25519.SeedSize)
	return ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
}

// sshFingerprint is the fingerprint x/crypto/ssh prints for pub.
func sshFingerprint(t *testing.T, pub ed25519.PublicKey) string {
	t.Helper()
	k, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return gossh.FingerprintSHA256(k)
}

// sshLine is the line ssh would write for server and pub, without newline.
func sshLine(t *testing.T, server string, pub ed25519.PublicKey) string {
	t.Helper()
	k, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return server + " " + strings.TrimSuffix(string(gossh.MarshalAuthorizedKey(k)), "\n")
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func writeFile(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func TestFingerprintMatchesSSH(t *testing.T) {
	keys := []ed25519.PublicKey{testKey(0), testKey(1), testKey(0xff)}
	for range 5 {
		pub, _, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, pub)
	}
	for _, pub := range keys {
		got, want := Fingerprint(pub), sshFingerprint(t, pub)
		if got != want {
			t.Errorf("Fingerprint(%x) = %q, want %q (x/crypto/ssh)", pub, got, want)
		}
		if p, err := ParseFingerprint(got); err != nil || p != got {
			t.Errorf("ParseFingerprint(Fingerprint) = %q, %v", p, err)
		}
	}
}

func TestFirstUseAddsThenKnown(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "ttytanks")
	path := filepath.Join(dir, FileName)
	key := testKey(1)
	s := Open(path)
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open did IO: %v", err)
	}
	if v, err := s.Check("localhost:7777", key); v != Added || err != nil {
		t.Fatalf("first Check = %v, %v; want added", v, err)
	}
	want := sshLine(t, "localhost:7777", key) + "\n"
	if got := readFile(t, path); got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
	for p, mode := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != mode {
			t.Errorf("%s: mode %v, %v; want %#o", p, st.Mode().Perm(), err, mode)
		}
	}
	for _, st := range []*Store{s, Open(path)} {
		if v, err := st.Check("localhost:7777", key); v != Known || err != nil {
			t.Errorf("second Check = %v, %v; want known", v, err)
		}
	}
	if got := readFile(t, path); got != want {
		t.Errorf("after Known: file = %q, want it unchanged", got)
	}
	// x/crypto's known_hosts parser reads the line as ssh would.
	_, hosts, pub, _, _, err := gossh.ParseKnownHosts([]byte(want))
	if err != nil || len(hosts) != 1 || hosts[0] != "localhost:7777" || gossh.FingerprintSHA256(pub) != Fingerprint(key) {
		t.Errorf("ParseKnownHosts = %v, %v, %v", hosts, pub, err)
	}
}

// TestSSHKeygenListsFile: ssh-keygen -l reads the file and prints the
// fingerprints Fingerprint does.
func TestSSHKeygenListsFile(t *testing.T) {
	keygen, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("no ssh-keygen")
	}
	path := filepath.Join(t.TempDir(), FileName)
	s := Open(path)
	for i, server := range []string{"localhost:7777", "[::1]:7777"} {
		if _, err := s.Check(server, testKey(i)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(keygen, "-l", "-f", path).CombinedOutput()
	if err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	for i := range 2 {
		if !strings.Contains(string(out), Fingerprint(testKey(i))) {
			t.Errorf("ssh-keygen -l output lacks %s:\n%s", Fingerprint(testKey(i)), out)
		}
	}
}

func TestChangedKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	writeFile(t, path, "# my servers\n\n", 0o600)
	s := Open(path)
	if v, err := s.Check("tanks.example:7777", testKey(1)); v != Added || err != nil {
		t.Fatalf("Check = %v, %v", v, err)
	}
	before := readFile(t, path)
	v, err := s.Check("TANKS.example:7777", testKey(2))
	var ce *ChangedError
	if !errors.As(err, &ce) || v != 0 {
		t.Fatalf("changed key: %v, %v; want a *ChangedError", v, err)
	}
	old, offered := Fingerprint(testKey(1)), Fingerprint(testKey(2))
	want := ChangedError{Server: "tanks.example:7777", Path: path, Line: 3, Remembered: old, Offered: offered}
	if *ce != want {
		t.Errorf("ChangedError = %+v, want %+v", *ce, want)
	}
	msg := err.Error()
	for _, part := range []string{"tanks.example:7777", old, offered, path, "line 3", "delete line 3", "--server-key " + offered, "ttytanks serve"} {
		if !strings.Contains(msg, part) {
			t.Errorf("message lacks %q:\n%s", part, msg)
		}
	}
	if got := readFile(t, path); got != before {
		t.Errorf("a changed key changed the file: %q, want %q", got, before)
	}
}

func TestCheckPinned(t *testing.T) {
	dir := t.TempDir()

	path := filepath.Join(dir, "first")
	if err := Open(path).CheckPinned("pin.example:7777", testKey(1), Fingerprint(testKey(1))); err != nil {
		t.Fatalf("right pin, first use: %v", err)
	}
	if v, err := Open(path).Check("pin.example:7777", testKey(1)); v != Known || err != nil {
		t.Errorf("after pinning: Check = %v, %v; want known", v, err)
	}

	path = filepath.Join(dir, "wrong")
	err := Open(path).CheckPinned("pin.example:7777", testKey(1), Fingerprint(testKey(2)))
	var pe *PinError
	if !errors.As(err, &pe) || pe.Pinned != Fingerprint(testKey(2)) || pe.Offered != Fingerprint(testKey(1)) {
		t.Fatalf("wrong pin: %v; want a *PinError naming both fingerprints", err)
	}
	for _, part := range []string{"pin.example:7777", Fingerprint(testKey(1)), Fingerprint(testKey(2))} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("PinError message lacks %q:\n%s", part, err)
		}
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a wrong pin created the file: %v", err)
	}
	if err := Open(path).CheckPinned("pin.example:7777", testKey(1), "SHA256:short"); !errors.Is(err, ErrBadFingerprint) {
		t.Errorf("malformed pin: %v, want ErrBadFingerprint", err)
	}

	// A pin replaces the remembered key in place, and drops the server's
	// other lines; every other line stays as it was.
	path = filepath.Join(dir, "replace")
	writeFile(t, path, "# keep me\n"+
		sshLine(t, "other.example:1", testKey(3))+"\n"+
		sshLine(t, "game.example:7777", testKey(1))+" old key\n"+
		"garbage \x00 line\n"+
		sshLine(t, "GAME.example:07777", testKey(4)), 0o600)
	s := Open(path)
	if err := s.CheckPinned("game.example:7777", testKey(2), Fingerprint(testKey(2))); err != nil {
		t.Fatalf("pin over a remembered key: %v", err)
	}
	want := "# keep me\n" +
		sshLine(t, "other.example:1", testKey(3)) + "\n" +
		sshLine(t, "game.example:7777", testKey(2)) + "\n" +
		"garbage \x00 line\n"
	if got := readFile(t, path); got != want {
		t.Errorf("after the pin: file =\n%q\nwant\n%q", got, want)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("replaced file mode %v, %v; want 0600", st.Mode().Perm(), err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("files left in the directory: %v", ents)
	}
	if v, err := s.Check("game.example:7777", testKey(2)); v != Known || err != nil {
		t.Errorf("pinned key: Check = %v, %v; want known", v, err)
	}
	var ce *ChangedError
	if _, err := s.Check("game.example:7777", testKey(1)); !errors.As(err, &ce) || ce.Line != 3 {
		t.Errorf("old key after the pin: %v; want a *ChangedError at line 3", err)
	}
	if err := s.CheckPinned("game.example:7777", testKey(2), Fingerprint(testKey(2))); err != nil || readFile(t, path) != want {
		t.Errorf("pinning again: %v, or the file changed", err)
	}
}

func TestCanonicalServer(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"localhost:7777", "localhost:7777"},
		{"LOCALHOST:7777", "localhost:7777"},
		{"Tanks.Example.COM.:07777", "tanks.example.com:7777"},
		{"[localhost]:1", "localhost:1"},
		{"127.0.0.1:7777", "127.0.0.1:7777"},
		{"[::1]:7777", "[::1]:7777"},
		{"[0:0:0:0:0:0:0:1]:7777", "[::1]:7777"},
		{"[2001:DB8::A]:65535", "[2001:db8::a]:65535"},
		{"[::ffff:10.0.0.1]:7777", "10.0.0.1:7777"},
		{"[fe80::1%eth0]:7777", "[fe80::1%eth0]:7777"},
		{"xn--bcher-kva.example:7777", "xn--bcher-kva.example:7777"},
		{strings.Repeat("a", 63) + ".b:1", strings.Repeat("a", 63) + ".b:1"},
	} {
		if got, err := CanonicalServer(tc.in); got != tc.want || err != nil {
			t.Errorf("CanonicalServer(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{
		"", "localhost", "localhost:", ":7777", "::1:7777", "localhost:0", "localhost:65536",
		"localhost:http", "localhost:-1", "local host:1", "ho#st:1", "a,b:1", "bücher.example:1",
		"x\x00y:1", "x\ny:1", ".:1", "[fe80::1%a b]:1", "[fe80::1%" + strings.Repeat("e", 65) + "]:1",
		strings.Repeat("a", 254) + ":1", strings.Repeat("a", 5000) + ":1",
		"......:1", "a..b:1", ".a:1", "a..:1", strings.Repeat("a", 64) + ".b:1",
	} {
		if got, err := CanonicalServer(in); !errors.Is(err, ErrBadServer) {
			t.Errorf("CanonicalServer(%q) = %q, %v; want ErrBadServer", in, got, err)
		}
	}

	s := Open(filepath.Join(t.TempDir(), FileName))
	for _, tc := range []struct {
		server string
		want   Verdict
	}{
		{"LOCALHOST:7777", Added}, {"localhost:7777", Known}, {"localhost.:07777", Known},
		{"[::1]:7777", Added}, {"[0::1]:7777", Known}, {"localhost:7778", Added},
	} {
		if v, err := s.Check(tc.server, testKey(1)); v != tc.want || err != nil {
			t.Errorf("Check(%q) = %v, %v; want %v", tc.server, v, err, tc.want)
		}
	}
}

func TestCommentsAndGarbageSkipped(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	good := sshLine(t, "tanks.example:7777", testKey(1))
	lines := []string{
		"# comment",                              // 1
		"",                                       // 2
		"   \t",                                  // 3
		"\x00\x01\x02 garbage \x1b[2J",           // 4 skipped
		"tanks.example ssh-ed25519 AAAA",         // 5 skipped: no port
		sshLine(t, "tanks.example", testKey(2)),  // 6 skipped: no port
		"tanks.example:7777 ssh-rsa AAAAB3NzaC1", // 7 skipped: type
		"tanks.example:7777 ssh-ed25519 !!!!",    // 8 skipped: base64
		"tanks.example:7777 ssh-ed25519 " + strings.Repeat("A", 5000), // 9 skipped: long
		"tanks.example:7777",                   // 10 skipped: one field
		"  " + good + "\t comment \x00 here\r", // 11 the key, indented, with a comment and CRLF
		"@revoked " + good,                     // 12 skipped: markers are not supported
	}
	writeFile(t, path, strings.Join(lines, "\n"), 0o600) // no final newline
	s := Open(path)
	if v, err := s.Check("tanks.example:7777", testKey(1)); v != Known || err != nil {
		t.Fatalf("Check = %v, %v; want known past the garbage", v, err)
	}
	if n, first := s.Skipped(); n != 8 || first != 4 {
		t.Errorf("Skipped = %d from line %d; want 8 from line 4", n, first)
	}
	// A line added to a file without a final newline starts a line.
	if v, err := s.Check("new.example:1", testKey(3)); v != Added || err != nil {
		t.Fatalf("Check new = %v, %v", v, err)
	}
	if v, err := Open(path).Check("new.example:1", testKey(3)); v != Known || err != nil {
		t.Errorf("Check new again = %v, %v; want known", v, err)
	}
	if got, want := readFile(t, path), strings.Join(lines, "\n")+"\n"+sshLine(t, "new.example:1", testKey(3))+"\n"; got != want {
		t.Errorf("after adding: file =\n%q\nwant\n%q", got, want)
	}
}

// TestConcurrentChecks: clients that start at once, each with its own
// Store as separate processes would have, all get their line in, each
// once.
func TestConcurrentChecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dir", FileName)
	// Each client dawdles between reading the file and writing it, as a
	// slow disk or a descheduled process might: without the lock, the
	// clients of the same server would all read no line and all add one.
	testHookLoaded = func() { time.Sleep(2 * time.Millisecond) }
	defer func() { testHookLoaded = nil }()
	const n = 20
	start := make(chan struct{})
	var wg sync.WaitGroup
	verdicts := make([]Verdict, 2*n)
	errs := make([]error, 2*n)
	for i := range 2 * n {
		wg.Go(func() {
			<-start
			server, key := fmt.Sprintf("host%d.example:7777", i), testKey(i)
			if i >= n { // the other half all meet the same server
				server, key = "same.example:7777", testKey(99)
			}
			verdicts[i], errs[i] = Open(path).Check(server, key)
		})
	}
	close(start)
	wg.Wait()
	added := 0
	for i := range 2 * n {
		if errs[i] != nil {
			t.Errorf("client %d: %v", i, errs[i])
		}
		if i >= n && verdicts[i] == Added {
			added++
		}
	}
	count := map[string]int{}
	eachLine([]byte(readFile(t, path)), func(num int, line []byte) {
		e, ok, err := parseLine(string(line))
		if !ok || err != nil {
			t.Errorf("line %d %q: %v", num, line, err)
		}
		count[e.server]++
	})
	for i := range n {
		if c := count[fmt.Sprintf("host%d.example:7777", i)]; c != 1 {
			t.Errorf("host%d is in the file %d times, want once", i, c)
		}
	}
	if count["same.example:7777"] != 1 || added != 1 {
		t.Errorf("same.example: %d lines, %d Added; want 1 and 1", count["same.example:7777"], added)
	}
	if len(count) != n+1 {
		t.Errorf("%d servers in the file, want %d", len(count), n+1)
	}
}

func TestUnsafeFileRefused(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if _, err := Open(good).Check("a.example:1", testKey(1)); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{"0666": 0o666, "0620": 0o620, "0602": 0o602} {
		writeFile(t, filepath.Join(dir, name), readFile(t, good), mode)
	}
	for _, tc := range []struct{ name, why string }{
		{"link", "symbolic link"}, {"dangling", "symbolic link"}, {"fifo", "not a regular file"},
		{"0666", "chmod go-w"}, {"0620", "chmod go-w"}, {"0602", "chmod go-w"},
	} {
		p := filepath.Join(dir, tc.name)
		v, err := Open(p).Check("a.example:1", testKey(1))
		if !errors.Is(err, ErrUnsafeFile) || !strings.Contains(err.Error(), tc.why) || v != 0 {
			t.Errorf("%s: Check = %v, %v; want ErrUnsafeFile (%s)", tc.name, v, err, tc.why)
		}
		if err := Open(p).CheckPinned("a.example:1", testKey(1), Fingerprint(testKey(1))); !errors.Is(err, ErrUnsafeFile) {
			t.Errorf("%s: CheckPinned = %v; want ErrUnsafeFile", tc.name, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a dangling symlink was followed: %v", err)
	}
	// Readable by all is fine: the file holds public keys.
	writeFile(t, filepath.Join(dir, "0644"), readFile(t, good), 0o644)
	if v, err := Open(filepath.Join(dir, "0644")).Check("a.example:1", testKey(1)); v != Known || err != nil {
		t.Errorf("0644: Check = %v, %v; want known", v, err)
	}
}

func TestTooLargeRefused(t *testing.T) {
	dir := t.TempDir()
	// 10 MB of hostile bytes: NULs, control bytes, no newline at all.
	huge := make([]byte, 10<<20)
	if _, err := rand.Read(huge); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "huge")
	writeFile(t, path, string(huge), 0o600)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v, err := Open(path).Check("a.example:1", testKey(1))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) || v != 0 || !strings.Contains(err.Error(), "1 MiB") || !strings.Contains(err.Error(), path) {
		t.Errorf("10 MB file: Check = %v, %v; want ErrTooLarge naming the file and the 1 MiB limit", v, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2<<20 {
		t.Errorf("refusing a 10 MB file allocated %d bytes", alloc)
	}

	// Just under the limit: read (its one huge line skipped), but a new
	// line would take it over.
	path = filepath.Join(dir, "full")
	full := string(huge[:MaxFileSize-10])
	writeFile(t, path, full, 0o600)
	s := Open(path)
	if v, err := s.Check("a.example:1", testKey(1)); !errors.Is(err, ErrTooLarge) || v != 0 {
		t.Errorf("full file: Check = %v, %v; want ErrTooLarge", v, err)
	}
	if n, _ := s.Skipped(); n == 0 {
		t.Errorf("full file: nothing skipped")
	}
	if readFile(t, path) != full {
		t.Errorf("full file changed")
	}
}

func TestBadArgumentsDoNoIO(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := Open(path)
	if _, err := s.Check("localhost:7777", testKey(1)[:31]); !errors.Is(err, ErrBadKey) {
		t.Errorf("31-byte key: %v, want ErrBadKey", err)
	}
	if _, err := s.Check("localhost", testKey(1)); !errors.Is(err, ErrBadServer) {
		t.Errorf("no port: %v, want ErrBadServer", err)
	}
	if err := s.CheckPinned("localhost:7777", nil, Fingerprint(nil)); !errors.Is(err, ErrBadKey) {
		t.Errorf("nil key pinned: %v, want ErrBadKey", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("bad arguments created the file: %v", err)
	}
}

func TestParseFingerprint(t *testing.T) {
	good := Fingerprint(testKey(1))
	if got, err := ParseFingerprint(good); got != good || err != nil {
		t.Errorf("ParseFingerprint(%q) = %q, %v", good, got, err)
	}
	for _, tc := range []struct{ in, why string }{
		{"", "empty"},
		{"MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48", "MD5"},
		{"16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48", "MD5"},
		{"sha256:" + good[7:], "want SHA256:"},
		{good[7:], "want SHA256:"},
		{" " + good, "want SHA256:"},
		{good + " ", "44 characters"},
		{good + "=", "drop the trailing '='"},
		{good[:len(good)-1], "42 characters"},
		{good + "A", "44 characters"},
		{"SHA256:" + strings.Repeat("A", 42) + "!", "not base64"},
		{"SHA256:" + strings.Repeat("A", 42) + "B", "not base64"}, // stray low bits
		{"SHA256:" + strings.Repeat("-", 43), "not base64"},       // URL alphabet
	} {
		got, err := ParseFingerprint(tc.in)
		if !errors.Is(err, ErrBadFingerprint) || got != "" || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("ParseFingerprint(%q) = %q, %v; want ErrBadFingerprint saying %q", tc.in, got, err, tc.why)
		}
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/srv/state")
	if p, err := DefaultPath(); err != nil || p != "/srv/state/ttytanks/known_servers" {
		t.Errorf("with XDG_STATE_HOME: %q, %v", p, err)
	}
	t.Setenv("XDG_STATE_HOME", "relative/ignored")
	t.Setenv("HOME", "/home/tank")
	if p, err := DefaultPath(); err != nil || p != "/home/tank/.local/state/ttytanks/known_servers" {
		t.Errorf("without XDG_STATE_HOME: %q, %v", p, err)
	}
}

func TestVerdictString(t *testing.T) {
	if Known.String() != "known" || Added.String() != "added" || Verdict(0).String() != "Verdict(0)" {
		t.Errorf("Verdict strings: %v %v %v", Known, Added, Verdict(0))
	}
}

// FuzzParseLine: no line panics; a line that parses formats to a single
// clean line that parses back to the same server and key, and formats the
// same again.
func FuzzParseLine(f *testing.F) {
	key := base64Key(testKey(1))
	for _, seed := range []string{
		"localhost:7777 ssh-ed25519 " + key,
		"  [::1]:7777\tssh-ed25519 " + key + " a comment\r",
		"LOCALHOST:07777 ssh-ed25519 " + key,
		"[fe80::1%eth0]:1 ssh-ed25519 " + key,
		"# comment",
		"",
		"host:1 ssh-rsa AAAAB3NzaC1yc2E=",
		"host ssh-ed25519 " + key,
		"host:1 ssh-ed25519 " + key[:len(key)-4],
		"\x00\xff ssh-ed25519",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e, ok, err := parseLine(line)
		if ok != (err == nil && e.server != "") || ok && err != nil {
			t.Fatalf("parseLine(%q) = %+v, %v, %v: inconsistent", line, e, ok, err)
		}
		if !ok {
			return
		}
		if len(e.key) != ed25519.PublicKeySize {
			t.Fatalf("parseLine(%q): %d-byte key", line, len(e.key))
		}
		if c, err := CanonicalServer(e.server); c != e.server || err != nil {
			t.Fatalf("parseLine(%q): server %q not canonical (%q, %v)", line, e.server, c, err)
		}
		out := formatLine(e)
		for i := 0; i < len(out); i++ {
			if out[i] <= ' ' && out[i] != ' ' || out[i] >= 0x7f || out[i] == '#' {
				t.Fatalf("formatLine = %q: byte %#x", out, out[i])
			}
		}
		e2, ok2, err2 := parseLine(out)
		if !ok2 || err2 != nil || e2.server != e.server || !e2.key.Equal(e.key) {
			t.Fatalf("round trip of %q: %q gave %+v, %v, %v", line, out, e2, ok2, err2)
		}
		if out2 := formatLine(e2); out2 != out {
			t.Fatalf("format not stable: %q then %q", out, out2)
		}
	})
}

// base64Key is the base64 field of pub's line.
func base64Key(pub ed25519.PublicKey) string {
	line := formatLine(entry{server: "x:1", key: pub})
	return line[strings.LastIndexByte(line, ' ')+1:]
}
