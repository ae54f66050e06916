// Package loadtest is the load generator behind "ttytanks loadtest": many
// protocol clients over UDP (Run), or many SSH players with PTYs (RunSSH),
// against a running server, and a report of what they saw.
//
//	file           what it holds
//	config.go      Config: clients, ramp, duration, and how they play
//	udp.go         Run: the ramp, the ticking shards, the closing and the sums
//	client.go      loadClient: one UDP client's core, socket, retries and
//	               figures
//	outcome.go     how a session ended: worth a retry, and its name in the
//	               report
//	source.go      loadSource: the loopback source address of each client
//	ssh.go         RunSSH: the sessions' ramp and the sums
//	ssh_client.go  sshLoadClient: one SSH session, its screen read and its
//	               keys
//	report.go      Report, SSHReport: the tables and JSON a test reports
//	progress.go    showProgress: the progress line on a terminal
//
// # The UDP loop
//
// Run starts one client every 1/Ramp seconds, each on a socket of its
// own (PerAddr clients per loopback source address) with a goroutine
// that feeds it what arrives; up to four shard goroutines each advance
// their share of the clients every millisecond. A client whose session
// is refused by an admission limit, or goes unanswered, tries again with
// backoff; one whose match ends joins again. At Duration the clients
// send their Leave, their sockets close, and their figures are summed:
//
//	rep, err := loadtest.Run(ctx, target, &loadtest.Config{Clients: 2000,
//		Duration: time.Minute, Ramp: 200, PerAddr: 4, Room: room})
//	if err != nil {
//		return err // a socket did not open
//	}
//	rep.Print(os.Stdout)
package loadtest
