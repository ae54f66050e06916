package known

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
)

// keyType is the one key type a known_servers line holds.
const keyType = "ssh-ed25519"

// maxLineLen bounds a line of the file, in bytes (comments included): a
// longer line is skipped unread.
const maxLineLen = 4096

// wirePrefix starts the SSH wire encoding of every ssh-ed25519 key: the
// type as a length-prefixed string, then the length of the key.
var wirePrefix = appendWire(nil, make([]byte, ed25519.PublicKeySize))[:4+len(keyType)+4]

// wireLen is the length of an ssh-ed25519 key's wire encoding, in bytes.
var wireLen = len(wirePrefix) + ed25519.PublicKeySize

// Why a line is skipped; only tests and the fuzz target look at them.
var (
	errLineTooLong = errors.New("line too long")
	errLineFields  = errors.New("want HOST:PORT ssh-ed25519 KEY")
	errLineType    = errors.New("key type is not ssh-ed25519")
	errLineKey     = errors.New("key is not a base64 ssh-ed25519 key")
)

// entry is a server line of a known_servers file.
type entry struct {
	server string // as CanonicalServer writes it
	key    ed25519.PublicKey
}

// appendWire appends the SSH wire encoding of pub as an ssh-ed25519 key
// (RFC 8709): the string "ssh-ed25519" and the string of the key's bytes,
// each after its length as a big-endian uint32.
func appendWire(b []byte, pub []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(keyType)))
	b = append(b, keyType...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(pub)))
	return append(b, pub...)
}

// parseWire decodes the wire encoding of an ssh-ed25519 key, and reports
// whether b is one, whole.
func parseWire(b []byte) (ed25519.PublicKey, bool) {
	if len(b) != wireLen || !bytes.HasPrefix(b, wirePrefix) {
		return nil, false
	}
	return ed25519.PublicKey(bytes.Clone(b[len(wirePrefix):])), true
}

// formatLine returns e as a line of the file, without its newline:
// "HOST:PORT ssh-ed25519 BASE64".
func formatLine(e entry) string {
	return e.server + " " + keyType + " " + base64.StdEncoding.EncodeToString(appendWire(nil, e.key))
}

// parseLine reads one line of a known_servers file, without its newline.
// ok is false for a blank line or a comment, and err is non-nil for a
// line that does not parse; neither happens for a server line. Fields are
// separated by spaces, tabs or carriage returns; anything after the key is
// a comment. The server name may be in any form CanonicalServer takes.
// Its time is linear in len(line), and it decodes nothing longer than a
// key; the file reader skips lines over maxLineLen before calling it.
func parseLine(line string) (e entry, ok bool, err error) {
	rest := strings.TrimLeft(line, lineSpace)
	if rest == "" || rest[0] == '#' {
		return entry{}, false, nil
	}
	server, rest := nextField(rest)
	typ, rest := nextField(rest)
	b64, _ := nextField(rest)
	if b64 == "" {
		return entry{}, false, errLineFields
	}
	if typ != keyType {
		return entry{}, false, errLineType
	}
	name, err := CanonicalServer(server)
	if err != nil {
		return entry{}, false, err
	}
	if len(b64) != base64.StdEncoding.EncodedLen(wireLen) {
		return entry{}, false, errLineKey
	}
	wire, err := base64.StdEncoding.Strict().DecodeString(b64)
	if err != nil {
		return entry{}, false, errLineKey
	}
	key, ok := parseWire(wire)
	if !ok {
		return entry{}, false, errLineKey
	}
	return entry{server: name, key: key}, true, nil
}

// lineSpace separates the fields of a line.
const lineSpace = " \t\r"

// nextField splits the first field off s.
func nextField(s string) (field, rest string) {
	s = strings.TrimLeft(s, lineSpace)
	if i := strings.IndexAny(s, lineSpace); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// eachLine calls fn with each line of data, numbered from 1, without its
// newline. A final newline ends the last line rather than starting an
// empty one.
func eachLine(data []byte, fn func(num int, line []byte)) {
	for num := 1; len(data) > 0; num++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		fn(num, line)
	}
}
