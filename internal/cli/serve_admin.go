package cli

import (
	"context"
	"fmt"
	"net"

	"ttytanks/internal/admin"
	"ttytanks/netcode"
)

// startAdmin opens serve --admin's listener on addr and starts its
// sampler, which samples the server once a second through the driver
// (never blocking the loop for longer than Stats takes); stop ends both.
func (s *serving) startAdmin(addr string, rec *roomRecorders) (srv *admin.Server, stop func(), err error) {
	srv, err = admin.New(admin.Config{Logger: s.logger, Sample: func() admin.Figures {
		var f admin.Figures
		s.sd.Do(func(srv *netcode.Server) { f.Server = srv.Stats() })
		if s.ssh != nil {
			f.SSHSessions = s.ssh.Sessions()
		}
		if rec != nil {
			f.RecordingsWritten, f.RecordingsFailed = rec.counts()
		}
		if s.fleet != nil {
			f.Fleet, f.RedisCommands = true, s.fleet.ops()
		}
		return f
	}})
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("--admin: cannot listen on %s: %w", addr, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv.Refresh() // the first sample before the first request
	go srv.Run(ctx)
	go func() {
		if err := srv.Serve(ln); err != nil {
			s.logger.Error("admin listener stopped", "err", err)
		}
	}()
	s.logger.Info("admin listening", "addr", ln.Addr().String(), "paths", "/metrics /livez /readyz")
	return srv, func() { cancel(); srv.Close() }, nil
}
