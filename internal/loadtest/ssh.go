package loadtest

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"

	"ttytanks/internal/cputime"
)

// RunSSH runs a load test of SSH players against the serve --ssh address
// addr: it opens cfg.Clients SSH sessions with w x h PTYs at cfg.Ramp a
// second; each lands in the lobby, quick-matches with n, then steers its
// tank with random arrows and fire, reading every byte of the screen,
// until cfg.Duration has passed. The error is one of resolving addr;
// what the sessions met is in the report.
func RunSSH(ctx context.Context, addr string, cfg *Config, w, h int) (*SSHReport, error) {
	target, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, err
	}
	tap := target.AddrPort()
	tap = netip.AddrPortFrom(tap.Addr().Unmap(), tap.Port())
	began := time.Now()
	cpu0, _ := cputime.Process()
	runCtx, cancel := context.WithDeadline(ctx, began.Add(cfg.Duration))
	defer cancel()
	var server *serverLoad
	if cfg.ServerStats != "" {
		readCtx, stopReading := context.WithCancel(ctx) // an early return ends the wait
		defer stopReading()
		server = watchServerLoad(readCtx, cfg.ServerStats, began, cfg.Duration)
	}
	clients := make([]*sshLoadClient, cfg.Clients)
	var wg sync.WaitGroup
	every := time.Duration(float64(time.Second) / cfg.Ramp)
	for i := range clients {
		lc := &sshLoadClient{id: i}
		clients[i] = lc
		wg.Go(func() {
			select {
			case <-runCtx.Done():
				lc.err = "never started"
				return
			case <-time.After(time.Until(began.Add(time.Duration(i) * every))):
			}
			lc.run(runCtx, tap, loadSource(tap, i, cfg.PerAddr), w, h)
		})
	}
	if cfg.Progress != nil {
		go showProgress(runCtx, cfg.Progress, began, cfg.Duration, func() string {
			n := 0
			for _, lc := range clients {
				if lc.inGame.Load() {
					n++
				}
			}
			return fmt.Sprintf("%d of %d sessions in a game", n, cfg.Clients)
		})
	}
	wg.Wait()
	wall := time.Since(began)
	cpu1, _ := cputime.Process()
	rep := collectSSH(clients, addr, w, h, wall)
	rep.LoadCPUPerS = float64(cpu1-cpu0) / float64(wall)
	rep.RampS = cfg.rampS()
	if server != nil {
		s, err := server.wait()
		if err != nil {
			rep.ServerStatsErr = err.Error()
		} else {
			rep.ServerLoad = s
			if rep.InGame > 0 {
				rep.ServerPerSess = s.CPUPerS / float64(rep.InGame)
			}
		}
	}
	return rep, nil
}

// collectSSH sums the sessions' figures into a report of a test of addr
// with w x h PTYs that ran for wall.
func collectSSH(clients []*sshLoadClient, addr string, w, h int, wall time.Duration) *SSHReport {
	rep := &SSHReport{Server: addr, Sessions: len(clients), Size: fmt.Sprintf("%dx%d", w, h), DurationS: wall.Seconds(),
		Errors: map[string]int{}}
	var conn, game []float64
	var bytesAll int64
	for _, lc := range clients {
		if lc.connected {
			rep.Connected++
			conn = append(conn, float64(lc.connectD)/float64(time.Millisecond))
		}
		if lc.inGame.Load() {
			rep.InGame++
			game = append(game, float64(lc.inGameD)/float64(time.Millisecond))
		}
		if lc.err != "" {
			rep.Errors[lc.err]++
		} else if !lc.inGame.Load() {
			rep.Errors["never reached a game"]++
		}
		bytesAll += lc.bytes.Load()
		rep.KeysSent += lc.keys
	}
	rep.ConnectP50ms, rep.ConnectP99ms = quantile(conn, 0.5), quantile(conn, 0.99)
	rep.InGameP50ms = quantile(game, 0.5)
	rep.BytesPerS = float64(bytesAll) / wall.Seconds() / float64(max(rep.Connected, 1))
	return rep
}
