package admin

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"ttytanks/netcode"
)

// metric describes one family: its name (after ttytanks_), help, type and
// label names.
type metric struct {
	desc *prometheus.Desc
	kind prometheus.ValueType
}

func newMetric(name, help string, kind prometheus.ValueType, labels ...string) metric {
	return metric{desc: prometheus.NewDesc("ttytanks_"+name, help, labels, nil), kind: kind}
}

// The families from a sample of the server.
var (
	mPlayers     = newMetric("players", "Network players seated, by how they play (bots apart).", prometheus.GaugeValue, "transport")
	mSpectators  = newMetric("spectators", "Spectators watching, by how they watch.", prometheus.GaugeValue, "transport")
	mBots        = newMetric("bots", "Seats the server's bots hold.", prometheus.GaugeValue)
	mRooms       = newMetric("rooms", "Rooms open, by the state of their match.", prometheus.GaugeValue, "state")
	mDraining    = newMetric("draining", "1 while the server drains before a restart (it takes nobody new), else 0.", prometheus.GaugeValue)
	mStarted     = newMetric("matches_started_total", "Matches whose countdown began.", prometheus.CounterValue)
	mFinished    = newMetric("matches_finished_total", "Matches played to their results.", prometheus.CounterValue)
	mDgIn        = newMetric("received_datagrams_total", "UDP datagrams received, junk included.", prometheus.CounterValue)
	mDgOut       = newMetric("sent_datagrams_total", "Datagrams sent.", prometheus.CounterValue)
	mBytesIn     = newMetric("received_bytes_total", "Payload bytes received.", prometheus.CounterValue)
	mBytesOut    = newMetric("sent_bytes_total", "Payload bytes sent.", prometheus.CounterValue)
	mDropped     = newMetric("dropped_datagrams_total", "Datagrams dropped, by reason.", prometheus.CounterValue, "reason")
	mHandshakes  = newMetric("handshakes_total", "Handshakes completed: Joins answered with an Accept.", prometheus.CounterValue)
	mRefusals    = newMetric("admission_refusals_total", "Joins and Requests refused with a Reject, by reason.", prometheus.CounterValue, "reason")
	mConns       = newMetric("connections", "Sealed connections held.", prometheus.GaugeValue)
	mReconnects  = newMetric("reconnects_total", "Seats taken back after a lost connection.", prometheus.CounterValue)
	mTimeouts    = newMetric("timeouts_total", "Places freed after too long a silence.", prometheus.CounterValue)
	mIdled       = newMetric("idle_seats_freed_total", "Seats freed after --idle without a move, shot or vote.", prometheus.CounterValue)
	mSlips       = newMetric("clock_slips_total", "Times the server fell too far behind its clock and restarted it.", prometheus.CounterValue)
	mSkipped     = newMetric("skipped_ticks_total", "Ticks lost to clock slips.", prometheus.CounterValue)
	mFaults      = newMetric("faults_total", "Matches stopped by a fault in the server (each logged with its stack).", prometheus.CounterValue)
	mTicks       = newMetric("ticks_total", "Server ticks run.", prometheus.CounterValue)
	mSSH         = newMetric("ssh_sessions", "SSH sessions open.", prometheus.GaugeValue)
	mRecWritten  = newMetric("recordings_written_total", "Match recordings written.", prometheus.CounterValue)
	mRecFailed   = newMetric("recordings_failed_total", "Match recordings that stopped on an error.", prometheus.CounterValue)
	mFleetOn     = newMetric("fleet_member", "1 while the server is a member of a fleet (serve --fleet), else 0.", prometheus.GaugeValue)
	mFleetLost   = newMetric("fleet_lost", "1 while the fleet's Redis cannot be reached and the server lists only its own rooms, else 0.", prometheus.GaugeValue)
	mFleetPeers  = newMetric("fleet_servers", "The other servers of the fleet this server sees.", prometheus.GaugeValue)
	mRedirects   = newMetric("fleet_redirects_total", "Requests sent on to another server of the fleet.", prometheus.CounterValue)
	mRedisOps    = newMetric("fleet_redis_commands_total", "Commands sent to the fleet's Redis.", prometheus.CounterValue)
	mLadderOn    = newMetric("ladder", "1 while the server keeps a ranked ladder (serve --ladder), else 0.", prometheus.GaugeValue)
	mLadderQueue = newMetric("ladder_jobs_pending", "Ladder jobs (name claims, matches to record, leaderboard pages) queued or running against the store.", prometheus.GaugeValue)
	mLadderRec   = newMetric("ladder_matches_recorded_total", "Finished matches of ranked rooms recorded in the ladder.", prometheus.CounterValue)
	mLadderRated = newMetric("ladder_matches_rated_total", "Recorded matches that were rated (two or more players with a key).", prometheus.CounterValue)
	mLadderFail  = newMetric("ladder_errors_total", "Ladder jobs the store failed (each logged): a match not recorded, a claim or a page not answered.", prometheus.CounterValue)
	mTickSeconds = prometheus.NewDesc("ttytanks_tick_duration_seconds", "How long the server's ticks took (every room stepped, the datagrams sent).", nil, nil)
)

// figuresCollector is a prometheus.Collector of the families above from
// the sample in cur.
type figuresCollector struct {
	mu  sync.Mutex
	cur *Figures
}

func (c *figuresCollector) set(f *Figures) {
	c.mu.Lock()
	c.cur = f
	c.mu.Unlock()
}

// Describe sends every family's description.
func (c *figuresCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range []metric{mPlayers, mSpectators, mBots, mRooms, mDraining, mStarted, mFinished, mDgIn, mDgOut,
		mBytesIn, mBytesOut, mDropped, mHandshakes, mRefusals, mConns, mReconnects, mTimeouts, mIdled, mSlips, mSkipped, mFaults, mTicks, mSSH,
		mRecWritten, mRecFailed, mFleetOn, mFleetLost, mFleetPeers, mRedirects, mRedisOps,
		mLadderOn, mLadderQueue, mLadderRec, mLadderRated, mLadderFail} {
		ch <- m.desc
	}
	ch <- mTickSeconds
}

// Collect sends the families of the current sample (none before the
// first).
func (c *figuresCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	f := c.cur
	c.mu.Unlock()
	if f == nil {
		return
	}
	st := &f.Server
	put := func(m metric, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(m.desc, m.kind, v, labels...)
	}
	var players, specs [len(transports)]int
	bots := 0
	for i := range st.Players {
		switch p := &st.Players[i]; {
		case p.Bot:
			bots++
		case p.SSH:
			players[1]++
		default:
			players[0]++
		}
	}
	var rooms [len(roomStates)]int
	for i := range st.Rooms {
		r := &st.Rooms[i]
		specs[1] += r.SpectatorsSSH
		specs[0] += r.Spectators - r.SpectatorsSSH
		if int(r.State) < len(rooms) {
			rooms[r.State]++
		}
	}
	for i, t := range transports {
		put(mPlayers, float64(players[i]), t)
		put(mSpectators, float64(specs[i]), t)
	}
	put(mBots, float64(bots))
	for i, s := range roomStates {
		put(mRooms, float64(rooms[i]), s)
	}
	put(mDraining, boolValue(st.Draining))
	put(mStarted, float64(st.MatchesStarted))
	put(mFinished, float64(st.MatchesFinished))
	put(mDgIn, float64(st.DatagramsIn))
	put(mDgOut, float64(st.DatagramsOut))
	put(mBytesIn, float64(st.BytesIn))
	put(mBytesOut, float64(st.BytesOut))
	for i, n := range st.Drops {
		put(mDropped, float64(n), netcode.DropReason(i).String())
	}
	put(mHandshakes, float64(st.Handshakes))
	for i, n := range st.Rejects {
		if refusalReasons[i] != "" {
			put(mRefusals, float64(n), refusalReasons[i])
		}
	}
	put(mConns, float64(st.Connections))
	put(mReconnects, float64(st.Reconnects))
	put(mTimeouts, float64(st.Timeouts))
	put(mIdled, float64(st.Idled))
	put(mSlips, float64(st.Slips))
	put(mSkipped, float64(st.SkippedTicks))
	put(mFaults, float64(st.Faults))
	put(mTicks, float64(st.Ticks))
	put(mSSH, float64(f.SSHSessions))
	put(mRecWritten, float64(f.RecordingsWritten))
	put(mRecFailed, float64(f.RecordingsFailed))
	put(mFleetOn, boolValue(f.Fleet))
	put(mFleetLost, boolValue(f.Fleet && st.Fleet.Lost))
	put(mFleetPeers, float64(st.Fleet.Servers))
	put(mRedirects, float64(st.Fleet.Redirects))
	put(mLadderOn, boolValue(st.Ladder.On))
	put(mLadderQueue, float64(st.Ladder.Pending))
	put(mLadderRec, float64(st.Ladder.Recorded))
	put(mLadderRated, float64(st.Ladder.Rated))
	put(mLadderFail, float64(st.Ladder.Failed))
	put(mRedisOps, float64(f.RedisCommands))
	h := &st.TickHist
	buckets := make(map[float64]uint64, len(netcode.TickBuckets))
	var cum uint64
	for i, b := range netcode.TickBuckets {
		cum += h.Counts[i]
		buckets[b.Seconds()] = cum
	}
	ch <- prometheus.MustNewConstHistogram(mTickSeconds, h.Count, h.Sum.Seconds(), buckets)
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
