// Package statsfile is the server's figures file: what "ttytanks serve
// --stats-json FILE" writes at exit (and every --stats-every while it
// serves), and what "ttytanks loadtest --server-stats FILE" reads back
// of it, the "load" block.
//
//	file        what it holds
//	stats.go    Stats, Room, Player: the file's JSON; Write fills it from
//	            netcode.ServerStats
//	atomic.go   writeFileAtomic: the file is replaced whole, never seen half
//	            written
//	load.go     Load: the server's own cost over the last seconds, the
//	            "load" block, and its dashboard line
//	meter.go    Meter: a second's samples of CPU time and datagram counters,
//	            from which Load is figured
//	read.go     ReadLoad: the load block of a file written since a given time
//
// The writer's side, as serve runs it:
//
//	var m statsfile.Meter
//	// once a second, and before each write:
//	st := server.Stats()
//	m.Add(time.Now(), st.DatagramsIn, st.DatagramsOut)
//	err := statsfile.Write(file, st, m.Load(&st))
//
// The reader's side, as loadtest runs it after its clients are done:
//
//	load, err := statsfile.ReadLoad(file, began) // a file older than began is refused
package statsfile
