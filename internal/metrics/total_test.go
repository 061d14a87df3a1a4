package metrics_test

import (
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/outputtest"
	"github.com/stampede-bench/stampede/metric"
)

func TestTotal(t *testing.T) {
	snap := outputtest.Snapshot(t)
	read, write := snap.Scenario(outputtest.Read), snap.Scenario(outputtest.Write)
	all := metric.Total(snap)

	if got, want := all.Trends[metrics.ResponseTime].Hist.TotalCount(), read.Trends[metrics.ResponseTime].Hist.TotalCount()+write.Trends[metrics.ResponseTime].Hist.TotalCount(); got != want {
		t.Errorf("responseTime count %d, want %d", got, want)
	}
	if got := all.Trends[metrics.ResponseTime].Hist.Max(); got != write.Trends[metrics.ResponseTime].Hist.Max() {
		t.Errorf("responseTime max %d, want the write scenario's", got)
	}
	if got, want := all.Counters[metrics.Requests], int64(4200); got != want {
		t.Errorf("requests %d, want %d", got, want)
	}
	if got, want := all.Counters[metrics.Errors], read.Counters[metrics.Errors]+write.Counters[metrics.Errors]; got != want {
		t.Errorf("errors %d, want %d", got, want)
	}
	if r := all.Rates[metrics.Checks]; r.Passes+r.Fails != 4200 {
		t.Errorf("checks %+v, want 4200 in all", r)
	}
	if all.Duration() != 42500*time.Millisecond || !all.Interrupted {
		t.Errorf("span %v interrupted %v, want 42.5s and true", all.Duration(), all.Interrupted)
	}
	// The scenarios ran one after the other: vus_max is the larger, not the sum.
	if g := all.Gauges[metrics.VUsMax]; g.Max != 400 || g.Min != 50 || g.Value != 400 {
		t.Errorf("vus_max %+v, want value 400 min 50 max 400", *g)
	}
	// The inputs are untouched.
	if got := read.Trends[metrics.ResponseTime].Hist.TotalCount(); got != 3000 {
		t.Errorf("input histogram modified: %d samples", got)
	}
}

func TestGaugesOfConcurrentScenariosAddUp(t *testing.T) {
	t0 := time.Unix(0, 0)
	sc := func(start, end int, vus float64) *metrics.ScenarioSnapshot {
		return &metrics.ScenarioSnapshot{
			Start: t0.Add(time.Duration(start) * time.Second), End: t0.Add(time.Duration(end) * time.Second),
			Gauges: map[string]*metrics.Gauge{metrics.VUs: {Value: vus, Min: 0, Max: vus}},
		}
	}
	tests := []struct {
		name      string
		scs       []*metrics.ScenarioSnapshot
		wantValue float64
		wantMax   float64
	}{
		{"sequential", []*metrics.ScenarioSnapshot{sc(0, 10, 50), sc(10, 20, 20)}, 20, 50},
		{"overlapping", []*metrics.ScenarioSnapshot{sc(0, 10, 50), sc(5, 20, 20)}, 70, 70},
		{"single", []*metrics.ScenarioSnapshot{sc(0, 10, 5)}, 5, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := metric.Total(&metrics.Snapshot{Scenarios: tc.scs}).Gauges[metrics.VUs]
			if g.Value != tc.wantValue || g.Max != tc.wantMax {
				t.Errorf("vus %+v, want value %v max %v", *g, tc.wantValue, tc.wantMax)
			}
		})
	}
}
