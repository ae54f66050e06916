package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"text/tabwriter"
	"time"

	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// Rooms is "ttytanks rooms HOST[:PORT]": it prints a server's room list
// (a fleet's, through any of its servers) once, as a table or with
// --json as JSON, for operators and scripts. It returns 0, 1 when the
// server does not answer, 2 on a usage error.
func Rooms(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("rooms", "rooms HOST[:PORT] [flags]", stdout)
	asJSON := fs.Bool("json", false, "print the list as JSON: one object with the rooms, each with its server")
	wait := fs.Duration("timeout", 5*time.Second, "give up when the server has not answered for this long")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "rooms", "give one server: ttytanks rooms HOST[:PORT]")
	}
	if *wait <= 0 {
		return usageError(stderr, "rooms", "--timeout must be positive")
	}
	host, port, err := splitServer(fs.Arg(0))
	if err != nil {
		return usageError(stderr, "rooms", err.Error())
	}
	target, err := resolveServer(host, port)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks rooms: %v\n", err)
		return 1
	}
	list, err := fetchRooms(target, *wait)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks rooms: %v: %v\n", fs.Arg(0), err)
		return 1
	}
	if *asJSON {
		return printRoomsJSON(stdout, fs.Arg(0), &list)
	}
	printRooms(stdout, &list)
	return 0
}

// fetchRooms asks target for its whole room list, within wait.
func fetchRooms(target netip.AddrPort, wait time.Duration) (netcode.RoomList, error) {
	t, err := transport.ListenUDP(":0")
	if err != nil {
		return netcode.RoomList{}, err
	}
	l, err := netcode.StartLobby(target, t, nil)
	if err != nil {
		_ = t.Close()
		return netcode.RoomList{}, err
	}
	defer l.Close()
	deadline := time.Now().Add(wait)
	var list netcode.RoomList
	for poll := time.NewTicker(20 * time.Millisecond); ; <-poll.C {
		l.Rooms(&list)
		switch {
		case !list.Updated.IsZero():
			poll.Stop()
			return list, nil
		case list.Err != nil && !errors.Is(list.Err, netcode.ErrNoAnswer):
			poll.Stop()
			return list, list.Err
		case time.Now().After(deadline):
			poll.Stop()
			return list, fmt.Errorf("no answer from %v in %v: is a ttytanks server running there?", target, wait)
		}
	}
}

// roomJSON is one room of rooms --json.
type roomJSON struct {
	Name        string `json:"name"`
	Server      string `json:"server"`
	Players     int    `json:"players"`
	Seats       int    `json:"seats"`
	Bots        int    `json:"bots"`
	Spectators  int    `json:"spectators"`
	State       string `json:"state"`
	Round       int    `json:"round"`
	RoundsToWin int    `json:"rounds_to_win"`
	Leader      string `json:"leader,omitempty"`
	LeaderScore int    `json:"leader_score"`
	Closing     bool   `json:"closing"`
	Ranked      bool   `json:"ranked"`
}

func printRoomsJSON(w io.Writer, asked string, l *netcode.RoomList) int {
	out := struct {
		Server string     `json:"server"`
		PingMs float64    `json:"ping_ms"`
		Total  int        `json:"total"`
		Rooms  []roomJSON `json:"rooms"`
	}{Server: asked, PingMs: float64(l.Ping.Microseconds()) / 1000, Total: l.Total, Rooms: []roomJSON{}}
	for _, r := range l.Rooms {
		server := r.Server
		if server == "" {
			server = asked
		}
		out.Rooms = append(out.Rooms, roomJSON{Name: r.Name, Server: server, Players: r.Players, Seats: r.Seats, Bots: r.Bots,
			Spectators: r.Spectators, State: r.State.String(), Round: r.Round, RoundsToWin: r.RoundsToWin,
			Leader: r.Leader, LeaderScore: r.LeaderScore, Closing: r.Closing, Ranked: r.Ranked})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&out); err != nil {
		return 1
	}
	return 0
}

func printRooms(w io.Writer, l *netcode.RoomList) {
	if len(l.Rooms) == 0 {
		fmt.Fprintf(w, "no rooms open (ping %v)\n", l.Ping.Round(100*time.Microsecond))
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ROOM\tPLAYERS\tBOTS\tWATCHING\tSTATE\tROUND\tLEADER\tRATED\tSERVER")
	for _, r := range l.Rooms {
		state := r.State.String()
		if r.Closing {
			state += " (closing)"
		}
		server := r.Server
		if server == "" {
			server = "this one"
		}
		leader := "-"
		if r.Leader != "" {
			leader = fmt.Sprintf("%s (%d)", r.Leader, r.LeaderScore)
		}
		rated := "casual"
		if r.Ranked {
			rated = "ranked"
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%d\t%d\t%s\t%d\t%s\t%s\t%s\n", r.Name, r.Players, r.Seats, r.Bots, r.Spectators, state, r.Round, leader, rated, server)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "%s (ping %v)\n", plural(l.Total, "room"), l.Ping.Round(100*time.Microsecond))
}
