// Package desync keeps and explains desync evidence: when a client
// receives a State whose snapshot does not match the server's hash
// (netcode.ClientConfig.OnDesync), Dir writes the snapshot as received,
// the server's hash and the client's own snapshot of that tick to a file
// ("ttytanks join --desync-dir DIR"); Read and Explain turn such a file
// into a report naming the first snapshot field where the two differ
// ("ttytanks verify --desync FILE").
//
//	d := &desync.Dir{Path: "evidence", Max: 16}
//	cfg.OnDesync = d.Record
//	...
//	e, err := desync.Read(file)
//	fmt.Println(desync.Explain(&e))
package desync
