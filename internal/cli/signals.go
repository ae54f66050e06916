package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// signalContext returns a context that ends on SIGINT or SIGTERM, and
// its stop, which ends it too and lets the signals go again.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// signalNotify relays SIGINT and SIGTERM to c (serve, which drains on
// SIGTERM).
func signalNotify(c chan<- os.Signal) { signal.Notify(c, os.Interrupt, syscall.SIGTERM) }
