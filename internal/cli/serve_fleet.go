package cli

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"

	"github.com/spf13/pflag"

	"ttytanks/internal/fleet"
	"ttytanks/known"
	"ttytanks/netcode"
)

// fleetFlags are serve's flags for a fleet: many servers, one lobby,
// through Redis.
type fleetFlags struct {
	url, password string
	name          string
	publicAddr    string
	publicSSH     string
}

func (f *fleetFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.url, "fleet", "", "join the fleet whose directory is this Redis: redis://[user:password@]HOST:PORT/DB (rediss:// for TLS); its servers share one lobby and send players to each other")
	fs.StringVar(&f.password, "fleet-password", "", "the fleet's Redis password (instead of putting it in --fleet's URL)")
	_ = fs.SetAnnotation("fleet", secretAnnotation, []string{"true"})
	_ = fs.SetAnnotation("fleet-password", secretAnnotation, []string{"true"})
	fs.StringVar(&f.name, "fleet-name", "", "this server's name in the fleet's lobby (default: its public address)")
	fs.StringVar(&f.publicAddr, "public-addr", "", "the UDP address players dial, IP:PORT or HOST:PORT (default: --addr when it names an IP); other servers of the fleet send players there")
	fs.StringVar(&f.publicSSH, "public-ssh", "", "the SSH address players dial, HOST:PORT (default: --ssh's), published to the fleet")
}

func (f *fleetFlags) check() error {
	if f.url == "" {
		for n, v := range map[string]string{"fleet-name": f.name, "fleet-password": f.password, "public-ssh": f.publicSSH} {
			if v != "" {
				return fmt.Errorf("--%s is for a fleet: give --fleet redis://HOST:PORT/DB too", n)
			}
		}
		return nil
	}
	if !strings.HasPrefix(f.url, "redis://") && !strings.HasPrefix(f.url, "rediss://") && !strings.HasPrefix(f.url, "unix://") {
		return fmt.Errorf("--fleet %q is not a Redis URL like redis://127.0.0.1:6379/0", fleet.Redact(f.url))
	}
	if len(f.name) > 32 {
		return fmt.Errorf("--fleet-name is at most 32 bytes")
	}
	return nil
}

// publicUDP returns the address the fleet sends players to: --public-addr
// resolved to an IP, else the socket's own address if it names one.
func (f *fleetFlags) publicUDP(bound netip.AddrPort) (netip.AddrPort, error) {
	if f.publicAddr == "" {
		if bound.Addr().IsUnspecified() {
			return netip.AddrPort{}, fmt.Errorf("--fleet: this server listens on every address (%v): say which one players dial with --public-addr IP:PORT", bound)
		}
		return bound, nil
	}
	ua, err := net.ResolveUDPAddr("udp", f.publicAddr)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("--public-addr %q: %v", f.publicAddr, err)
	}
	ap := ua.AddrPort()
	if !ap.Addr().IsValid() || ap.Addr().IsUnspecified() || ap.Port() == 0 {
		return netip.AddrPort{}, fmt.Errorf("--public-addr %q: give the address and port players dial", f.publicAddr)
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}

// fleetMember is a serving server's membership of its fleet.
type fleetMember struct {
	m    *fleet.Member
	self netip.AddrPort
	name string
	// ops counts the member's Redis commands, for the metrics.
	ops func() uint64
}

// joinFleet starts the membership of the server driven by sd, reachable
// at public (and sshAddr), with key; its views go to the server.
func (f *fleetFlags) join(sd *netcode.ServerDriver, public netip.AddrPort, sshAddr string, key ed25519.PublicKey, logger *slog.Logger) (*fleetMember, error) {
	name := f.name
	if name == "" {
		name = public.String()
	}
	if f.publicSSH != "" {
		sshAddr = f.publicSSH
	}
	fp := known.Fingerprint(key)
	var logged atomic.Bool
	m, err := fleet.Join(fleet.Config{URL: f.url, Password: f.password, Logger: logger,
		Self: func() fleet.Server {
			rec := fleet.Server{ID: public.String(), Name: name, SSH: sshAddr, Key: key, Fingerprint: fp}
			var rooms []netcode.FleetRoom
			sd.Do(func(s *netcode.Server) {
				rooms = s.FleetRooms(nil)
				rec.Players, rec.Capacity, rec.Draining = s.FleetLoad()
			})
			rec.Rooms = recordRooms(rooms)
			return rec
		},
		OnView: func(v fleet.View) {
			fv := fleetView(public, v, logger, &logged)
			sd.Do(func(s *netcode.Server) { s.SetFleet(fv) })
		}})
	if err != nil {
		return nil, err
	}
	logger.Info("fleet joined", "redis", fleet.Redact(f.url), "public", public.String(), "name", name)
	return &fleetMember{m: m, self: public, name: name, ops: m.Ops}, nil
}

// recordRooms turns the server's rooms into its record's.
func recordRooms(rooms []netcode.FleetRoom) []fleet.Room {
	out := make([]fleet.Room, 0, len(rooms))
	for _, r := range rooms {
		fr := fleet.Room{Name: r.Name, Players: r.Players, Seats: r.Seats, Bots: r.Bots, Spectators: r.Spectators,
			State: int(r.State), Round: r.Round, RoundsToWin: r.RoundsToWin, Leader: r.Leader, LeaderScore: r.LeaderScore, Closing: r.Closing, Ranked: r.Ranked}
		if r.Private {
			fr.Name, fr.CodeHash = "", hex.EncodeToString(r.CodeHash[:])
		}
		out = append(out, fr)
	}
	return out
}

// fleetView turns a view of the fleet's records into the server's: a
// record that does not parse is left out (and logged once).
func fleetView(self netip.AddrPort, v fleet.View, logger *slog.Logger, logged *atomic.Bool) netcode.FleetView {
	fv := netcode.FleetView{Self: self, Lost: v.Lost}
	for _, s := range v.Servers {
		addr, err := netip.ParseAddrPort(s.ID)
		if err != nil || len(s.Key) != ed25519.PublicKeySize {
			if logged.CompareAndSwap(false, true) {
				logger.Warn("fleet: a server's record is unusable; it is left out", "id", s.ID, "err", err)
			}
			continue
		}
		o := netcode.FleetServer{Addr: addr, Key: ed25519.PublicKey(s.Key), Name: s.Name, Players: s.Players, Capacity: s.Capacity, Draining: s.Draining}
		for _, r := range s.Rooms {
			fr := netcode.FleetRoom{RoomInfo: netcode.RoomInfo{Name: r.Name, Players: r.Players, Seats: r.Seats, Bots: r.Bots,
				Spectators: r.Spectators, State: netcode.RoomState(r.State), Round: r.Round, RoundsToWin: r.RoundsToWin,
				Leader: r.Leader, LeaderScore: r.LeaderScore, Closing: r.Closing, Ranked: r.Ranked, Server: s.ID}}
			if r.CodeHash != "" {
				b, err := hex.DecodeString(r.CodeHash)
				if err != nil || len(b) != len(fr.CodeHash) {
					continue
				}
				fr.Private = true
				copy(fr.CodeHash[:], b)
			}
			o.Rooms = append(o.Rooms, fr)
		}
		fv.Servers = append(fv.Servers, o)
	}
	return fv
}

// close leaves the fleet: the server's record is deleted.
func (m *fleetMember) close() {
	if m != nil {
		m.m.Close()
	}
}

// fleetName is the server's name in its fleet ("" outside one), for the
// Agones label.
func (s *serving) fleetName() string {
	if s.fleet == nil {
		return ""
	}
	return s.fleet.name
}

// fleetNote is the status line's and the dashboard's word on the fleet:
// "" outside one.
func (s *serving) fleetNote(st *netcode.ServerStats) string {
	if s.fleet == nil {
		return ""
	}
	f := &st.Fleet
	if f.Lost {
		return "LOST (Redis unreachable): this server's rooms only, a local lobby"
	}
	return fmt.Sprintf("%s, %d of %d places taken there, %s sent on", plural(f.Servers, "other server"), f.Players, f.Capacity, plural(int(f.Redirects), "player"))
}
