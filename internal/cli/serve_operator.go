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
	opNone   operatorAction = iota
	opKick                  // k, a player's number, Enter: end that player's session
	opBan                   // b, a player's number, Enter: kick everyone at that player's address and refuse it
	opMute                  // m, a player's number, Enter: that player's chat lines reach nobody
	opUnmute                // u, a player's number, Enter: they reach the room again
	opStop                  // Ctrl-C (the terminal is raw, so it arrives as a key)
)

// maxOperatorDigits bounds the number typed after k or b: the dashboard
// lists at most a few hundred players.
const maxOperatorDigits = 4

// operatorKeys turns the dashboard's key presses into actions: a letter
// (k, b, m or u) arms and opens a prompt, digits name the player by its number
// in the dashboard's list, Backspace takes one back, Enter confirms;
// Esc, or any other key, cancels.
type operatorKeys struct {
	armed  byte
	digits []byte
}

// key takes one byte typed at the dashboard. A confirmed action comes
// with the player's number.
func (o *operatorKeys) key(b byte) (operatorAction, int) {
	switch {
	case b == 3:
		o.reset()
		return opStop, 0
	case b == 'k' || b == 'b' || b == 'm' || b == 'u':
		o.armed, o.digits = b, o.digits[:0]
	case o.armed == 0:
	case b >= '0' && b <= '9':
		if len(o.digits) < maxOperatorDigits {
			o.digits = append(o.digits, b)
		}
	case b == 127 || b == 8: // Backspace
		if len(o.digits) > 0 {
			o.digits = o.digits[:len(o.digits)-1]
		}
	case (b == '\r' || b == '\n') && len(o.digits) == 0: // wait for a number
	case b == '\r' || b == '\n':
		a := map[byte]operatorAction{'k': opKick, 'b': opBan, 'm': opMute, 'u': opUnmute}[o.armed]
		n := 0
		for _, d := range o.digits {
			n = 10*n + int(d-'0')
		}
		o.reset()
		return a, n
	default:
		o.reset()
	}
	return opNone, 0
}

func (o *operatorKeys) reset() { o.armed, o.digits = 0, o.digits[:0] }

// prompt is what the dashboard shows while an action is being typed, ""
// when none is.
func (o *operatorKeys) prompt() string {
	if o.armed == 0 {
		return ""
	}
	verb := map[byte]string{'k': "kick", 'b': "ban the address of", 'm': "mute the chat of", 'u': "unmute the chat of"}[o.armed]
	return fmt.Sprintf("%s player #%s_ · Enter confirms · Esc cancels", verb, o.digits)
}

// operate applies an action to player num of shown, the list the
// operator read the number from, once a fresh look at the server finds
// that very player (room, slot, name, address) still there: a number
// never falls on whoever took the place meanwhile. An SSH player (its
// game address on the in-memory network) is banned by the SSH server: its
// prefix and, if it offered one, its key; kicked, its session ends (it is
// told so) and its prefix and key are held out for hold (--kick-hold; 0:
// netcode.DefaultKickHold). A UDP player's address is banned by both
// servers: the game's and, with --ssh, the SSH server, whose sessions
// from that address are told so and end.
func operate(sd *netcode.ServerDriver, ssh *sshfront.Server, a operatorAction, num int, shown []netcode.PlayerStats, hold time.Duration) string {
	if num < 0 || num >= len(shown) {
		return fmt.Sprintf("no player #%d", num)
	}
	p := shown[num]
	if p.Bot || p.Addr == "" {
		return fmt.Sprintf("player #%d (%s) is a bot", num, p.Name)
	}
	var st netcode.ServerStats
	sd.Do(func(s *netcode.Server) { st = s.Stats() })
	if !stillThere(st.Players, p) {
		return fmt.Sprintf("player #%d (%s) has gone or moved: nothing done", num, p.Name)
	}
	switch a {
	case opMute, opUnmute:
		if !sd.Mute(p.Room, p.Slot, a == opMute) {
			return fmt.Sprintf("player #%d (%s) has gone: nothing done", num, p.Name)
		}
		if a == opMute {
			return fmt.Sprintf("muted %s (room %s, slot %d): their chat lines reach nobody", p.Name, p.Room, p.Slot)
		}
		return fmt.Sprintf("unmuted %s (room %s, slot %d)", p.Name, p.Room, p.Slot)
	case opKick:
		if hold <= 0 {
			hold = netcode.DefaultKickHold
		}
		how := ""
		if ap, err := netip.ParseAddrPort(p.Addr); err == nil && transport.MemPrefix.Contains(ap.Addr()) && ssh != nil && ssh.KickPlayer(ap, hold) {
			how = " and its SSH session"
		}
		sd.Kick(p.Room, p.Slot)
		return fmt.Sprintf("kicked %s%s (room %s, slot %d) for %v", p.Name, how, p.Room, p.Slot, hold)
	case opBan:
		ap, err := netip.ParseAddrPort(p.Addr)
		if err != nil {
			return fmt.Sprintf("player #%d: %v", num, err)
		}
		if transport.MemPrefix.Contains(ap.Addr()) {
			if ssh == nil || !ssh.BanPlayer(ap) {
				return fmt.Sprintf("player #%d: no SSH player found to ban", num)
			}
			sd.Kick(p.Room, p.Slot)
			return fmt.Sprintf("banned SSH player %s (its address's prefix, and its key if it offered one) for the server's life", p.Name)
		}
		sd.Ban(ap.Addr())
		if ssh != nil {
			ssh.Ban(ap.Addr()) // its SSH players too: told so, their sessions end
		}
		return fmt.Sprintf("banned %s for the server's life (%s was there)", ap.Addr(), p.Name)
	}
	return ""
}

// stillThere reports whether players holds p: the same room, slot, name
// and address.
func stillThere(players []netcode.PlayerStats, p netcode.PlayerStats) bool {
	for _, q := range players {
		if q.Room == p.Room && q.Slot == p.Slot && q.Name == p.Name && q.Addr == p.Addr && !q.Bot {
			return true
		}
	}
	return false
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
