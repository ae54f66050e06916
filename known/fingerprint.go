package known

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
)

// fingerprintPrefix starts every fingerprint, as OpenSSH prints it.
const fingerprintPrefix = "SHA256:"

// fingerprintLen is the number of base64 characters after the prefix:
// 32 bytes of SHA-256, unpadded.
const fingerprintLen = 43

// Fingerprint returns the fingerprint of pub as an ssh-ed25519 key, exactly
// as OpenSSH and golang.org/x/crypto/ssh.FingerprintSHA256 print it:
// "SHA256:" and the unpadded base64 of the SHA-256 of the key's SSH wire
// encoding, 50 characters in all. pub should be ed25519.PublicKeySize (32)
// bytes; of a key of any other length it returns the fingerprint of those
// bytes in the same encoding, which no real key has (Check and
// CheckPinned refuse such keys). It does not panic.
func Fingerprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(appendWire(nil, pub))
	return fingerprintPrefix + base64.RawStdEncoding.EncodeToString(sum[:])
}

// ParseFingerprint checks a fingerprint given by a user (the client's
// --server-key) and returns it. It takes only the exact form Fingerprint
// returns and "ttytanks serve" logs: "SHA256:" and 43 characters of
// unpadded standard base64 that decode to 32 bytes. Anything else is an
// error wrapping ErrBadFingerprint that says what is wrong.
func ParseFingerprint(s string) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%w %q: %s", ErrBadFingerprint, clip(s), why)
	}
	rest, ok := strings.CutPrefix(s, fingerprintPrefix)
	switch {
	case s == "":
		return bad("empty; want SHA256: and 43 base64 characters, as ttytanks serve logs it")
	case strings.HasPrefix(s, "MD5:") || strings.Count(s, ":") == 15:
		return bad("an MD5 fingerprint; want the SHA256: one (ttytanks serve logs it, ssh-keygen -l prints it)")
	case !ok:
		return bad("want SHA256: and 43 base64 characters, as ttytanks serve logs it")
	case strings.HasSuffix(rest, "="):
		return bad("drop the trailing '=': the fingerprint is unpadded base64")
	case len(rest) != fingerprintLen:
		return bad(fmt.Sprintf("%d characters after SHA256:, want %d", len(rest), fingerprintLen))
	}
	if _, err := base64.RawStdEncoding.Strict().DecodeString(rest); err != nil {
		return bad("not base64 after SHA256: (a mistyped character?)")
	}
	return s, nil
}

// clip shortens s, user input or file content, for an error message.
func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
