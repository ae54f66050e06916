package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"ttytanks/internal/agones"
	"ttytanks/netcode"
)

// agonesFlags are serve --agones: the server tells the Agones SDK
// sidecar how it is (internal/agones).
type agonesFlags struct {
	on   bool
	base string // the sidecar's REST URL, from AGONES_SDK_HTTP_PORT (check sets it)
}

func (f *agonesFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.on, "agones", false, "run as an Agones game server: needs the Agones SDK sidecar, whose REST API it calls on localhost at the port in AGONES_SDK_HTTP_PORT (default 9358); Ready once serving, health every 2s while the game loop ticks, the rooms counter and players list, Shutdown at exit")
}

// check returns the first usage error of --agones: with --play (play),
// or with an AGONES_SDK_HTTP_PORT (read with getenv) that is no port.
func (f *agonesFlags) check(play bool, getenv func(string) string) error {
	if !f.on {
		return nil
	}
	if play {
		return errors.New("--agones does not go with --play")
	}
	base, err := agones.BaseURL(getenv)
	if err != nil {
		return fmt.Errorf("--agones: %v", err)
	}
	f.base = base
	return nil
}

// startAgones starts serve --agones's runner, if the flag is given, on
// the server that serves now; fleet names the fleet for the label
// ttytanks.fleet ("": no label). The function it returns stops the
// runner and tells Agones Shutdown (at the end of a drain, or any other
// stop, before serve exits).
func (s *serving) startAgones(fleet string) (stop func()) {
	if !s.f.agones.on {
		return func() {}
	}
	client := agones.NewClient(s.f.agones.base)
	r := agones.Start(agones.Config{Client: client, FleetName: fleet, Logger: s.logger,
		RoomsCapacity: int64(s.f.server.maxRooms), MaxPlayers: s.f.server.maxRooms * s.f.server.players,
		Sample: func() agones.Figures {
			var f agones.Figures
			s.sd.Do(func(srv *netcode.Server) { st := srv.Stats(); f = agones.FiguresOf(&st) })
			return f
		}})
	s.logger.Info("agones", "sdk", s.f.agones.base)
	return func() {
		_ = r.Stop() // it logs its outcome
		client.Close()
	}
}
