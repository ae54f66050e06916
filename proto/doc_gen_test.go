package proto

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"ttytanks/game"
)

// The State example of PROTOCOL.md §5.7 and the hash table of §9.3 are
// generated from docState by the code below, annotations included, and
// TestDocStateBlocksGenerated requires the document to hold exactly what
// it generates. After a change to the State layout or the hash, run
//
//	go test ./proto -run TestDocStateBlocksGenerated -update-doc
//
// and read the diff of PROTOCOL.md.

var updateDoc = flag.Bool("update-doc", false, "rewrite the State examples and the hash table of PROTOCOL.md from docState and docStateDelta")

// docState is the State of the worked examples: 3 slots, slot 2 free (so
// it has no stats on the wire), 2 bullets in flight.
func docState() *State {
	s := game.Snapshot{
		Tick:        1002,
		RNG:         0x0123456789abcdef,
		Slots:       3,
		RoundsToWin: 5,
		Round: game.Round{Number: 3, Phase: game.PhasePlaying, Timer: 5000, Winner: 1,
			MazeSeed: 0xfeedfacecafebeef, MazeW: 25, MazeH: 21},
		NumBullets: 2,
	}
	s.Tanks[0] = game.Tank{X: 1536, Y: 1536, VX: 45, VY: -45, AimX: 1, AimY: -1, HP: 3,
		Cooldown: 7, Alive: true, Seated: true, Score: 2,
		Stats: game.Stats{Kills: 3, Deaths: 1, Shots: 75, Hits: 9}}
	s.Tanks[1] = game.Tank{X: 23000, Y: 20000, VX: -96, AimX: -1, HP: 1, Hitstun: 18,
		Alive: true, Seated: true, Score: 1,
		Stats: game.Stats{Kills: 1, Deaths: 2, Shots: 300, Hits: 4}}
	s.Bullets[0] = game.Bullet{X: 2048, Y: 1600, VX: 120, Life: 239}
	s.Bullets[1] = game.Bullet{X: 10000, Y: 15000, VX: -85, VY: 85, Owner: 1, Bounces: 5, Life: 12}
	return &State{
		Header: Header{Type: TypeState, Session: 0x3f6a1c2e9b0d4758, Match: 42, Player: 0, Seq: 1002},
		AckInfo: AckInfo{ServerTick: 1002, NewestInput: 1003, MarginMs: 15, EchoTime: 35388,
			EchoDelay: 25, Received: 998, Guessed: 3},
		Snapshot: s,
		Hash:     game.Hash(&s),
	}
}

// docStateDelta is the delta State of the worked examples: the State
// of docState stepped four ticks, as a client that holds docState's
// snapshot receives it. Seat 0 drives right and fires on the third tick,
// seat 1 drives up, seat 2 is free (neutral).
func docStateDelta() *State {
	base := docState()
	p := &State{
		Header: Header{Type: TypeState, Session: 0x3f6a1c2e9b0d4758, Match: 42, Player: 0, Seq: 1006},
		AckInfo: AckInfo{ServerTick: 1006, NewestInput: 1008, MarginMs: 14, EchoTime: 35455,
			EchoDelay: 31, Received: 1001, Guessed: 3},
		Back: 4,
	}
	p.Snapshot.Tick, p.Snapshot.Slots = 1006, base.Snapshot.Slots
	for k := 0; k < 4; k++ {
		t := base.Snapshot.Tick.Add(int32(k))
		in := [3]game.Input{{Tick: t, MoveX: 1}, {Tick: t, MoveY: -1}, {Tick: t}}
		if k == 2 {
			in[0].Buttons = game.ButtonFire
		}
		copy(p.Steps[3-k][:], in[:])
	}
	w := docWorld(&base.Snapshot)
	for k := 0; k < int(p.Back); k++ {
		w.Step(p.StepInputs(k))
	}
	p.Hash = w.Hash()
	return p
}

// docWorld returns a world restored from s.
func docWorld(s *game.Snapshot) *game.World {
	w, err := game.NewWorld(game.Config{Slots: int(s.Slots), MazeW: int(s.Round.MazeW), MazeH: int(s.Round.MazeH)})
	if err != nil {
		panic(err)
	}
	w.Restore(s)
	return w
}

// docStateDeltaHex returns the annotated hex of p (a delta State), as
// PROTOCOL.md shows it.
func docStateDeltaHex(p *State) string {
	a := &annotated{b: p.Append(nil)}
	a.add(2, `magic "TT"`)
	a.add(1, "version %d", Version)
	a.add(1, "type 7 State")
	a.add(8, "session")
	a.add(4, "match %d", p.Match)
	a.add(1, "player %d", p.Player)
	a.add(4, "seq %d", p.Seq)
	a.add(4, "server tick %d", p.Snapshot.Tick)
	a.add(4, "newest input tick %d", p.NewestInput)
	a.add(2, "margin %+d ms (early)", p.MarginMs)
	a.add(2, "echo time %d", p.EchoTime)
	a.add(2, "echo delay %d × 10 µs = %d µs", p.EchoDelay, 10*int(p.EchoDelay))
	a.add(2, "received %d", p.Received)
	a.add(8, "hash of the snapshot the client rebuilds")
	a.add(2, "guessed %d ticks", p.Guessed)
	a.add(1, "back %d: a delta from the State of tick %d", p.Back, p.Base())
	a.add(1, "slots %d", p.Snapshot.Slots)
	for slot := 0; slot < int(p.Snapshot.Slots); slot++ {
		k := 0
		p.eachRun(slot, func(in game.Input, ticks int, last bool) {
			what := fmt.Sprintf("move %s,%s", signed(int32(in.MoveX)), signed(int32(in.MoveY)))
			if in.Buttons&game.ButtonFire != 0 {
				what += ", fire"
			}
			from := p.Base().Add(int32(k))
			if last {
				a.add(1, "slot %d: %s from tick %d to the State (bit 7: the last run)", slot, what, from)
				return
			}
			a.add(2, "slot %d: %s for %d ticks from tick %d", slot, what, ticks, from)
			k += ticks
		})
	}
	if len(a.b) != 0 {
		panic("docStateDeltaHex: bytes left over")
	}
	return strings.Join(a.lines, "\n") + "\n"
}

// annotated builds a hex block: each line the bytes of one field, padded,
// then "# " and what they are.
type annotated struct {
	lines []string
	b     []byte
}

func (a *annotated) add(n int, format string, args ...any) {
	field := a.b[:n]
	a.b = a.b[n:]
	a.lines = append(a.lines, fmt.Sprintf("%-17s # %s", fmt.Sprintf("%x", field), fmt.Sprintf(format, args...)))
}

func aimName(v int8) string {
	switch v {
	case 1:
		return "+1 (01)"
	case -1:
		return "-1 (11)"
	}
	return "0 (00)"
}

func signed(v int32) string {
	if v > 0 {
		return fmt.Sprintf("+%d", v)
	}
	return fmt.Sprint(v)
}

// docStateHex returns the annotated hex of p (a State), as PROTOCOL.md
// shows it.
func docStateHex(p *State) string {
	a := &annotated{b: p.Append(nil)}
	s := &p.Snapshot
	a.add(2, `magic "TT"`)
	a.add(1, "version %d", Version)
	a.add(1, "type 7 State")
	a.add(8, "session")
	a.add(4, "match %d", p.Match)
	a.add(1, "player %d", p.Player)
	a.add(4, "seq %d", p.Seq)
	a.add(4, "server tick %d", s.Tick)
	a.add(4, "newest input tick %d", p.NewestInput)
	a.add(2, "margin %+d ms (early)", p.MarginMs)
	a.add(2, "echo time %d", p.EchoTime)
	a.add(2, "echo delay %d × 10 µs = %d µs", p.EchoDelay, 10*int(p.EchoDelay))
	a.add(2, "received %d", p.Received)
	a.add(8, "hash = game.Hash(&snapshot), worked out in §9.3")
	a.add(2, "guessed %d ticks", p.Guessed)
	a.add(1, "back 0: a full State, the snapshot follows")
	a.add(8, "rng")
	a.add(1, "slots %d", s.Slots)
	a.add(1, "bullets %d", s.NumBullets)
	a.add(2, "round number %d", s.Round.Number)
	a.add(1, "phase %d %v", s.Round.Phase, s.Round.Phase)
	a.add(2, "timer %d ticks", s.Round.Timer)
	a.add(1, "winner %d", s.Round.Winner)
	a.add(8, "maze seed")
	a.add(1, "maze width %d", s.Round.MazeW)
	a.add(1, "maze height %d", s.Round.MazeH)
	a.add(1, "rounds to win %d", s.RoundsToWin)
	for i := range s.Tanks[:s.Slots] {
		t := &s.Tanks[i]
		if !t.Seated {
			a.add(TankLen, "tank %d: a free seat, 12 zero bytes and no stats", i)
			continue
		}
		a.add(2, "tank %d: x %d", i, t.X)
		a.add(2, "tank %d: y %d", i, t.Y)
		a.add(1, "tank %d: vx %s", i, signed(t.VX))
		a.add(1, "tank %d: vy %s", i, signed(t.VY))
		flags := a.b[0]
		what := []string{"aim x " + aimName(t.AimX), "aim y " + aimName(t.AimY)}
		if t.Alive {
			what = append(what, "alive")
		}
		what = append(what, "seated")
		if t.Rematch {
			what = append(what, "rematch")
		}
		a.add(1, "tank %d: flags %#02x: %s", i, flags, strings.Join(what, ", "))
		a.add(1, "tank %d: hp %d", i, t.HP)
		a.add(1, "tank %d: cooldown %d", i, t.Cooldown)
		a.add(1, "tank %d: hitstun %d", i, t.Hitstun)
		a.add(2, "tank %d: score %d", i, t.Score)
		a.add(2, "tank %d: kills %d", i, t.Stats.Kills)
		a.add(2, "tank %d: deaths %d", i, t.Stats.Deaths)
		a.add(2, "tank %d: shots %d", i, t.Stats.Shots)
		a.add(2, "tank %d: hits %d", i, t.Stats.Hits)
	}
	for k := range s.Bullets[:s.NumBullets] {
		u := &s.Bullets[k]
		a.add(2, "bullet %d: x %d", k, u.X)
		a.add(2, "bullet %d: y %d", k, u.Y)
		a.add(1, "bullet %d: vx %s", k, signed(u.VX))
		a.add(1, "bullet %d: vy %s", k, signed(u.VY))
		a.add(1, "bullet %d: %#02x: owner %d, bounces %d", k, a.b[0], u.Owner, u.Bounces)
		a.add(1, "bullet %d: life %d", k, u.Life)
	}
	if len(a.b) != 0 {
		panic("docStateHex: bytes left over")
	}
	return strings.Join(a.lines, "\n") + "\n"
}

// docHashTableText returns the worked example of §9.3 for p: the words
// of its State with h after each and what each holds, then the hash.
func docHashTableText(t testing.TB, p *State) string {
	b := p.Append(nil)
	words := docStateHashWords(t, b)
	steps, hash := docFold(words)
	s := &p.Snapshot
	r := &s.Round
	var what []string
	what = append(what,
		fmt.Sprintf("tick %d", s.Tick),
		"rng",
		fmt.Sprintf("slots %d, rounds to win %d", s.Slots, s.RoundsToWin),
		fmt.Sprintf("round: number %d, phase %d, timer %#x = %d, winner %d, maze %#x × %#x = %d × %d",
			r.Number, r.Phase, r.Timer, r.Timer, r.Winner, r.MazeW, r.MazeH, r.MazeW, r.MazeH),
		"maze seed")
	for i := range s.Tanks[:s.Slots] {
		tk := &s.Tanks[i]
		if !tk.Seated {
			for _, part := range []string{"position", "velocity", "state", "stats"} {
				what = append(what, fmt.Sprintf("tank %d: a free seat, %s zero", i, part))
			}
			continue
		}
		flags := b2(tk.Alive) | b2(tk.Seated)<<1 | b2(tk.Rematch)<<2
		var set []string
		for _, f := range []struct {
			on   bool
			name string
		}{{tk.Alive, "alive"}, {tk.Seated, "seated"}, {tk.Rematch, "rematch"}} {
			if f.on {
				set = append(set, f.name)
			}
		}
		what = append(what,
			fmt.Sprintf("tank %d: x %d, y %d", i, tk.X, tk.Y),
			fmt.Sprintf("tank %d: vx %s, vy %s", i, signed(tk.VX), signed(tk.VY)),
			fmt.Sprintf("tank %d: aim %s, %s; hp %d; cooldown %d; hitstun %d (%02x); %s (%02x); score %d",
				i, hashAim(tk.AimX), hashAim(tk.AimY), tk.HP, tk.Cooldown, tk.Hitstun, tk.Hitstun,
				strings.Join(set, ", "), flags, tk.Score),
			fmt.Sprintf("tank %d: kills %d, deaths %d, shots %d, hits %d", i,
				tk.Stats.Kills, tk.Stats.Deaths, tk.Stats.Shots, tk.Stats.Hits))
	}
	what = append(what, fmt.Sprintf("bullets %d", s.NumBullets))
	for k := range s.Bullets[:s.NumBullets] {
		u := &s.Bullets[k]
		what = append(what,
			fmt.Sprintf("bullet %d: x %d, y %d", k, u.X, u.Y),
			fmt.Sprintf("bullet %d: vx %s, vy %s", k, signed(u.VX), signed(u.VY)),
			fmt.Sprintf("bullet %d: owner %d, bounces %d, life %d (%02x)", k, u.Owner, u.Bounces, u.Life, u.Life))
	}
	if len(what) != len(words) {
		t.Fatalf("docHashTableText: %d words, %d descriptions", len(words), len(what))
	}
	var sb strings.Builder
	sb.WriteString("# word            h after it\n")
	for i, w := range words {
		fmt.Fprintf(&sb, "%016x  %016x  # %s\n", w, steps[i], what[i])
	}
	fmt.Fprintf(&sb, "%016x                    # fmix64(h): the hash\n", hash)
	return sb.String()
}

func b2(v bool) int {
	if v {
		return 1
	}
	return 0
}

func hashAim(v int8) string {
	switch v {
	case 1:
		return "+1 (01)"
	case -1:
		return "-1 (ff)"
	}
	return "0 (00)"
}

// replaceBlock replaces the body of the fenced block that follows the
// line marker in doc with body, and reports whether it found it.
func replaceBlock(doc []byte, marker, body string) ([]byte, bool) {
	i := bytes.Index(doc, []byte(marker+"\n"))
	if i < 0 {
		return doc, false
	}
	start := bytes.IndexByte(doc[i+len(marker)+1:], '\n') // end of the fence line
	if start < 0 {
		return doc, false
	}
	start += i + len(marker) + 2
	end := bytes.Index(doc[start:], []byte("```\n"))
	if end < 0 {
		return doc, false
	}
	end += start
	out := append([]byte{}, doc[:start]...)
	out = append(out, body...)
	return append(out, doc[end:]...), true
}

// TestDocStateBlocksGenerated requires PROTOCOL.md's State example and
// hash table to be what docState generates (see the comment at the top
// of this file), and rewrites them with -update-doc.
func TestDocStateBlocksGenerated(t *testing.T) {
	doc, err := os.ReadFile("../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	p := docState()
	got, ok := replaceBlock(doc, "<!-- example: State -->", docStateHex(p))
	if !ok {
		t.Fatal("PROTOCOL.md has no State example block")
	}
	got, ok = replaceBlock(got, "<!-- hash words: the State of 5.7 -->", docHashTableText(t, p))
	if !ok {
		t.Fatal("PROTOCOL.md has no hash words block")
	}
	got, ok = replaceBlock(got, "<!-- example: StateDelta -->", docStateDeltaHex(docStateDelta()))
	if !ok {
		t.Fatal("PROTOCOL.md has no StateDelta example block")
	}
	if *updateDoc {
		if err := os.WriteFile("../PROTOCOL.md", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, doc) {
		t.Fatal("PROTOCOL.md's State example or hash table is not what docState generates; " +
			"run go test ./proto -run TestDocStateBlocksGenerated -update-doc and check the diff")
	}
}
