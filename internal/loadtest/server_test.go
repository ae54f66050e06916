package loadtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"testing"
	"time"

	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// childServerEnv, set, makes the test binary a server of rooms of that
// many seats (TestMain): the benchmarks run their server in a process of
// its own, so the load generator's CPU and allocations are its own.
const childServerEnv = "TTYTANKS_LOADTEST_CHILD_SERVER"

func TestMain(m *testing.M) {
	if seats := os.Getenv(childServerEnv); seats != "" {
		os.Exit(childServer(seats))
	}
	os.Exit(m.Run())
}

// listenServer opens a server of rooms of seats on 127.0.0.1, as serve
// --players seats --max-rooms 255 would, and returns its driver and
// address.
func listenServer(seats int) (*netcode.ServerDriver, netip.AddrPort, error) {
	st, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		return nil, netip.AddrPort{}, err
	}
	srv, err := netcode.NewServer(netcode.ServerConfig{Players: seats, MaxRooms: 255, Seed: 1})
	if err != nil {
		st.Close()
		return nil, netip.AddrPort{}, err
	}
	return netcode.NewServerDriver(srv, st), st.LocalAddr(), nil
}

// childServer runs a server of rooms of seats, writes its address on
// stdout and serves until stdin closes.
func childServer(seats string) int {
	var n int
	if _, err := fmt.Sscan(seats, &n); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	sd, addr, err := listenServer(n)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	fmt.Println(addr)
	if err := sd.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// serve runs a server of rooms of seats over UDP on 127.0.0.1 in this
// process until the test ends, and returns its address.
func serve(t testing.TB, seats int) netip.AddrPort {
	t.Helper()
	sd, addr, err := listenServer(seats)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sd.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return addr
}

// serveChild runs a server of rooms of seats in a child process (this
// test binary, see TestMain) until the test ends, and returns its
// address.
func serveChild(t testing.TB, seats int) netip.AddrPort {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", childServerEnv, seats))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the child's cue to stop
		if err := cmd.Wait(); err != nil {
			t.Errorf("the child server: %v", err)
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the child server's address: %v", err)
	}
	addr, err := netip.ParseAddrPort(line[:len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// stepUntil runs s's loop a pass at a time until cond holds, and fails
// the test if it does not within limit, or the shard ends first.
func stepUntil(t testing.TB, s *shard, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	giveUp := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(giveUp) {
			t.Fatalf("%s: not within %v (the clients: %v)", what, limit, statuses(s))
		}
		if !s.step() {
			t.Fatalf("%s: the shard ended first (%v)", what, s.openErr)
		}
	}
}
