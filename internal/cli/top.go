package cli

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"ttytanks/known"
	"ttytanks/netcode"
	"ttytanks/proto"
)

// Top is "ttytanks top HOST[:PORT]": it prints a server's leaderboard
// (a fleet's: they share one) and, with a player key, your own line. It
// returns 0, 1 when the server does not answer or keeps no ladder, 2 on
// a usage error.
func Top(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("top", "top HOST[:PORT] [flags]", stdout)
	var f ladderAsk
	f.register(fs, "top")
	page := fs.Int("page", 1, "which page of 20 players to print (1: the best)")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	if *page < 1 {
		return usageError(stderr, "top", "--page must be 1 or more")
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "top", "give one server: ttytanks top HOST[:PORT]")
	}
	p, code := f.ask("top", fs.Arg(0), (*page-1)*proto.MaxLadderPage, proto.MaxLadderPage, false, stderr)
	if code != 0 {
		return code
	}
	if f.json {
		return printJSON(stdout, stderr, "top", topJSONOf(fs.Arg(0), &p))
	}
	printTop(stdout, &p, f.keyed)
	return 0
}

// Me is "ttytanks me [HOST[:PORT]]": who you are (your player key), and
// with a server your record there; --forget deletes that record.
func Me(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("me", "me [HOST[:PORT]] [flags]", stdout)
	var f ladderAsk
	f.register(fs, "me")
	forget := fs.Bool("forget", false, "delete your record from the server's ladder (proved by your key): your name is free again, your past matches show (forgotten)")
	if code, done := parseFlags(fs, args, stderr); done {
		return code
	}
	switch {
	case fs.NArg() > 1:
		return usageError(stderr, "me", fmt.Sprintf("unexpected argument %q", fs.Arg(1)))
	case fs.NArg() == 0 && *forget:
		return usageError(stderr, "me", "--forget needs the server: ttytanks me HOST[:PORT] --forget")
	}
	key, path, err := f.id.loadIfMade()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks me: %v\n", err)
		return 1
	}
	if key == nil {
		fmt.Fprintf(stderr, "ttytanks me: no player key at %s yet, so no record: your first ttytanks join makes one (or give --player-key FILE)\n", path)
		return 1
	}
	fp := known.Fingerprint(key.Public().(ed25519.PublicKey))
	if fs.NArg() == 0 {
		if f.json {
			return printJSON(stdout, stderr, "me", map[string]string{"key": fp})
		}
		fmt.Fprintf(stdout, "your player key: %s\n", fp)
		return 0
	}
	p, code := f.ask("me", fs.Arg(0), 0, 0, *forget, stderr)
	if code != 0 {
		return code
	}
	if f.json {
		out := meJSON{Server: fs.Arg(0), Key: fp, Forgotten: p.Forgotten, Ranked: p.Ranked}
		if p.HasCard {
			c := cardJSONOf(&p.Card)
			out.Record = &c
		}
		return printJSON(stdout, stderr, "me", out)
	}
	fmt.Fprintf(stdout, "your player key: %s\n", fp)
	switch {
	case p.Forgotten:
		fmt.Fprintf(stdout, "your record on %s is deleted: your name is free, your past matches show (forgotten)\n", fs.Arg(0))
	case !p.HasCard && *forget:
		fmt.Fprintf(stdout, "%s has no record of you: nothing to delete\n", fs.Arg(0))
	case !p.HasCard:
		fmt.Fprintf(stdout, "%s has no record of you: a ranked match there makes one (against a player of another address: two of one machine or network are not rated against each other)\n", fs.Arg(0))
	default:
		printCard(stdout, &p.Card, p.Ranked)
	}
	return 0
}

// ladderAsk is what top and me share: the server's key check, who asks,
// and the output.
type ladderAsk struct {
	id        identityFlags
	serverKey string
	json      bool
	wait      time.Duration
	keyed     bool // set by ask: the asker proved a player key
	fs        *pflag.FlagSet
}

func (f *ladderAsk) register(fs *pflag.FlagSet, cmd string) {
	f.fs = fs
	f.id.registerReader(fs, cmd)
	fs.StringVar(&f.serverKey, "server-key", "", "talk only to a server whose key has this fingerprint (SHA256:…); otherwise known_servers decides, as for join")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	fs.DurationVar(&f.wait, "timeout", 5*time.Second, "give up when the server has not answered for this long")
}

// ask takes a lobby viewer's place at addr, asks its ladder, and leaves;
// code is the exit code of a failure (0: p is the answer).
func (f *ladderAsk) ask(cmd, addr string, offset, count int, forget bool, stderr io.Writer) (p proto.LadderPage, code int) {
	if f.wait <= 0 {
		return p, usageError(stderr, cmd, "--timeout must be positive")
	}
	if err := f.id.check(f.fs); err != nil {
		return p, usageError(stderr, cmd, err.Error())
	}
	host, port, err := splitServer(addr)
	if err != nil {
		return p, usageError(stderr, cmd, err.Error())
	}
	trust, err := serverTrust(net.JoinHostPort(host, strconv.Itoa(int(port))), f.serverKey)
	if err != nil {
		return p, usageError(stderr, cmd, err.Error())
	}
	target, err := resolveServer(host, port)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks %s: %v\n", cmd, err)
		return p, 1
	}
	key, _, err := f.id.loadIfMade()
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks %s: %v\n", cmd, err)
		return p, 1
	}
	f.keyed = key != nil
	p, err = askLadder(&clientSetup{target: target, trust: trust.check, identify: signer(key)}, offset, count, forget, f.wait)
	if note := trust.note(); note != "" {
		fmt.Fprintln(stderr, note)
	}
	if err == nil && p.Off {
		err = errors.New("this server keeps no ladder")
	}
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks %s: %s: %v\n", cmd, addr, err)
		return p, 1
	}
	return p, 0
}

// askLadder asks cs's server for a page of its leaderboard (and, with
// forget, to delete the asker's record first) from a lobby viewer's
// place, within wait.
func askLadder(cs *clientSetup, offset, count int, forget bool, wait time.Duration) (proto.LadderPage, error) {
	d, err := startClient(cs, netcode.RoomRequest{Kind: netcode.RoomLobby, Spectate: true})
	if err != nil {
		return proto.LadderPage{}, err
	}
	defer d.Close()
	deadline := time.Now().Add(wait)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	asked := false
	var v netcode.View
	for {
		select {
		case <-d.Done():
			return proto.LadderPage{}, errors.New(endMessage(d, cs.target))
		case <-tick.C:
		}
		d.View(&v)
		switch {
		case v.Ladder.Has:
			return v.Ladder.Page, nil
		case v.Ladder.Unanswered:
			return proto.LadderPage{}, errors.New("the server did not answer for its ladder")
		case time.Now().After(deadline):
			return proto.LadderPage{}, fmt.Errorf("no answer from %v in %v: is a ttytanks server running there?", cs.target, wait)
		case !asked && (v.Status == netcode.StatusWaiting || v.Status == netcode.StatusPlaying):
			d.AskLadder(offset, count, forget)
			asked = true
		}
	}
}

// printTop writes the leaderboard as a table, then the asker's line
// (keyed: the asker has a player key, so a missing card is a player
// the server has no record of).
func printTop(w io.Writer, p *proto.LadderPage, keyed bool) {
	if len(p.Lines) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "RANK\tNAME\tRATING\t±2RD\tMATCHES\tWINS\n")
		for _, l := range p.Lines {
			fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\n", l.Rank, l.Name, l.Rating, 2*int(l.RD), l.Matches, l.Wins)
		}
		tw.Flush()
	}
	fmt.Fprint(w, plural(int(p.Ranked), "ranked player"))
	switch {
	case len(p.Lines) > 0:
		fmt.Fprintf(w, "; shown %d–%d", p.Offset+1, int(p.Offset)+len(p.Lines))
	case p.Offset > 0:
		pages := (int(p.Ranked) + proto.MaxLadderPage - 1) / proto.MaxLadderPage
		fmt.Fprintf(w, "; page %d is past the end (%s)", int(p.Offset)/proto.MaxLadderPage+1, plural(pages, "page"))
	}
	fmt.Fprintln(w)
	switch c := &p.Card; {
	case p.HasCard && c.Rank > 0:
		fmt.Fprintf(w, "you: #%d %s %d ± %d, %s, %s\n", c.Rank, c.Name, c.Rating, 2*int(c.RD), plural(int(c.Matches), "match"), plural(int(c.Wins), "win"))
	case p.HasCard:
		fmt.Fprintf(w, "you: %s, unranked: play a ranked match\n", c.Name)
	case keyed:
		fmt.Fprintln(w, "you: no record here yet: play a ranked match")
	}
}

// printCard writes a player's record.
func printCard(w io.Writer, c *proto.LadderCard, ranked uint32) {
	rank := "unranked: play a ranked match"
	if c.Rank > 0 {
		rank = fmt.Sprintf("#%d of %d", c.Rank, ranked)
	}
	acc := "-"
	if c.Shots > 0 {
		acc = fmt.Sprintf("%d%%", c.Hits*100/c.Shots)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "name\t%s\n", c.Name)
	fmt.Fprintf(tw, "rank\t%s\n", rank)
	fmt.Fprintf(tw, "rating\t%d ± %d (95%%)\n", c.Rating, 2*int(c.RD))
	fmt.Fprintf(tw, "matches\t%d rated, %d won\n", c.Matches, c.Wins)
	fmt.Fprintf(tw, "rounds won\t%d\n", c.RoundWins)
	fmt.Fprintf(tw, "kills / deaths\t%d / %d\n", c.Kills, c.Deaths)
	fmt.Fprintf(tw, "shots / hits\t%d / %d (accuracy %s)\n", c.Shots, c.Hits, acc)
	fmt.Fprintf(tw, "time played\t%v\n", time.Duration(c.Seconds)*time.Second)
	tw.Flush()
}

// The JSON of top and me.
type (
	lineJSON struct {
		Rank    uint32 `json:"rank"`
		Name    string `json:"name"`
		Rating  uint16 `json:"rating"`
		RD      uint16 `json:"rd"`
		Matches uint32 `json:"matches"`
		Wins    uint32 `json:"wins"`
	}
	cardJSON struct {
		lineJSON
		RoundWins uint32 `json:"round_wins"`
		Kills     uint32 `json:"kills"`
		Deaths    uint32 `json:"deaths"`
		Shots     uint32 `json:"shots"`
		Hits      uint32 `json:"hits"`
		Seconds   uint32 `json:"seconds_played"`
	}
	topJSON struct {
		Server  string     `json:"server"`
		Ranked  uint32     `json:"ranked"`
		Offset  uint32     `json:"offset"`
		Players []lineJSON `json:"players"`
		You     *cardJSON  `json:"you,omitempty"`
	}
	meJSON struct {
		Server    string    `json:"server"`
		Key       string    `json:"key"`
		Ranked    uint32    `json:"ranked"`
		Forgotten bool      `json:"forgotten,omitempty"`
		Record    *cardJSON `json:"record,omitempty"`
	}
)

func lineJSONOf(l *proto.LadderLine) lineJSON {
	return lineJSON{Rank: l.Rank, Name: l.Name, Rating: l.Rating, RD: l.RD, Matches: l.Matches, Wins: l.Wins}
}

func cardJSONOf(c *proto.LadderCard) cardJSON {
	return cardJSON{lineJSON: lineJSONOf(&c.LadderLine), RoundWins: c.RoundWins, Kills: c.Kills, Deaths: c.Deaths, Shots: c.Shots, Hits: c.Hits, Seconds: c.Seconds}
}

func topJSONOf(server string, p *proto.LadderPage) topJSON {
	out := topJSON{Server: server, Ranked: p.Ranked, Offset: p.Offset, Players: []lineJSON{}}
	for i := range p.Lines {
		out.Players = append(out.Players, lineJSONOf(&p.Lines[i]))
	}
	if p.HasCard {
		c := cardJSONOf(&p.Card)
		out.You = &c
	}
	return out
}

// printJSON writes v as indented JSON.
func printJSON(stdout, stderr io.Writer, cmd string, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "ttytanks %s: %v\n", cmd, err)
		return 1
	}
	return 0
}
