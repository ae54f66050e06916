package cli

import (
	"fmt"
	"io"
	"net/netip"
	"os"
	"time"

	"golang.org/x/term"

	"ttytanks/internal/sshfront"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// operatorAction is what the operator asked for at the dashboard.
type operatorAction uint8

const (
	opNone operatorAction = iota
	opKick                // k then a player's number on the dashboard: end that player's session
	opBan                 // b then a player's number: kick everyone at that player's address and refuse it
	opStop                // Ctrl-C (the terminal is raw, so it arrives as a key)
)

// operatorKeys turns the dashboard's key presses into actions: a letter
// (k or b) arms, the next digit names the player by its number in the
// dashboard's list (ServerStats.Players); anything else disarms.
type operatorKeys struct {
	armed byte
}

// key takes one byte typed at the dashboard.
func (o *operatorKeys) key(b byte) (operatorAction, int) {
	switch {
	case b == 3:
		return opStop, 0
	case b == 'k' || b == 'b':
		o.armed = b
		return opNone, 0
	case b >= '0' && b <= '9' && o.armed != 0:
		a := opKick
		if o.armed == 'b' {
			a = opBan
		}
		o.armed = 0
		return a, int(b - '0')
	}
	o.armed = 0
	return opNone, 0
}

// operate applies an action to the server and returns what to tell the
// operator. An SSH player (its game address on the in-memory network) is
// banned by the SSH server: its prefix and, if it offered one, its key;
// kicked, its session ends (it is told so) and its prefix and key are
// held out for hold (--kick-hold; 0: netcode.DefaultKickHold).
func operate(sd *netcode.ServerDriver, s *sshfront.Server, a operatorAction, num int, hold time.Duration) string {
	var st netcode.ServerStats
	sd.Do(func(s *netcode.Server) { st = s.Stats() })
	if num < 0 || num >= len(st.Players) {
		return fmt.Sprintf("no player %d", num)
	}
	p := st.Players[num]
	if p.Bot || p.Addr == "" {
		return fmt.Sprintf("player %d (%s) is a bot", num, p.Name)
	}
	switch a {
	case opKick:
		if hold <= 0 {
			hold = netcode.DefaultKickHold
		}
		ssh := ""
		if ap, err := netip.ParseAddrPort(p.Addr); err == nil && transport.MemPrefix.Contains(ap.Addr()) && s != nil && s.KickPlayer(ap, hold) {
			ssh = " and its SSH session"
		}
		sd.Kick(p.Room, p.Slot)
		return fmt.Sprintf("kicked %s%s (room %s, slot %d) for %v", p.Name, ssh, p.Room, p.Slot, hold)
	case opBan:
		ap, err := netip.ParseAddrPort(p.Addr)
		if err != nil {
			return fmt.Sprintf("player %d: %v", num, err)
		}
		if transport.MemPrefix.Contains(ap.Addr()) {
			if s == nil || !s.BanPlayer(ap) {
				return fmt.Sprintf("player %d: no SSH player found to ban", num)
			}
			sd.Kick(p.Room, p.Slot)
			return fmt.Sprintf("banned SSH player %s (its address's prefix, and its key if it offered one) for the server's life", p.Name)
		}
		sd.Ban(ap.Addr())
		return fmt.Sprintf("banned %s for the server's life (%s was there)", ap.Addr(), p.Name)
	}
	return ""
}

// rawKeys puts a terminal stdin in raw mode and delivers its bytes; the
// returned restore puts it back. It returns a nil channel when stdin is
// not a terminal.
func rawKeys(stdin *os.File) (<-chan byte, func()) {
	fd := int(stdin.Fd())
	if !term.IsTerminal(fd) {
		return nil, func() {}
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return nil, func() {}
	}
	keys := make(chan byte, 16)
	go func() {
		var b [1]byte
		for {
			n, err := stdin.Read(b[:])
			if err != nil {
				if err != io.EOF {
					close(keys)
				}
				return
			}
			if n == 1 {
				keys <- b[0]
			}
		}
	}()
	return keys, func() { _ = term.Restore(fd, old) }
}
