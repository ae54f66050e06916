// Package tests holds the cross-package tests of ttytanks: matches over
// real UDP on 127.0.0.1, and end-to-end runs of the built binary.
//
// Every server a test starts binds its own port (127.0.0.1:0) and the test
// learns it from what the server says: serve's "serving" log line, the
// dashboard or waiting screen in a terminal, or the listener in-process.
// Each tmux has a server of its own; each test its own temp dirs.
//
// Under go test -short the long end-to-end runs and soaks (a 60 s match,
// load tests, a restart, a whole best-of match) are skipped, and the
// in-process soaks run shorter (fewer datagrams, seconds or cycles); a
// few quick runs of the binary remain, so that -short still catches a
// broken one. Plain go test runs everything.
//
// Helpers:
//
//	binary_test.go     building the binary once; TestMain's state directory
//	process_test.go    a process of the binary: start, wait, stop, exit codes
//	serve_test.go      the binary's serve: its address from its log, its SSH address
//	join_test.go       the binary's join --headless and its --stats-json
//	syncbuf_test.go    output written concurrently, read and awaited
//	wait_test.go       polling for a condition or a screen
//	screen_test.go     reading a game screen: the field, the sidebar, the tanks
//	tmux_test.go       a real terminal (tmux) running the binary
//	vt_test.go         a small terminal emulator for SSH sessions
//	sshrig_test.go     serve --ssh in-process, and an SSH player in a terminal
//	udp_test.go        a server over real UDP in-process
//	race_*_test.go     whether the race detector is on
//
// Tests:
//
//	udp_test.go, fairness_test.go, flood_test.go    in-process matches over real UDP
//	headless_test.go, lifecycle_test.go, restart_test.go, shutdown_test.go,
//	rooms_test.go, serverkey_test.go, loadtest_test.go, record_test.go
//	                                                the binary headless (and replay in tmux)
//	freeze_test.go                                  a join stopped (SIGSTOP) 8 s keeps its seat; 25 s,
//	                                                it joins again and says so
//	recordkeep_test.go, soak_test.go                --record-keep on an endless match; the
//	                                                recordings soak (TTYTANKS_SOAK=10m for the long one)
//	service_test.go                                 serve as a service: --admin's metrics (and
//	                                                promtool, and a real Prometheus), the drain
//	                                                on SIGTERM, the log of who came and went
//	agones_test.go                                  serve --agones against a stand-in of the Agones
//	                                                SDK sidecar: Ready, the Counter and List, health,
//	                                                Shutdown after the drain
//	tmux_test.go, tmux_feel_test.go, tmux_lobby_test.go, tmux_replay_test.go, tmux_sshkick_test.go, terminal_test.go
//	                                                the binary in a real terminal
//	ssh_test.go, sshadmit_test.go, sshban_test.go, sshgamekick_test.go, sshflood_test.go, sshlimits_test.go,
//	sshpaste_test.go, sshsmooth_test.go             SSH play in-process
//	sshserve_test.go, sshshare_test.go              the binary's serve --ssh
package tests
