package proto

import (
	"bufio"
	"bytes"
	"crypto/ecdh"
	"crypto/ed25519"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/netip"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"ttytanks/game"
)

// docExample is one worked example from PROTOCOL.md.
type docExample struct {
	name string // the packet type named by the marker
	line int    // of the marker, for messages
	data []byte
}

var exampleMarker = regexp.MustCompile(`^<!-- example: (\w+) -->$`)

// sealedMarker opens a sealed example (§3.2), which TestDocSealedExamples
// reads; readDocExamples skips it.
var sealedMarker = regexp.MustCompile(`^<!-- sealed example: (\w+) -->$`)

// readDocExamples returns the examples of PROTOCOL.md: a marker line
// "<!-- example: Type -->" directly followed by a ```hex fenced block whose
// lines hold hex digits, spaces and "#" comments.
func readDocExamples(t *testing.T) []docExample {
	t.Helper()
	f, err := os.Open("../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docExample
	sc := bufio.NewScanner(f)
	n := 0
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		n++
		return sc.Text(), true
	}
	for {
		line, ok := next()
		if !ok {
			break
		}
		m := exampleMarker.FindStringSubmatch(line)
		if m == nil {
			if strings.Contains(line, "example:") && !sealedMarker.MatchString(line) {
				t.Errorf("PROTOCOL.md:%d: malformed example marker %q", n, line)
			}
			continue
		}
		ex := docExample{name: m[1], line: n}
		if fence, _ := next(); fence != "```hex" {
			t.Fatalf("PROTOCOL.md:%d: example marker not followed by a ```hex block", ex.line)
		}
		var digits strings.Builder
		for {
			l, ok := next()
			if !ok {
				t.Fatalf("PROTOCOL.md:%d: unterminated hex block", ex.line)
			}
			if l == "```" {
				break
			}
			if i := strings.IndexByte(l, '#'); i >= 0 {
				l = l[:i]
			}
			digits.WriteString(strings.Join(strings.Fields(l), ""))
		}
		ex.data, err = hex.DecodeString(digits.String())
		if err != nil {
			t.Fatalf("PROTOCOL.md:%d: bad hex in the %s example: %v", ex.line, ex.name, err)
		}
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestProtocolDocExamples decodes every worked example of PROTOCOL.md with
// the parser of the packet type its marker names, re-encodes it, and
// requires the same bytes. Every packet type must have exactly one
// example.
func TestProtocolDocExamples(t *testing.T) {
	examples := readDocExamples(t)
	cases := map[string]codecCase{}
	for _, c := range codecCases() {
		cases[c.name] = c
	}
	seen := map[string]bool{}
	for _, ex := range examples {
		c, ok := cases[ex.name]
		if !ok {
			t.Errorf("PROTOCOL.md:%d: example of unknown packet type %q", ex.line, ex.name)
			continue
		}
		if seen[ex.name] {
			t.Errorf("PROTOCOL.md:%d: a second example of %s", ex.line, ex.name)
		}
		seen[ex.name] = true
		h, err := ParseHeader(ex.data)
		if err != nil {
			t.Errorf("PROTOCOL.md:%d: %s example: header: %v", ex.line, ex.name, err)
			continue
		}
		if h.Type.String() != strings.TrimSuffix(ex.name, "Delta") { // StateDelta is a State
			t.Errorf("PROTOCOL.md:%d: the %s example has type %v", ex.line, ex.name, h.Type)
		}
		p, err := c.parse(ex.data)
		if err != nil {
			t.Errorf("PROTOCOL.md:%d: %s example does not parse: %v", ex.line, ex.name, err)
			continue
		}
		if again := p.Append(nil); !bytes.Equal(again, ex.data) {
			t.Errorf("PROTOCOL.md:%d: %s example re-encodes differently:\n got %x\nwant %x", ex.line, ex.name, again, ex.data)
		}
		if p.Len() != len(ex.data) {
			t.Errorf("PROTOCOL.md:%d: %s example is %d bytes, Len() = %d", ex.line, ex.name, len(ex.data), p.Len())
		}
		checkDocExample(t, ex, p)
	}
	for name := range cases {
		if !seen[name] {
			t.Errorf("PROTOCOL.md has no example of %s", name)
		}
	}
}

// checkDocExample checks what the document claims about particular
// examples beyond their syntax.
func checkDocExample(t *testing.T, ex docExample, p packet) {
	switch p := p.(type) {
	case *Challenge:
		// "secret = the 32 bytes 00 01 02 … 1f, address 192.0.2.7:40000, the header's session,
		// issued at 2026-03-01T12:00:00.123Z"
		secret := make([]byte, 32)
		for i := range secret {
			secret[i] = byte(i)
		}
		issued := time.Date(2026, 3, 1, 12, 0, 0, 123e6, time.UTC)
		addr := netip.MustParseAddrPort("192.0.2.7:40000")
		j := NewCookieJar(secret)
		if err := j.Verify(p.Cookie, addr, p.Session, issued.Add(time.Second)); err != nil {
			t.Errorf("PROTOCOL.md:%d: the Challenge example's cookie does not verify: %v", ex.line, err)
		}
		if got := j.Issue(addr, p.Session, issued); got != p.Cookie {
			t.Errorf("PROTOCOL.md:%d: the Challenge example's cookie is %x, Issue gives %x", ex.line, p.Cookie, got)
		}
	case *State:
		if !p.Delta() {
			if got := game.Hash(&p.Snapshot); got != p.Hash {
				t.Errorf("PROTOCOL.md:%d: the State example's hash is %#x, game.Hash of its snapshot is %#x", ex.line, p.Hash, got)
			}
			return
		}
		// "a client that holds the State of the example above (tick 1002)
		// steps its snapshot with these inputs and checks the hash"
		base := docState()
		if p.Base() != base.Snapshot.Tick {
			t.Errorf("PROTOCOL.md:%d: the StateDelta example's baseline is tick %d, the State example's tick %d", ex.line, p.Base(), base.Snapshot.Tick)
			return
		}
		w := docWorld(&base.Snapshot)
		for k := 0; k < int(p.Back); k++ {
			w.Step(p.StepInputs(k))
		}
		if got := w.Hash(); got != p.Hash || w.Tick() != p.Snapshot.Tick {
			t.Errorf("PROTOCOL.md:%d: the StateDelta example rebuilds tick %d with hash %#x; its tick is %d, its hash %#x",
				ex.line, w.Tick(), got, p.Snapshot.Tick, p.Hash)
		}
	}
}

// The handshake vector of PROTOCOL.md §4.12 and the sealed examples of
// §3.2 are blocks of named hex values: each line a name, two or more
// spaces, then hex digits (spaces between them are ignored) and maybe a
// "# comment"; a line that starts with a space continues the value
// above. A sealed example's values are followed by a ```hex block: the
// sealed datagram.

// docValues is one block of named values.
type docValues struct {
	line  int // of the block's first line, for messages
	vals  map[string][]byte
	order []string
}

var docValueLine = regexp.MustCompile(`^(\S+(?: \S+)*) {2,}(\S.*)$`)

// docLines returns the lines of PROTOCOL.md.
func docLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

// fencedBlock returns the body of the fenced block that opens, with
// "```"+info, on the first non-blank line at or after lines[i]: its lines,
// the index of the first of them, and the index after the closing fence.
func fencedBlock(t *testing.T, lines []string, i int, info string) (body []string, start, next int) {
	t.Helper()
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i >= len(lines) || lines[i] != "```"+info {
		t.Fatalf("PROTOCOL.md:%d: want a ```%s block", i+1, info)
	}
	for j := i + 1; j < len(lines); j++ {
		if lines[j] == "```" {
			return lines[i+1 : j], i + 1, j + 1
		}
	}
	t.Fatalf("PROTOCOL.md:%d: unterminated ```%s block", i+1, info)
	return nil, 0, 0
}

func uncomment(l string) string {
	if i := strings.IndexByte(l, '#'); i >= 0 {
		return l[:i]
	}
	return l
}

// hexBlock decodes the lines of a ```hex block that starts at index start.
func hexBlock(t *testing.T, lines []string, start int) []byte {
	t.Helper()
	var digits strings.Builder
	for _, l := range lines {
		digits.WriteString(strings.Join(strings.Fields(uncomment(l)), ""))
	}
	b, err := hex.DecodeString(digits.String())
	if err != nil {
		t.Fatalf("PROTOCOL.md:%d: bad hex: %v", start+1, err)
	}
	return b
}

// parseDocValues reads a block of named values that starts at index start.
func parseDocValues(t *testing.T, lines []string, start int) docValues {
	t.Helper()
	v := docValues{line: start + 1, vals: map[string][]byte{}}
	last := ""
	for k, l := range lines {
		n := start + k + 1
		l = strings.TrimRight(uncomment(l), " ")
		if strings.TrimSpace(l) == "" {
			continue
		}
		name, val := last, l
		if l[0] != ' ' {
			m := docValueLine.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("PROTOCOL.md:%d: want \"name  hex\", got %q", n, l)
			}
			name, val = m[1], m[2]
			if _, dup := v.vals[name]; dup {
				t.Fatalf("PROTOCOL.md:%d: %q given twice", n, name)
			}
			v.order = append(v.order, name)
		} else if last == "" {
			t.Fatalf("PROTOCOL.md:%d: a continuation line with nothing to continue", n)
		}
		b, err := hex.DecodeString(strings.Join(strings.Fields(val), ""))
		if err != nil {
			t.Fatalf("PROTOCOL.md:%d: %s: bad hex: %v", n, name, err)
		}
		v.vals[name] = append(v.vals[name], b...)
		last = name
	}
	return v
}

// get returns the value called name, which must be n bytes long (any
// length when n < 0).
func (v docValues) get(t *testing.T, name string, n int) []byte {
	t.Helper()
	b, ok := v.vals[name]
	if !ok {
		t.Fatalf("PROTOCOL.md:%d: no %q in the block", v.line, name)
	}
	if n >= 0 && len(b) != n {
		t.Fatalf("PROTOCOL.md:%d: %q is %d bytes, want %d", v.line, name, len(b), n)
	}
	return b
}

// only fails the test for every name of the block not in names.
func (v docValues) only(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range v.order {
		if !slices.Contains(names, n) {
			t.Errorf("PROTOCOL.md:%d: unknown value %q", v.line, n)
		}
	}
}

const handshakeMarker = "<!-- handshake vector -->"

// readHandshakeVector returns the values of the handshake vector (§4.12).
func readHandshakeVector(t *testing.T) docValues {
	t.Helper()
	lines := docLines(t)
	i := slices.Index(lines, handshakeMarker)
	if i < 0 {
		t.Fatalf("PROTOCOL.md has no %s block", handshakeMarker)
	}
	body, start, _ := fencedBlock(t, lines, i+1, "text")
	return parseDocValues(t, body, start)
}

// TestDocHandshakeVector recomputes the handshake vector of PROTOCOL.md
// §4.12 from its inputs (session, cookie, connection id, the two
// ephemeral private keys and the server key's seed) and requires every
// other value of it. It also requires the Join (§5.3) and Accept (§5.13)
// examples to be that handshake's, and the Accept's signature to verify
// over the transcript of the two examples, as a client checks it. (The
// vector's values are keys_test.go's, which Python's cryptography package
// computed apart from this code.)
func TestDocHandshakeVector(t *testing.T) {
	v := readHandshakeVector(t)
	inputs := []string{"session", "cookie", "conn", "client ephemeral private", "server ephemeral private", "server key seed"}
	session := binary.BigEndian.Uint64(v.get(t, "session", 8))
	var cookie Cookie
	copy(cookie[:], v.get(t, "cookie", CookieLen))
	conn := binary.BigEndian.Uint32(v.get(t, "conn", 4))
	ce, err := ecdh.X25519().NewPrivateKey(v.get(t, "client ephemeral private", 32))
	if err != nil {
		t.Fatal(err)
	}
	se, err := ecdh.X25519().NewPrivateKey(v.get(t, "server ephemeral private", 32))
	if err != nil {
		t.Fatal(err)
	}
	serverPriv := ed25519.NewKeyFromSeed(v.get(t, "server key seed", ed25519.SeedSize))
	serverPub := serverPriv.Public().(ed25519.PublicKey)
	var cpub, spub [EphLen]byte
	copy(cpub[:], ce.PublicKey().Bytes())
	copy(spub[:], se.PublicKey().Bytes())
	tr := Transcript(session, cookie, cpub, spub, serverPub, conn)
	sig := SignTranscript(serverPriv, tr)
	shared, err := ce.ECDH(se.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	keys, err := DeriveKeys(ce, spub, tr)
	if err != nil {
		t.Fatal(err)
	}
	if theirs, err := DeriveKeys(se, cpub, tr); err != nil || theirs != keys {
		t.Fatalf("the server derives other keys than the client: %v", err)
	}
	proof := ResumeProof(keys.Resume, tr)
	want := []struct {
		name string
		b    []byte
	}{
		{"client ephemeral public", cpub[:]},
		{"server ephemeral public", spub[:]},
		{"server key", serverPub},
		{"transcript", tr[:]},
		{"signature", sig},
		{"shared secret", shared},
		{"c2s", keys.ClientToServer[:]},
		{"s2c", keys.ServerToClient[:]},
		{"resume", keys.Resume[:]},
		{"resume proof", proof[:]},
	}
	names := slices.Clone(inputs)
	for _, w := range want {
		names = append(names, w.name)
		if got := v.get(t, w.name, -1); !bytes.Equal(got, w.b) {
			t.Errorf("PROTOCOL.md:%d: %s is\n %x\nrecomputed\n %x", v.line, w.name, got, w.b)
		}
	}
	v.only(t, names...)
	if !VerifyTranscript(serverPub, tr, sig) {
		t.Error("the vector's signature does not verify")
	}

	var join *Join
	var accept *Accept
	for _, ex := range readDocExamples(t) {
		switch ex.name {
		case "Join":
			j, err := ParseJoin(ex.data)
			if err != nil {
				t.Fatalf("PROTOCOL.md:%d: %v", ex.line, err)
			}
			join = &j
			if j.Session != session || j.Cookie != cookie || j.Eph != cpub {
				t.Errorf("PROTOCOL.md:%d: the Join example is not the vector's: session %#x, cookie %x, key %x",
					ex.line, j.Session, j.Cookie, j.Eph)
			}
		case "Accept":
			a, err := ParseAccept(ex.data)
			if err != nil {
				t.Fatalf("PROTOCOL.md:%d: %v", ex.line, err)
			}
			accept = &a
			if a.Session != session || a.Conn != conn || a.Eph != spub || !bytes.Equal(a.ServerKey[:], serverPub) || !bytes.Equal(a.Sig[:], sig) {
				t.Errorf("PROTOCOL.md:%d: the Accept example is not the vector's: session %#x, conn %#x, key %x, server key %x, signature %x",
					ex.line, a.Session, a.Conn, a.Eph, a.ServerKey, a.Sig)
			}
		}
	}
	if join == nil || accept == nil {
		t.Fatal("PROTOCOL.md lacks the Join or the Accept example")
	}
	if !VerifyTranscript(accept.ServerKey[:], Transcript(join.Session, join.Cookie, join.Eph, accept.Eph, accept.ServerKey[:], accept.Conn), accept.Sig[:]) {
		t.Error("the Accept example's signature does not verify over the transcript of the Join and Accept examples")
	}
}

// docSealedExample is a sealed example of PROTOCOL.md §3.2.
type docSealedExample struct {
	name   string // the packet type: its clear form is the "example: name" block
	line   int    // of the marker
	vals   docValues
	sealed []byte
}

func readSealedExamples(t *testing.T) []docSealedExample {
	t.Helper()
	lines := docLines(t)
	var out []docSealedExample
	for i, l := range lines {
		m := sealedMarker.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		text, start, next := fencedBlock(t, lines, i+1, "text")
		ex := docSealedExample{name: m[1], line: i + 1, vals: parseDocValues(t, text, start)}
		body, hstart, _ := fencedBlock(t, lines, next, "hex")
		ex.sealed = hexBlock(t, body, hstart)
		out = append(out, ex)
	}
	return out
}

// TestDocSealedExamples seals the clear example of each sealed example of
// PROTOCOL.md §3.2 with the values the document gives (the key and
// connection of the handshake vector, §4.12, the direction, the packet
// number, the epoch) and requires the sealed datagram it shows, the nonce
// and the plaintext it states; then opens that datagram and requires its
// body to be the clear example's. (Python's
// cryptography package gives the same sealed bytes.)
// parseClearExample parses a clear example into its packet, by its type.
func parseClearExample(b []byte) (Packet, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return nil, err
	}
	for _, c := range codecCases() {
		if c.pkt.PacketType() == h.Type {
			return c.parse(b)
		}
	}
	return nil, fmt.Errorf("no parser for %v", h.Type)
}

func TestDocSealedExamples(t *testing.T) {
	vec := readHandshakeVector(t)
	clear := map[string][]byte{}
	for _, ex := range readDocExamples(t) {
		clear[ex.name] = ex.data
	}
	exs := readSealedExamples(t)
	if len(exs) == 0 {
		t.Fatal("PROTOCOL.md has no sealed example")
	}
	for _, ex := range exs {
		at := fmt.Sprintf("PROTOCOL.md:%d: the sealed %s example", ex.line, ex.name)
		c, ok := clear[ex.name]
		if !ok {
			t.Errorf("%s: no clear example of %s to seal", at, ex.name)
			continue
		}
		h, err := ParseHeader(c)
		if err != nil {
			t.Errorf("%s: %v", at, err)
			continue
		}
		if !h.Type.Sealed() {
			t.Errorf("%s: a %v travels in the clear", at, h.Type)
		}
		v := ex.vals
		v.only(t, "key", "direction", "conn", "pn", "epoch", "nonce", "plaintext")
		var key [KeyLen]byte
		copy(key[:], v.get(t, "key", KeyLen))
		dir := Direction(binary.BigEndian.Uint32(v.get(t, "direction", 4)))
		conn := binary.BigEndian.Uint32(v.get(t, "conn", 4))
		pn := binary.BigEndian.Uint32(v.get(t, "pn", 4))
		epoch := v.get(t, "epoch", 1)[0]

		// The key and connection are the handshake vector's.
		wantKey := map[Direction]string{ClientToServer: "c2s", ServerToClient: "s2c"}[dir]
		if wantKey == "" {
			t.Errorf("%s: direction %d", at, dir)
		} else if !bytes.Equal(key[:], vec.get(t, wantKey, KeyLen)) {
			t.Errorf("%s: the key is not the handshake vector's %s", at, wantKey)
		}
		if !bytes.Equal(v.get(t, "conn", 4), vec.get(t, "conn", 4)) {
			t.Errorf("%s: the connection is not the handshake vector's", at)
		}
		// The clear example's seq is the packet number, so the clear form
		// rebuilt from the sealed datagram is the example itself.
		if h.Seq != pn {
			t.Errorf("%s: the clear example's seq is %d, the packet number %d", at, h.Seq, pn)
		}
		var n nonce
		if got, want := v.get(t, "nonce", len(n)), n.set(dir, pn); !bytes.Equal(got, want) {
			t.Errorf("%s: nonce %x, want %x", at, got, want)
		}
		plain := []byte{epoch}
		if h.Type == TypeStart {
			plain = binary.BigEndian.AppendUint32(plain, h.Match)
		}
		plain = append(plain, c[HeaderLen:]...)
		if got := v.get(t, "plaintext", -1); !bytes.Equal(got, plain) {
			t.Errorf("%s: plaintext\n %x\nwant\n %x", at, got, plain)
		}

		s, err := NewSealer(key, dir, conn)
		if err != nil {
			t.Fatal(err)
		}
		s.next = pn - 1
		p, err := parseClearExample(c)
		if err != nil {
			t.Errorf("%s: the clear example does not parse: %v", at, err)
			continue
		}
		got, err := s.AppendPacket(nil, p, epoch)
		if err != nil {
			t.Errorf("%s: AppendPacket: %v", at, err)
			continue
		}
		if !bytes.Equal(got, ex.sealed) {
			t.Errorf("%s is\n %x\nsealing gives\n %x", at, ex.sealed, got)
		}
		if want := len(c) - HeaderLen + SealedHeaderLen + SealedPrefixLen(h.Type) + SealTagLen; len(ex.sealed) != want {
			t.Errorf("%s: %d bytes sealed from %d, want %d", at, len(ex.sealed), len(c), want)
		}

		o, err := NewOpener(key, dir, conn)
		if err != nil {
			t.Fatal(err)
		}
		sh, body, err := o.Open(nil, ex.sealed)
		if err != nil {
			t.Errorf("%s does not open: %v", at, err)
			continue
		}
		gotEpoch, match, rest, err := SplitSealedBody(sh.Type, body)
		if err != nil || gotEpoch != epoch || (h.Type == TypeStart && match != h.Match) {
			t.Errorf("%s: opened epoch %d, match %d, %v", at, gotEpoch, match, err)
		}
		if !bytes.Equal(rest, c[HeaderLen:]) {
			t.Errorf("%s: opened body\n %x\nwant the clear example's\n %x", at, rest, c[HeaderLen:])
		}
	}
}
