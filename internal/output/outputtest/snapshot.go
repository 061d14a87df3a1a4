// Package outputtest builds realistic snapshots through the real metrics
// pipeline (Registry → Aggregator → Recorder → Snapshot) for the golden
// tests of outputs and thresholds. Everything is deterministic: a fixed
// clock base and integer-only pseudo-random values.
package outputtest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// Base is the wall time of run offset zero in every test snapshot.
var Base = time.Date(2021, 8, 6, 3, 50, 0, 0, time.UTC)

// Scenario names of Snapshot.
const (
	Read  = "go.Go2Step"
	Write = "insert.InsertPersonScenario"
)

// Retries is a custom counter the write scenario records.
const Retries = "retries"

// Rand is a SplitMix64 generator for synthetic runs: tiny, stable across
// Go versions and integer-only, so golden files never change.
type Rand uint64

// Next returns the next 64 random bits.
func (r *Rand) Next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Between returns a value in [lo, hi).
func (r *Rand) Between(lo, hi int64) int64 { return lo + int64(r.Next()%uint64(hi-lo)) }

// Snapshot returns a two-scenario run in the spirit of the NebulaGraph seed:
//
//   - go.Go2Step, constant-vus, 50 VUs for 30s: 3000 requests around 8ms with
//     a tail, server latency, rows, all checks passing, 4 timeouts;
//   - insert.InsertPersonScenario, constant-vus, 400 VUs, interrupted after
//     12.5s: 1200 batched writes around 250ms, 3.4% E_CONSENSUS_ERROR and a
//     dozen rarer messages, failed checks, a custom counter and notes.
func Snapshot(t testing.TB) *metrics.Snapshot {
	t.Helper()
	reg := metrics.NewRegistry()
	retries := reg.MustAdd(metrics.Def{Name: Retries, Kind: metrics.KindCounter})
	clock := metrics.ClockAt(Base)
	agg := metrics.NewAggregator(reg, clock, []string{Read, Write})
	go agg.Run()
	r := Rand(42)

	// Scenario 0: reads, 0s–30s, recorded by 5 VUs' recorders.
	const readN = 3000
	recs := make([]*metrics.Recorder, 5)
	for i := range recs {
		recs[i] = agg.Recorder(0, 0)
	}
	agg.SetGauge(0, metrics.IDVUsMax, 50)
	agg.SetGauge(0, metrics.IDVUs, 0)
	agg.SetGauge(0, metrics.IDVUs, 50)
	for i := range readN {
		rec := recs[i%len(recs)]
		at := time.Duration(i) * 30 * time.Second / readN
		rt := r.Between(600, 16_000)
		if i%50 == 0 {
			rt = r.Between(20_000, 230_000)
		}
		svc := rt - r.Between(0, 200)
		rec.Trend(metrics.IDResponseTime, at, rt)
		rec.Trend(metrics.IDServiceTime, at, svc)
		rec.Add(metrics.IDRequests, at, 1)
		if i%750 == 749 {
			rec.Error(at, "read tcp 192.168.8.61:9669: i/o timeout")
			rec.Rate(metrics.IDChecks, at, false)
			rec.Rate(metrics.IDRequestsFailed, at, true)
		} else {
			rec.Rate(metrics.IDRequestsFailed, at, false)
			rec.Trend(metrics.IDLatency, at, rt*7/10)
			rec.Trend(metrics.IDRows, at, r.Between(0, 160))
			rec.Rate(metrics.IDChecks, at, true)
		}
		rec.Iteration(at, time.Duration(rt+r.Between(50, 150))*time.Microsecond)
	}
	for _, rec := range recs {
		rec.Flush()
	}
	agg.SetGauge(0, metrics.IDVUs, 0)
	agg.Mark(0, clock.Wall(0), clock.Wall(30*time.Second), false, "constant-vus")

	// Scenario 1: writes, 30s–42.5s, interrupted.
	const writeN = 1200
	start, end := 30*time.Second, 42500*time.Millisecond
	recs = recs[:3]
	for i := range recs {
		recs[i] = agg.Recorder(1, 0)
	}
	agg.SetGauge(1, metrics.IDVUsMax, 400)
	agg.SetGauge(1, metrics.IDVUs, 0)
	agg.SetGauge(1, metrics.IDVUs, 400)
	rare := []string{
		"error: E_LEADER_CHANGED(-13)",
		"error: E_RPC_FAILURE(-3). storage 192.168.8.62:9779 unreachable",
		"error: E_SESSION_INVALID(-1002)",
		"error: E_WRITE_STALLED(-1015)",
		"error: E_OUT_OF_RANGE(-17)",
		"error: E_PART_NOT_FOUND(-16)",
		"error: E_BAD_PERMISSION(-1008)",
		"error: E_EXECUTION_ERROR(-1005): the insert of 300 vertices into space ldbc_sf1 was rejected because the write buffer of the raft log was full",
		"context deadline exceeded",
		"connection reset by peer",
		"error: E_STORAGE_ERROR(-1001)\nsecond line of a multi-line message",
		"error: E_TAG_NOT_FOUND(-10)",
	}
	for i := range writeN {
		rec := recs[i%len(recs)]
		at := start + time.Duration(i)*(end-start)/writeN
		rt := r.Between(120_000, 420_000)
		if i%40 == 0 {
			rt = r.Between(600_000, 1_500_000)
		}
		rec.Trend(metrics.IDResponseTime, at, rt)
		rec.Trend(metrics.IDServiceTime, at, rt-r.Between(0, 5_000))
		rec.Add(metrics.IDRequests, at, 1)
		failed := i%30 == 7 || i%50 == 11 && i/50 < 2*len(rare)
		rec.Rate(metrics.IDRequestsFailed, at, failed)
		switch {
		case i%30 == 7: // 40 of 1200: the seed's E_CONSENSUS_ERROR
			rec.Error(at, `error: E_CONSENSUS_ERROR(-16). "`)
			rec.Rate(metrics.IDChecks, at, false)
			rec.Add(retries, at, 1)
		case i%50 == 11 && i/50 < 2*len(rare): // 24 rarer ones, 12 messages twice each
			rec.Error(at, rare[(i/50)%len(rare)])
			rec.Rate(metrics.IDChecks, at, false)
		default:
			rec.Trend(metrics.IDLatency, at, rt*8/10)
			rec.Trend(metrics.IDRows, at, 300)
			rec.Rate(metrics.IDChecks, at, true)
		}
		rec.Iteration(at, time.Duration(rt+r.Between(100, 900))*time.Microsecond)
	}
	for _, rec := range recs {
		rec.Flush()
	}
	agg.SetGauge(1, metrics.IDVUs, 0)
	agg.Mark(1, clock.Wall(start), clock.Wall(end), true, "constant-vus")
	agg.Note(1, "batchSize 300 vertices per INSERT")
	agg.Note(1, fmt.Sprintf("target is an embedded single-node SQLite file, not a cluster: absolute numbers are not comparable with the %d-node setup of the seed", 3))

	agg.Close()
	return agg.Snapshot()
}
