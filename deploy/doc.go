// Package deploy holds the files that run ttytanks serve as a service,
// and the tests that check them (it has no code of its own):
//
//	file               what it holds
//	ttytanks.service   the systemd unit: Type=notify, the drain on
//	                   SIGTERM within TimeoutStopSec, hardening
//	Dockerfile         a static binary (CGO_ENABLED=0) on a distroless base
//	agones/            an Agones GameServer and Fleet running serve --agones
//	deploy_test.go     systemd-analyze verify on the unit; the unit's stop
//	                   time covers the drain; the static build; what the
//	                   Dockerfile sets, read back by serve --print-config
//	agones_test.go     the Agones manifests as text: their args are serve's
//	                   flags, the capacities fit them, the health period
//	                   holds two pings, the Fleet's spec is the GameServer's
//
// Docker and Kubernetes do not run on the test machines, so the image is
// not built and the manifests are not applied in CI: the tests check
// what they are made of instead.
package deploy
