// Package admin is serve --admin: an HTTP listener for the operator's
// tools. It serves the server's figures in the Prometheus text format at
// /metrics (github.com/prometheus/client_golang), and health for a load
// balancer, systemd or Kubernetes at /livez (the loop ticks) and /readyz
// (the server takes new players).
//
// It never blocks the game loop: one goroutine takes a sample of the
// server's figures every so often (Config.Every, a second by default;
// the sample runs on the loop through the driver's Do), encodes the whole
// scrape once, and every request is served from that: bounded work per
// request, however often it is scraped. Health reads the same sample and
// one flag: Server.SetDraining turns /readyz to 503 at once.
//
//	srv, _ := admin.New(admin.Config{Sample: func() admin.Figures { … sd.Do(… Stats …) … }})
//	go srv.Run(ctx)            // the sampler
//	go srv.Serve(ln)           // the listener
//	…                          // SIGTERM:
//	srv.SetDraining()          // /readyz is 503 from now on
//
// The metric families all start with ttytanks_ and follow Prometheus's
// conventions (base units, _total on counters); no label takes a player
// name, an address or a room name, so the series are a fixed set.
//
// # Files
//
//	file          what it holds
//	server.go     Server, Config, Figures: the listener, the sampler, the cached scrape
//	health.go     /livez and /readyz
//	metrics.go    the collector: the metric families from one sample
//	labels.go     the label values: transports, room states, drop and refusal reasons
package admin
