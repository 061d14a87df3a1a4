package webdash

import (
	"fmt"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// benchPoint is one second of an HTTP scenario: a responseTime histogram
// of 1000 requests, counts, errors and the HTTP phases.
func benchPoint(sec int64, base time.Time) *metrics.Point {
	h := metric.NewHistogram()
	for i := int64(1); i <= 1000; i++ {
		_ = h.RecordValue(i * 37 % 50000)
	}
	ts := map[string]metrics.PointStats{}
	for _, name := range metrics.HTTPPhases() {
		ts[name] = metrics.PointStats{N: 1000, Mean: 120}
	}
	return &metrics.Point{Scenario: "s", Sec: sec, Time: base.Add(time.Duration(sec) * time.Second), VUs: 50, Hist: h, RT: metric.StatsOf(h),
		Counts:     map[string]int64{metrics.Requests: 1000, metrics.Errors: 3, metrics.DataSent: 90000, metrics.DataReceived: 400000},
		Errors:     map[string]int64{"HTTP 500": 2, fmt.Sprint("timeout ", sec%3): 1},
		TrendStats: ts}
}

// BenchmarkDashboardSecond is the dashboard's work for one second of a
// run with a full 10-minute window and one client: Observe (on the
// aggregator's goroutine) and one update (the payload built, encoded and
// queued). ns/op is the CPU it costs per second of run.
func BenchmarkDashboardSecond(b *testing.B) {
	d := New(Config{Scenarios: []string{"s"}})
	c, _ := d.hub.add()
	base := time.Now()
	for sec := int64(0); sec < 600; sec++ {
		d.Observe(benchPoint(sec, base))
	}
	pts := make([]*metrics.Point, 16)
	for i := range pts {
		pts[i] = benchPoint(int64(600+i), base)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := pts[i%len(pts)]
		p.Sec = int64(600 + i)
		d.Observe(p)
		d.publish()
		<-c.ch
	}
	b.StopTimer()
	_, data := d.latest()
	b.ReportMetric(float64(len(data)), "payload-bytes")
}
