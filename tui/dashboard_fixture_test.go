package tui

import (
	"fmt"
	"time"

	"ttytanks/netcode"
)

// testFingerprint is a host key fingerprint as ssh prints it.
const testFingerprint = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s"

// testDashInfo says how to join over UDP and SSH.
var testDashInfo = DashboardInfo{Share: "host:7777", SSH: "ssh -p 2222 host", Fingerprint: testFingerprint}

// busyServer is a server with rooms×seats players: each room's first seat
// a bot, the second private room's code "K3YC0DE", distinctive counters.
func busyServer(rooms, seats int) *netcode.ServerStats {
	st := &netcode.ServerStats{Running: true, Spectators: 1, TickP50: 40 * time.Microsecond, TickP99: 310 * time.Microsecond,
		BytesIn: 12345, BytesOut: 67890, DatagramsIn: 99, Faults: 1}
	st.Drops[netcode.DropWrongAddr] = 17
	for r := range rooms {
		rs := netcode.RoomStats{Match: uint32(0xabc000 + r), Tick: 4242, TickP50: 30 * time.Microsecond, TickP99: time.Duration(200+r) * time.Microsecond}
		rs.Name = fmt.Sprintf("room%d", r)
		rs.Seats, rs.Bots, rs.State, rs.Round, rs.RoundsToWin = seats, 1, netcode.RoomPlaying, 3, 5
		if r == 1 {
			rs.Private, rs.Code = true, "K3YC0DE"
		}
		for s := range seats {
			p := netcode.PlayerStats{Slot: s, Name: fmt.Sprintf("p%d-%d", r, s), Connected: true, MarginMs: 12, HeldTicks: 3,
				NeutralTicks: 1, LateInputs: 2, Score: uint16(s), Room: rs.Name, Addr: fmt.Sprintf("10.0.%d.%d:5000", r, s)}
			if s == 0 {
				p.Bot, p.Addr = true, ""
			}
			rs.Players = append(rs.Players, p)
		}
		rs.RoomInfo.Players = seats
		st.Rooms = append(st.Rooms, rs)
	}
	return st
}

// testLogs are n log lines, numbered from 1.
func testLogs(n int) []string {
	var l []string
	for i := 1; i <= n; i++ {
		l = append(l, fmt.Sprintf("time=12:00:%02d level=INFO msg=\"log line %d\"", i%60, i))
	}
	return l
}
