package metrics

import (
	"testing"
	"time"
)

// BenchmarkRecordRequest is the recording cost of one operation as
// engine.Iter.Request pays it: two clock reads, four trend samples, one
// counter, and the iteration (counter + trend).
func BenchmarkRecordRequest(b *testing.B) {
	reg := NewRegistry()
	clock := NewClock()
	agg := NewAggregator(reg, clock, []string{"s"})
	go agg.Run()
	defer agg.Close()
	r := agg.Recorder(0, 0)
	b.ReportAllocs()
	for b.Loop() {
		start := clock.Now()
		end := clock.Now()
		us := int64((end - start) / time.Microsecond)
		r.Trend(IDResponseTime, end, us)
		r.Trend(IDServiceTime, end, us)
		r.Add(IDRequests, end, 1)
		r.Trend(IDRows, end, 1)
		r.Iteration(end, end-start)
	}
	r.Flush()
}

// BenchmarkClockNow is one monotonic clock read.
func BenchmarkClockNow(b *testing.B) {
	c := NewClock()
	var d time.Duration
	for b.Loop() {
		d += c.Now()
	}
	_ = d
}
