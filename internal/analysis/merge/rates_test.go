package merge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/metric"
)

// writeRatePart writes a run of secs seconds whose messages counter
// counts perSec[s] in second s, and whose msgs_per_s trend sampled those
// per-second counts, as one process of a distributed run records them.
func writeRatePart(t *testing.T, dir string, zero time.Time, perSec []int64) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	end := zero.Add(time.Duration(len(perSec)) * time.Second)
	sc := &metrics.ScenarioSnapshot{
		Name: "kafka.Produce", Executor: engine.ConstantVUs, Start: zero, End: end,
		Trends:   map[string]*metrics.Trend{"msgs_per_s": {Unit: metrics.UnitNone, Hist: metric.NewHistogram()}},
		Counters: map[string]int64{}, Units: map[string]metrics.Unit{},
	}
	sw, err := resultdir.NewSeriesWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	for s, n := range perSec {
		sc.Trends["msgs_per_s"].Hist.RecordValue(n)
		sc.Counters["messages"] += n
		sw.Observe(&metrics.Point{Scenario: sc.Name, Sec: int64(s), Time: zero.Add(time.Duration(s) * time.Second), Counts: map[string]int64{"messages": n}})
	}
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	snap := &metrics.Snapshot{Version: metrics.SnapshotVersion, Start: zero, End: end, Scenarios: []*metrics.ScenarioSnapshot{sc}}
	opts := resultdir.Options{Target: "kafka://x", Scenarios: []resultdir.ScenarioOptions{{Name: sc.Name, Config: engine.Config{Executor: engine.ConstantVUs, VUs: 1, Duration: end.Sub(zero)}}}}
	if err := resultdir.WriteJSON(dir, resultdir.SnapshotFile, snap); err != nil {
		t.Fatal(err)
	}
	if err := resultdir.WriteJSON(dir, resultdir.OptionsFile, opts); err != nil {
		t.Fatal(err)
	}
}

// Merged msgs_per_s is the sum over the processes, second by second
// (the case: two segments at ~4,000/s each must show ~8,000/s,
// not the per-process average), including a second one process stalled.
func TestMergeRateTrendsAddUp(t *testing.T) {
	root := t.TempDir()
	zero := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := []int64{4000, 4100, 0, 3900, 4000}
	b := []int64{3900, 4000, 4200, 4100, 3800}
	writeRatePart(t, filepath.Join(root, "a"), zero, a)
	writeRatePart(t, filepath.Join(root, "b"), zero, b)
	rts := []RateTrend{{Trend: "msgs_per_s", Counter: "messages"}}

	res, err := Merge([]string{filepath.Join(root, "a"), filepath.Join(root, "b")}, filepath.Join(root, "m"), Options{RateTrends: rts})
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Snapshot.Scenario("kafka.Produce")
	h := sc.Trends["msgs_per_s"].Hist
	var total int64
	for i := range a {
		total += a[i] + b[i]
	}
	if h.TotalCount() != int64(len(a)) {
		t.Fatalf("msgs_per_s has %d samples, want %d (one per second)", h.TotalCount(), len(a))
	}
	want := float64(total) / float64(len(a))
	if got := h.Mean(); got < want*0.99 || got > want*1.01 {
		t.Errorf("merged msgs_per_s mean %.0f, want the total rate %.0f (messages %d over %ds)", got, want, sc.Counters["messages"], len(a))
	}
	if got := h.Min(); got < 4190 || got > 4210 {
		t.Errorf("merged msgs_per_s min %d, want the stalled second's total 4200", got)
	}
	if !strings.Contains(strings.Join(sc.Notes, "\n"), "msgs_per_s: merged from the per-second messages of all 2 processes") {
		t.Errorf("notes = %q", sc.Notes)
	}
	// Without the declaration the histograms are pooled: the mean is per
	// process. This is the behaviour the rebuild corrects.
	res, err = Merge([]string{filepath.Join(root, "a"), filepath.Join(root, "b")}, filepath.Join(root, "pooled"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Snapshot.Scenario("kafka.Produce").Trends["msgs_per_s"].Hist.Mean(); got > want*0.6 {
		t.Errorf("pooled mean %.0f: expected about half of %.0f", got, want)
	}
}
