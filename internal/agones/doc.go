// Package agones is serve --agones: a client of the Agones SDK sidecar's
// REST API, and the runner that tells Agones how the game server is.
//
// The client follows the REST API (the sidecar's grpc-gateway) as
// Agones 1.41 and later publish it: sdks/swagger/sdk.swagger.json for
// the stable calls and beta.swagger.json for Counters and Lists, beta
// since 1.41 under /v1beta1, in googleforgames/agones. It uses net/http
// only: no gRPC and no Agones module. The sidecar listens on
// http://localhost:$AGONES_SDK_HTTP_PORT (9358 when unset).
//
//	call                 method and path                              body
//	Ready                POST /ready                                  {}
//	Health               POST /health                                 {}
//	Shutdown             POST /shutdown                               {}
//	SetLabel             PUT /metadata/label                          {"key": "…", "value": "…"}
//	GameServer           GET /gameserver
//	WatchGameServer      GET /watch/gameserver (a stream of {"result": GameServer})
//	UpdateCounter        PATCH /v1beta1/counters/{name}               {"count": "3", "capacity": "16"}
//	AddListValue         POST /v1beta1/lists/{name}:addValue          {"value": "…"}
//	RemoveListValue      POST /v1beta1/lists/{name}:removeValue       {"value": "…"}
//	SetListValues        PATCH /v1beta1/lists/{name}                  {"values": ["…"]}
//
// The gateway writes an int64 as a JSON string, so the bodies do too.
//
// The runner is the high-density pattern: one process, many rooms. It
// sends Ready once the game's sockets are bound, then every 2 s takes a
// sample of the server through its driver (with a deadline, so a stuck
// loop cannot hold it) and sends a health ping only if the sample
// answered and the server's ticks grew; it keeps the Counter "rooms" at
// the rooms open and the List "players" at the seated players
// ("room/slot/name"), sending only what changed; it sets the label
// ttytanks.fleet when given a fleet name, logs when the GameServer is
// Allocated, and sends Shutdown when stopped.
//
//	r := agones.Start(agones.Config{Client: agones.NewClient(base), Sample: func() agones.Figures {
//		var f agones.Figures
//		sd.Do(func(s *netcode.Server) { st := s.Stats(); f = agones.FiguresOf(&st) })
//		return f
//	}})
//	…                // serve, drain
//	r.Stop()         // Shutdown
//
// Package agonestest is a stand-in for the sidecar that checks each
// call against the published API, for tests.
//
// # Files
//
//	file            what it holds
//	client.go       Client: the calls of the stable API, the base URL from the environment
//	counters.go     the beta Counters and Lists
//	watch.go        WatchGameServer: the stream, and reconnecting after a backoff
//	gameserver.go   GameServer, and Int64 (an int64 as a JSON string)
//	figures.go      Figures from the server's stats; a player's List value
//	runner.go       Runner: Ready, the health loop and its liveness check, the watch, Shutdown
//	runner_sync.go  the rooms Counter, the players List and the label, sent when they change
package agones
