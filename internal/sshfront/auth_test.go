package sshfront

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

func newKey(t *testing.T) gossh.PublicKey {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestParseAuthorizedKeys(t *testing.T) {
	a, b, other := newKey(t), newKey(t), newKey(t)
	file := "# the players\n\n" + string(gossh.MarshalAuthorizedKey(a)) +
		"  " + strings.TrimSpace(string(gossh.MarshalAuthorizedKey(b))) + " bob@laptop\n"
	keys, err := ParseAuthorizedKeys([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if keys.Len() != 2 || !keys.Allows(a) || !keys.Allows(b) || keys.Allows(other) {
		t.Errorf("Len %d, allows a=%v b=%v other=%v; want 2, true, true, false",
			keys.Len(), keys.Allows(a), keys.Allows(b), keys.Allows(other))
	}
}

func TestParseAuthorizedKeysRefusesOptionsAndJunk(t *testing.T) {
	k := string(gossh.MarshalAuthorizedKey(newKey(t)))
	for name, file := range map[string]string{
		"options": `from="10.0.0.0/8" ` + k,
		"junk":    k + "ssh-ed25519 not-base64!\n",
	} {
		if _, err := ParseAuthorizedKeys([]byte(file)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}
