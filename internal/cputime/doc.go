// Package cputime measures the CPU time this process has used, for the
// load figures of serve (package statsfile) and of the load generator
// (package loadtest).
//
//	file              what it holds
//	cputime_unix.go   Process: user and system time from getrusage
//	cputime_other.go  Process where that is not measured: 0, false
//
// Use: take Process twice and divide the difference by the wall time
// between, for CPU seconds per second (1 is one whole core).
package cputime
