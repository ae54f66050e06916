package resim

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"ttytanks/game"
	"ttytanks/proto/recording/rectest"
)

// botFiles caches a 2-minute bots-only recording per seat count.
var botFiles sync.Map

func botFile(b *testing.B, slots int) []byte {
	if f, ok := botFiles.Load(slots); ok {
		return f.([]byte)
	}
	f := rectest.Record(b, slots, 2*60*game.TickRate, false, true, botInputs())
	botFiles.Store(slots, f)
	return f
}

// BenchmarkVerify re-simulates a 2-minute bots-only match of 2 and 8
// players and reports the simulated ticks per second and the multiple of
// real time (60 ticks/s). Goal: ≥ 200x for 2 players.
func BenchmarkVerify(b *testing.B) {
	for _, slots := range []int{2, 8} {
		b.Run(fmt.Sprintf("players=%d", slots), func(b *testing.B) {
			file := botFile(b, slots)
			b.ReportAllocs()
			b.ResetTimer()
			ticks := 0
			for b.Loop() {
				sum, err := Verify(bytes.NewReader(file))
				if err != nil {
					b.Fatal(err)
				}
				ticks += sum.Ticks
			}
			rate := float64(ticks) / b.Elapsed().Seconds()
			b.ReportMetric(rate, "ticks/s")
			b.ReportMetric(rate/game.TickRate, "x-realtime")
		})
	}
}

// BenchmarkRecordingSize reports the size of a bots-only recording per
// minute of play for 2 and 8 players (the match is recorded once; the
// loop encodes nothing). Goals: ≤ 20 KB/min for 2, ≤ 60 KB/min for 8.
func BenchmarkRecordingSize(b *testing.B) {
	for _, slots := range []int{2, 8} {
		b.Run(fmt.Sprintf("players=%d", slots), func(b *testing.B) {
			file := botFile(b, slots)
			for b.Loop() {
			}
			b.ReportMetric(float64(len(file))/2/1024, "KB/min")
		})
	}
}
