package threshold

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// fuzzSnapshot is a one-scenario run with a time trend, counters, a rate
// and a gauge, for evaluating fuzzed thresholds.
func fuzzSnapshot() *metrics.Snapshot {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := metric.NewHistogram()
	for v := int64(1); v <= 1000; v++ {
		h.RecordValue(v * 100)
	}
	sc := &metrics.ScenarioSnapshot{
		Name: "s", Start: t0, End: t0.Add(10 * time.Second),
		Trends:   map[string]*metrics.Trend{metrics.ResponseTime: {Unit: metrics.UnitMicros, Hist: h}},
		Counters: map[string]int64{metrics.Requests: 1000, metrics.Errors: 5, metrics.Iterations: 1000},
		Rates:    map[string]*metrics.Rate{metrics.Checks: {Passes: 990, Fails: 10}},
		Gauges:   map[string]*metrics.Gauge{metrics.VUs: {Value: 10, Min: 1, Max: 10}},
		Errors:   map[string]int64{"timeout": 5},
		Units:    map[string]metrics.Unit{metrics.ResponseTime: metrics.UnitMicros},
	}
	return &metrics.Snapshot{Version: metrics.SnapshotVersion, Start: t0, End: sc.End, Scenarios: []*metrics.ScenarioSnapshot{sc}}
}

// FuzzParseAllEvaluate: repeated --threshold flags never panic the parser
// or the evaluation; merged thresholds have distinct keys; every
// expression gives exactly one result, which fails whenever it has an
// error, and whose value is a number.
func FuzzParseAllEvaluate(f *testing.F) {
	f.Add("responseTime: p(95)<200", "responseTime: p(95)<200; avg<50", "errors: rate<1")
	f.Add("checks: rate>0.99", "vus: value<=10", "requests{scenario:s}: count==1000")
	f.Add("iterations: rate>=100", "responseTime{scenario:nope}: max<1", "http_req_duration{expected_response:true}: p(99.9)<1")
	f.Add("checks: count>0", "vus: p(50)<1", "responseTime: med!=5")
	snap := fuzzSnapshot()
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ts, err := ParseAll([]string{a, b, c})
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.ContainsAny(a+b+c, "\n\r") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		keys := map[string]bool{}
		n := 0
		for _, th := range ts {
			if keys[th.Key()] {
				t.Fatalf("key %s twice in %+v", th.Key(), ts)
			}
			keys[th.Key()] = true
			n += len(th.Exprs)
		}
		if len(ts) > 3 || len(ts) == 0 {
			t.Fatalf("%d thresholds from 3 specs", len(ts))
		}
		rs := Evaluate(snap, ts)
		if len(rs) != n {
			t.Fatalf("%d results for %d expressions", len(rs), n)
		}
		for _, r := range rs {
			if r.Err != nil && r.Pass {
				t.Fatalf("%v passes with an error", r)
			}
			if r.Err == nil && (math.IsNaN(r.Value) || math.IsInf(r.Value, 0)) {
				t.Fatalf("%v: value %v", r, r.Value)
			}
			_ = r.String()
		}
	})
}
