package netcode

import (
	"crypto/rand"
	"io"
	"time"
)

// wallClock is the real clock, for drivers and for cores left without one.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// systemEntropy is the operating system's random source, for cores left
// without one.
func systemEntropy() io.Reader { return rand.Reader }
