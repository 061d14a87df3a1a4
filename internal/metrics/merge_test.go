package metrics

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// The merge of N snapshots equals one snapshot that saw all samples.
func TestMergeIsExact(t *testing.T) {
	const parts = 4
	rng := rand.New(rand.NewPCG(1, 2))
	whole := NewAggregator(NewRegistry(), NewClock(), []string{"a", "b"})
	go whole.Run()
	split := make([]*Aggregator, parts)
	for i := range split {
		split[i] = NewAggregator(NewRegistry(), NewClock(), []string{"a", "b"})
		go split[i].Run()
	}
	wr := []*Recorder{whole.Recorder(0, 0), whole.Recorder(1, 0)}
	var sr [parts][2]*Recorder
	for i := range split {
		sr[i] = [2]*Recorder{split[i].Recorder(0, 0), split[i].Recorder(1, 0)}
	}
	for n := 0; n < 200_000; n++ {
		sc, p := n%2, rng.IntN(parts)
		at := time.Duration(n) * time.Microsecond
		rt := int64(rng.ExpFloat64() * 5000)
		wr[sc].Op(at, rt, -1, rt/2, 0, errMsg(n))
		sr[p][sc].Op(at, rt, -1, rt/2, 0, errMsg(n))
		wr[sc].Iteration(at, time.Duration(rt)*time.Microsecond)
		sr[p][sc].Iteration(at, time.Duration(rt)*time.Microsecond)
	}
	for _, r := range wr {
		r.Flush()
	}
	whole.Close()
	var snaps []*Snapshot
	for i := range split {
		sr[i][0].Flush()
		sr[i][1].Flush()
		split[i].Close()
		snaps = append(snaps, roundTrip(t, split[i].Snapshot()))
	}
	merged, err := metric.Merge(snaps...)
	if err != nil {
		t.Fatal(err)
	}
	want := whole.Snapshot()
	for _, name := range []string{"a", "b"} {
		w, m := want.Scenario(name), merged.Scenario(name)
		for _, trend := range []string{ResponseTime, Latency, IterationDuration} {
			if !w.Trends[trend].Hist.Equals(m.Trends[trend].Hist) {
				t.Errorf("%s %s: merged histogram differs: %+v vs %+v", name, trend, w.Trends[trend].Stats(), m.Trends[trend].Stats())
			}
		}
		for _, c := range []string{Iterations, Requests, Errors} {
			if w.Counters[c] != m.Counters[c] {
				t.Errorf("%s %s: %d vs %d", name, c, w.Counters[c], m.Counters[c])
			}
		}
		for msg, n := range w.Errors {
			if m.Errors[msg] != n {
				t.Errorf("%s error %q: %d vs %d", name, msg, n, m.Errors[msg])
			}
		}
	}
}

func errMsg(n int) string {
	if n%97 == 0 {
		return "timeout"
	}
	if n%89 == 0 {
		return "E_CONSENSUS_ERROR"
	}
	return ""
}

// roundTrip serializes a snapshot as it is written to disk and reads it back.
func roundTrip(t *testing.T, s *Snapshot) *Snapshot {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var out Snapshot
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

func TestCheckNames(t *testing.T) {
	d := CheckMetric("status is 200")
	if d.Name != "checks{check:status is 200}" || d.Kind != KindRate {
		t.Errorf("CheckMetric = %+v", d)
	}
	if n, ok := CheckName(d.Name); !ok || n != "status is 200" {
		t.Errorf("CheckName = %q %v", n, ok)
	}
	if _, ok := CheckName("checks"); ok {
		t.Error("plain checks taken for a named check")
	}
}
