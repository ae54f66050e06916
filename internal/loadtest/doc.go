// Package loadtest is the load generator behind "ttytanks loadtest": many
// protocol clients over UDP (Run), or many SSH players with PTYs (RunSSH),
// against a running server, and a report of what they saw.
//
//	file                   what it holds
//	config.go              Config: clients, ramp, duration, and how they play
//	udp.go                 Run: the shards, their loops, the sums
//	shard.go               shard: one event loop over its clients' sockets
//	                       and deadlines
//	timers.go              timers: the min-heap of the clients' deadlines
//	lateness.go            lateness: how late a loop ran the deadlines
//	sockets.go             socketSet: a shard's sockets and the wait on them
//	sockets_linux.go       epollSockets: non-blocking sockets in one epoll
//	                       set, recvmmsg and sendmmsg
//	sockets_goroutines.go  goroutineSockets: a goroutine a socket, elsewhere
//	                       and around --sim-*
//	sockets_other.go       the socket set off Linux
//	client.go              loadClient: one UDP client's core, retries and
//	                       figures
//	outcome.go             how a session ended: worth a retry, and its name
//	                       in the report
//	source.go              loadSource: the loopback source address of each
//	                       client
//	ssh.go                 RunSSH: the sessions' ramp and the sums
//	ssh_client.go          sshLoadClient: one SSH session, its screen read
//	                       and its keys
//	report.go              Report, SSHReport: the tables and JSON a test
//	                       reports
//	progress.go            showProgress: the progress line on a terminal
//
// # The UDP loop
//
// Run splits the clients among GOMAXPROCS shards, each an event loop on
// one goroutine that owns its clients outright (no locks): client i
// belongs to shard i mod n. A pass of a loop runs every client whose
// time has come, earliest first, from a min-heap of their next
// deadlines (the ramp reaching it, a retry, or the client core's
// Deadline: its next tick, handshake retry or keep-alive), then waits
// on all the shard's sockets at once until the earliest deadline left,
// and hands each datagram that arrived to its client. A client is looked at
// only when it is due or a datagram came for it. On Linux the sockets
// are non-blocking UDP sockets, each bound to its loopback source
// address (PerAddr clients per address) and connected to the server, in
// one epoll set; a ready socket is drained with one recvmmsg call and a
// client's datagrams go out in one sendmmsg call (transport.FDBatch, the
// batch IO the server's UDP uses), and the epoll set waits in the Go
// runtime's poller. Elsewhere, and around a simulated network, each
// socket has a goroutine that hands what it reads to the loop through a
// channel.
//
//	for {
//		run every client due by now          // Advance, start or retry
//		wait on the sockets until the next deadline
//		hand each datagram to its client     // Receive
//	}
//
// A client whose session is refused by an admission limit, or goes
// unanswered, tries again with backoff; one whose match ends joins
// again; one whose socket fails is over, and the report says so. At
// Duration the clients send their Leave, their sockets close, and their
// figures are summed, with how late the loops ran the deadlines: when
// the generator's CPU is near all of its cores or its deadlines ran
// late, the report says the generator, not the server, was the bound.
//
//	rep, err := loadtest.Run(ctx, target, &loadtest.Config{Clients: 2000,
//		Duration: time.Minute, Ramp: 200, PerAddr: 4, Room: room})
//	if err != nil {
//		return err // a socket did not open
//	}
//	rep.Print(os.Stdout)
package loadtest
