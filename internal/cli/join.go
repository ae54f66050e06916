package cli

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"ttytanks/game/bot"
	"ttytanks/netcode"
	"ttytanks/proto"
)

// Join is "ttytanks join [HOST:PORT]": it joins a server and plays in
// the terminal (or watches with --spectate, or lets a bot play without a
// screen with --headless). It returns the exit code: 0 on success, 1 on
// a runtime failure, 2 on a usage error.
func Join(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("join", "join [HOST:PORT] [flags]   (default localhost:7777)", stdout)
	var f joinFlags
	f.register(fs)
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() > 1 {
		return usageError(stderr, "join", fmt.Sprintf("unexpected argument %q", fs.Arg(1)))
	}
	addr := "localhost:7777"
	if fs.NArg() == 1 {
		addr = fs.Arg(0)
	}
	nm, err := f.check(fs)
	if err != nil {
		return usageError(stderr, "join", err.Error())
	}
	host, port, err := splitServer(addr)
	if err != nil {
		return usageError(stderr, "join", err.Error())
	}
	target, err := resolveServer(host, port)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks join: %v\n", err)
		return 1
	}
	if fs.Changed("server-key") && f.serverKey == "" {
		return usageError(stderr, "join", "--server-key needs a fingerprint like SHA256:… (an empty one would pin nothing)")
	}
	trust, err := serverTrust(net.JoinHostPort(host, strconv.Itoa(int(port))), f.serverKey)
	if err != nil {
		return usageError(stderr, "join", err.Error())
	}
	return f.run(target, nm, trust, stdout, stderr)
}

// joinFlags are join's flags.
type joinFlags struct {
	name      string
	ui        uiFlags
	quick     bool
	roomName  string
	code      string
	sim       simFlags
	desyncDir string
	bot       bool
	serverKey string
	level     bot.Level
	headless  bool
	duration  time.Duration
	statsJSON string
	private   bool
	casual    bool
	// named says --name was given: without it the login name is only a
	// default, and a key that holds a name keeps it.
	named bool
	id    identityFlags
}

func (f *joinFlags) register(fs *pflag.FlagSet) {
	f.id.register(fs)
	fs.StringVar(&f.name, "name", defaultName(), "player name shown to others (control characters are stripped)")
	f.ui.register(fs)
	f.ui.registerBell(fs)
	fs.BoolVar(&f.ui.spectate, "spectate", false, "watch without taking a seat")
	fs.BoolVar(&f.quick, "quick", false, "skip the lobby: take a seat in the fullest public room with a free seat, or a new room")
	fs.StringVar(&f.roomName, "room", "", "skip the lobby: join the room of this name, or create it")
	fs.StringVar(&f.code, "code", "", "skip the lobby: join a private room by its join code")
	fs.BoolVar(&f.private, "private", false, "with --room: create that room as a private room (unlisted; its join code is shown, and others join with --code)")
	fs.BoolVar(&f.casual, "casual", false, "with --room: create that room as a casual room (its matches are not rated on a server with a ladder)")
	f.sim.register(fs)
	registerDesync(fs, &f.desyncDir)
	fs.BoolVar(&f.bot, "bot", false, "let the built-in bot play for you")
	fs.StringVar(&f.serverKey, "server-key", "", "connect only if the server's key has this fingerprint (SHA256:…, as serve logs it), and remember it in known_servers ($XDG_STATE_HOME/ttytanks/); without it, a server's first key is remembered there and a changed one refused")
	f.level = bot.Normal
	registerBotLevel(fs, &f.level, "with --bot: how well your bot plays")
	fs.BoolVar(&f.headless, "headless", false, "no screen: play (with --bot) for --duration and print or write metrics")
	fs.DurationVar(&f.duration, "duration", 20*time.Second, "with --headless: how long to play")
	fs.StringVar(&f.statsJSON, "stats-json", "", "with --headless: write the final metrics as JSON to this file")
}

// check checks the flags, the first usage error first, and settles where
// to play (f.ui.room, f.ui.lobby); it returns the player's name.
func (f *joinFlags) check(fs *pflag.FlagSet) (string, error) {
	nm, err := playerName(f.name)
	if err == nil {
		err = f.id.check(fs)
	}
	if err == nil {
		err = f.ui.check()
	}
	if err == nil {
		err = f.sim.check()
	}
	if err == nil && f.duration <= 0 {
		err = fmt.Errorf("--duration must be positive")
	}
	if err == nil && fs.Changed("bot-level") && !f.bot {
		err = fmt.Errorf("--bot-level needs --bot")
	}
	if err == nil && f.private && !fs.Changed("room") {
		err = fmt.Errorf("--private needs --room NAME: the private room to create")
	}
	if err == nil && f.casual && !fs.Changed("room") {
		err = fmt.Errorf("--casual needs --room NAME: the casual room to create")
	}
	f.named = fs.Changed("name")
	if err == nil {
		f.ui.room, err = roomRequest(f.quick, fs.Changed("room"), f.roomName, fs.Changed("code"), f.code)
		if (f.private || f.casual) && err == nil {
			f.ui.room = netcode.RoomRequest{Kind: netcode.RoomCreate, Spec: netcode.RoomSpec{Name: f.ui.room.Name, Private: f.private, Casual: f.casual}}
		}
		f.ui.room.Spectate = f.ui.spectate
		// With a terminal and no room named, the player picks in the
		// lobby; scripts (--headless) quick-match.
		f.ui.lobby = !f.headless && !f.quick && !fs.Changed("room") && !fs.Changed("code")
	}
	if err == nil && !f.headless && (fs.Changed("stats-json") || fs.Changed("duration")) {
		err = fmt.Errorf("--stats-json and --duration need --headless")
	}
	return nm, err
}

// run plays as name at target, on a screen or headless, with the
// server's key checked by trust; it returns the exit code.
func (f *joinFlags) run(target netip.AddrPort, name string, trust *keyTrust, stdout, stderr io.Writer) int {
	ctx, stop := signalContext()
	defer stop()
	cs := &clientSetup{target: target, name: name, defaultName: !f.named, sim: f.sim, desyncDir: f.desyncDir}
	key, err := f.id.load(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks join: %v\n", err)
		return 1
	}
	cs.identify = signer(key)
	// A key that is refused ends the command, whatever screen is up (the
	// lobby, a match): the whole warning goes to stderr, as OpenSSH's does.
	// Headless, the session's end says it already.
	cs.trust = func(key ed25519.PublicKey) error {
		err := trust.check(key)
		if err != nil && !f.headless {
			stop()
		}
		return err
	}
	if f.bot {
		cs.botLevel = &f.level
	}
	var exit int
	if f.headless {
		exit = runHeadless(ctx, cs, f.ui.room, f.duration, f.statsJSON, stdout, stderr)
	} else {
		exit = runClientUI(ctx, cs, f.ui, target.String(), stderr)
	}
	note := trust.note()
	if err := trust.refused(); err != nil {
		if note != "" {
			fmt.Fprintln(stderr, note)
		}
		if !f.headless {
			fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		}
		return 1
	}
	if note != "" {
		fmt.Fprintln(stderr, note)
	}
	return exit
}

// roomRequest turns --quick, --room and --code into where to join; at
// most one of them may be given.
func roomRequest(quick, hasRoom bool, room string, hasCode bool, code string) (netcode.RoomRequest, error) {
	n := 0
	for _, b := range []bool{quick, hasRoom, hasCode} {
		if b {
			n++
		}
	}
	switch {
	case n > 1:
		return netcode.RoomRequest{}, fmt.Errorf("give at most one of --quick, --room and --code")
	case hasRoom:
		name := proto.SanitizeName(room)
		if name == "" || name != room {
			return netcode.RoomRequest{}, fmt.Errorf("--room %q: a room name is 1 to %d printable characters", room, proto.MaxNameLen)
		}
		return netcode.RoomRequest{Kind: netcode.RoomNamed, Name: name}, nil
	case hasCode:
		c := strings.ToUpper(strings.TrimSpace(code))
		if c == "" || len(c) > proto.MaxNameLen || proto.SanitizeName(c) != c {
			return netcode.RoomRequest{}, fmt.Errorf("--code %q is not a join code like K7QPM2XD", code)
		}
		return netcode.RoomRequest{Kind: netcode.RoomCode, Name: c}, nil
	}
	return netcode.RoomRequest{Kind: netcode.RoomQuick}, nil
}
