// Package known is the client's store of known game-server keys, the
// known_servers file: trust on first use, as OpenSSH's known_hosts. It
// also keeps the server's own key file (LoadOrCreateKey), the other
// ttytanks file in the same state directory, read and written under the
// same rules.
//
// # Trust model
//
// A game server proves itself with a long-term Ed25519 key, the same key
// as its SSH host key, so one fingerprint ("SHA256:…", as ssh prints it)
// names the host for both ways of playing. The first time a client meets
// a server it cannot tell the real key from an impostor's: it accepts the
// key offered and remembers it (Added). From then on the remembered key
// must be offered again (Known); any other key is refused with a
// *ChangedError, the warning to take seriously, since it is what a
// man-in-the-middle looks like. A user who has checked a fingerprint with
// the server's operator ("ttytanks serve" logs it) can pin it instead
// (CheckPinned, the client's --server-key): no first-use trust, and the
// pinned key replaces whatever was remembered.
//
// # The file
//
// One server a line, in the key format of authorized_keys, so that
// "ssh-keygen -l -f known_servers" lists the fingerprints:
//
//	# comments and blank lines are kept
//	localhost:7777 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI…
//	[::1]:7777 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI…
//
// The server name is CanonicalServer's: lower-case host, IPv6 in
// brackets, port always present. Anything after the key is a comment. A
// line that does not parse is skipped and listed with its number
// (Store.Malformed), and left in the file; it is fatal only for the
// server it names, when no line holds that server's offered key (a
// DamagedError: the remembered key may be lost). A server with several
// lines is Known by any of their keys. The
// file must be a regular file, not a symbolic link, owned by this user and
// writable by no one else, and at most MaxFileSize bytes; it lives at
// DefaultPath unless the caller says otherwise.
//
// # Use
//
// The UDP client, once the handshake has brought the server's key:
//
//	store := known.Open(path)
//	if pin != "" { // --server-key, checked early with known.ParseFingerprint
//		return store.CheckPinned(server, key, pin)
//	}
//	verdict, err := store.Check(server, key)
//	if err != nil {
//		return err // a *ChangedError prints the whole warning
//	}
//	if verdict == known.Added {
//		log.Printf("remembered %s with key %s", server, known.Fingerprint(key))
//	}
//
// A Store is safe for concurrent use, and so is one file shared by several
// Stores and processes: every change is made under an advisory lock
// (flock) on the file, a new line is appended with one write, and a
// replaced line is written to a temporary file in the same directory that
// is renamed over the old one. The lock needs a Unix system; elsewhere
// Check and CheckPinned return an error that wraps errors.ErrUnsupported.
//
// # The server's key
//
// "ttytanks serve" signs its handshakes with an Ed25519 key that is also
// its SSH host key, kept at DefaultKeyPath (ssh_host_ed25519 beside
// known_servers) unless --key says otherwise:
//
//	path, _ := known.DefaultKeyPath()
//	key, created, err := known.LoadOrCreateKey(path) // made 0600 on first start
//
// The key file must be a regular file, not a symbolic link, owned by this
// user and accessible by no one else, as sshd wants of a host key; like
// the lock, the checks need a Unix system, and elsewhere LoadOrCreateKey
// returns an error that wraps errors.ErrUnsupported.
//
// # Files
//
//	store.go        Store: Open, Check, CheckPinned; DefaultPath; reading and rewriting the file
//	line.go         one line of the file: a server and its key, parsed and formatted
//	server.go       CanonicalServer: the name a server is known by
//	fingerprint.go  Fingerprint and ParseFingerprint ("SHA256:…")
//	errors.go       the sentinel errors, ChangedError and PinError
//	keyfile.go      the server's key file: DefaultKeyPath, LoadOrCreateKey
//	statefile.go    what both files share: the state directory, the rules a file must meet, the temporary file a new version is written to
//	file_unix.go    opening a file checked against its rules, the known_servers lock (Unix)
//	file_other.go   the same off Unix: unsupported
package known
