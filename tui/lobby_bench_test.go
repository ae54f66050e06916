package tui

import (
	"testing"
)

// BenchmarkLobbyFrame draws a full lobby of 200 rooms at 200x60 on a
// screen whose every cell changes (the selection moves each frame).
func BenchmarkLobbyFrame(b *testing.B) {
	scr := newScreen(b, 200, 60)
	r := NewRenderer(scr, Options{})
	l := newLobby(LobbyOptions{Notice: "you left room a"})
	l.list = manyRooms(200, 200)
	for i := range l.list.Rooms {
		l.list.Rooms[i].Leader, l.list.Rooms[i].LeaderScore = "alice", i%5
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		l.choose(i % len(l.list.Rooms))
		l.draw(r)
	}
}

// BenchmarkRenderDashboard renders a server of eight full rooms and a
// log at 200x60.
func BenchmarkRenderDashboard(b *testing.B) {
	st := busyServer(8, 8)
	logs := testLogs(60)
	b.ReportAllocs()
	for b.Loop() {
		RenderDashboard(st, testDashInfo, logs, 200, 60, false)
	}
}
