package tests

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBinaryRooms: serve --rooms 2; three players join room a, two room b
// (which starts with a free seat after --start-wait), and a spectator
// watches room a: each plays with exactly its room's players, the
// spectator sees room a's and takes no seat, and the server's stats list
// both rooms.
func TestBinaryRooms(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := startServe(t, ctx, "--rooms", "2", "--players", "3", "--start-wait", "1s", "--spectator-delay", "1s",
		"--seats-per-addr", "8") // every player here is 127.0.0.1
	wait := map[string]*joinProc{}
	for _, n := range []string{"a1", "a2", "a3"} {
		wait[n] = srv.headless(t, ctx, n, "--room", "a", "--bot", "--duration", "5s")
	}
	for _, n := range []string{"b1", "b2"} {
		wait[n] = srv.headless(t, ctx, n, "--room", "b", "--bot", "--duration", "5s")
	}
	wait["watcher"] = srv.headless(t, ctx, "watcher", "--room", "a", "--spectate", "--duration", "5s")
	want := map[string][]string{"a": {"a1", "a2", "a3"}, "b": {"b1", "b2"}}
	for name, w := range wait {
		st := w.result(t)
		room := "a"
		if strings.HasPrefix(name, "b") {
			room = "b"
		}
		players := slices.Clone(st.Players)
		slices.Sort(players)
		status := st.Status
		if name == "watcher" && status == "waiting" {
			status = "playing" // the players may have left first: the room waits again
		}
		if status != "playing" || st.Room != room || !slices.Equal(players, want[room]) || st.HashMismatches != 0 {
			t.Errorf("%s: %s in room %q with %v, %d hash mismatches; want playing in %s with %v", name, st.Status, st.Room,
				st.Players, st.HashMismatches, room, want[room])
		}
		if (name == "watcher") != (st.Slot == -1) {
			t.Errorf("%s: slot %d", name, st.Slot)
		}
	}
	if _, err := srv.stop(t, os.Interrupt, 10*time.Second); err != nil {
		t.Fatalf("server exit: %v", err)
	}
	b, err := os.ReadFile(srv.stats)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Rooms []struct {
			Name    string `json:"name"`
			Seats   int    `json:"seats"`
			Players int    `json:"players"`
			State   string `json:"state"`
		} `json:"rooms"`
		Departed []struct {
			Name string `json:"name"`
			Room string `json:"room"`
		} `json:"departed"`
		Faults uint64 `json:"faults"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Rooms) != 2 || st.Rooms[0].Name != "a" || st.Rooms[1].Name != "b" || st.Faults != 0 {
		t.Fatalf("server stats: %s", b)
	}
	for _, d := range st.Departed {
		if d.Room != d.Name[:1] {
			t.Errorf("%s departed from room %q", d.Name, d.Room)
		}
	}
	if len(st.Departed) != 5 {
		t.Errorf("%d departed players, want the 5 (the spectator held no seat): %s", len(st.Departed), b)
	}
}

// TestBinaryMatchEndsAndRematch: a room of bots alone plays to two round
// wins; a spectator's stats report the winner and each player's round
// wins and kills; the bots' votes start a rematch in the same room.
func TestBinaryMatchEndsAndRematch(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: runs without -short")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := startServe(t, ctx, "--players", "2", "--bots", "2", "--rounds", "2")
	// Two rounds, their countdowns, the results: about 35 s of play, 50 s
	// with long rounds (the maze and the bots' luck come from the server's
	// random seed), then 5 s of results and the spectators' 2 s delay. The
	// spectator watches until the rematch has begun.
	st := srv.headless(t, ctx, "watcher", "--spectate", "--quick", "--duration", "80s").result(t)
	if st.MatchesEnded < 1 || st.Winner == "" || len(st.Results) != 2 {
		t.Fatalf("no finished match with a winner: %+v", st)
	}
	// Every round ends in a death, but not always in a kill: a tank can
	// die by its own bullet off a wall, which scores no one.
	wins, kills, deaths := 0, 0, 0
	for _, r := range st.Results {
		if r.Name == st.Winner && r.RoundWins != 2 {
			t.Errorf("the winner %s has %d round wins, want 2", r.Name, r.RoundWins)
		}
		wins += r.RoundWins
		kills += r.Kills
		deaths += r.Deaths
	}
	if wins < 2 || deaths < wins || kills > deaths {
		t.Errorf("results %+v: %d round wins, %d kills, %d deaths", st.Results, wins, kills, deaths)
	}
	if st.Rematches < 1 || st.Room != "a" || st.Status != "playing" || st.HashMismatches != 0 {
		t.Errorf("after the match: %d rematches, room %q, %s, %d mismatches; want a rematch in room a", st.Rematches, st.Room,
			st.Status, st.HashMismatches)
	}
}
