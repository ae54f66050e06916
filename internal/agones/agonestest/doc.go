// Package agonestest is a stand-in for the Agones SDK sidecar's REST
// gateway, for tests, as net/http/httptest is for servers: an HTTP
// server on 127.0.0.1 that takes the calls of the published REST API
// (Agones 1.41 and later: sdk.swagger.json and beta.swagger.json), checks
// each request's method, path and JSON body against it, keeps a
// GameServer's state, labels, Counters and Lists with the sidecar's
// checks (a declared name, a count within the capacity, no value twice,
// none past the capacity; a refusal is a 500, as the sidecar's plain
// errors are gRPC Unknown), and records every call in order. Unlike the
// sidecar it applies each change at once, not in batches.
//
// A request outside the API, or with a body the API does not describe,
// fails the test (t.Errorf) and is answered with an error.
//
//	sc := agonestest.New(t, agonestest.Options{Counters: map[string]int64{"rooms": 16}})
//	client := agones.NewClient(sc.URL)
//	…
//	c := sc.Next(t, 5*time.Second, agonestest.OpReady)
//	_ = c.Body          // the request's JSON body, decoded
//	h := sc.History()   // every call, in order
//
// # Files
//
//	file        what it holds
//	sidecar.go  Sidecar: the server, the calls recorded, the test's controls
//	api.go      the routes of the API and the checks of each body
//	state.go    the GameServer: its state, labels, Counters and Lists; the watch stream
package agonestest
