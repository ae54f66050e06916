package sshfront

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	gossh "golang.org/x/crypto/ssh"
)

// AuthorizedKeys is a set of public keys allowed to play. The zero value
// admits no one; a nil *AuthorizedKeys in Config admits everyone.
type AuthorizedKeys struct {
	keys map[string]bool // by wire encoding
}

// ParseAuthorizedKeys parses an OpenSSH authorized_keys file: one key per
// line, blank lines and # comments ignored. Key options (from=, command=,
// restrict, ...) are not supported, and a line carrying them is an error
// rather than a wider grant than the file meant.
func ParseAuthorizedKeys(data []byte) (*AuthorizedKeys, error) {
	a := &AuthorizedKeys{keys: map[string]bool{}}
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, opts, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		if len(opts) > 0 {
			return nil, fmt.Errorf("line %d: key options (%s) are not supported", n+1, strings.Join(opts, ","))
		}
		a.keys[string(key.Marshal())] = true
	}
	return a, nil
}

// LoadAuthorizedKeys reads and parses an authorized_keys file; a file
// without any key is an error.
func LoadAuthorizedKeys(path string) (*AuthorizedKeys, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a, err := ParseAuthorizedKeys(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if a.Len() == 0 {
		return nil, fmt.Errorf("%s: no keys", path)
	}
	return a, nil
}

// Len is the number of keys.
func (a *AuthorizedKeys) Len() int { return len(a.keys) }

// Allows reports whether key is in the set.
func (a *AuthorizedKeys) Allows(key gossh.PublicKey) bool { return a.keys[string(key.Marshal())] }
