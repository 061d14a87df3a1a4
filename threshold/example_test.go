package threshold_test

import (
	"fmt"
	"time"

	"github.com/stampede-bench/stampede/metric"
	"github.com/stampede-bench/stampede/threshold"
)

// Thresholds judge a run's snapshot the way k6 does: trend values in
// milliseconds, a counter's rate per second of the measured run.
func Example() {
	set, err := threshold.ParseSet([]string{
		"responseTime: p(95)<200, max<500",
		"requests: rate>200",
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	sc := metric.NewScenarioSnapshot("echo.RoundTrip", "constant-vus")
	sc.Start, sc.End = start, start.Add(10*time.Second)
	rt := &metric.Trend{Unit: metric.UnitMicros, Hist: metric.NewHistogram()}
	for i := range 1000 {
		_ = rt.Hist.RecordValue(int64(1000 + 100*i)) // 1 ms to 100.9 ms
	}
	sc.Trends[metric.ResponseTime] = rt
	sc.Counters[metric.Requests] = 1000
	snap := &metric.Snapshot{Start: sc.Start, End: sc.End, Scenarios: []*metric.ScenarioSnapshot{sc}}

	results := threshold.Evaluate(snap, set.List())
	for _, r := range results {
		fmt.Println(r)
	}
	fmt.Println("failed:", threshold.Failed(results))
	// Output:
	// ✓ responseTime: p(95)<200 (p(95)=95.935)
	// ✓ responseTime: max<500 (max=100.927)
	// ✗ requests: rate>200 (rate=100)
	// failed: true
}
