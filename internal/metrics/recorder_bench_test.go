package metrics

import (
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/cputime"
)

// BenchmarkRecordRequest is the recording cost of one closed-model
// iteration with one operation, as the engine pays it: two clock reads (the
// operation's end and the iteration's end; the start is the previous end),
// the operation (responseTime, rows, requests) and the iteration
// (iterations, iteration_duration).
func BenchmarkRecordRequest(b *testing.B) {
	reg := NewRegistry()
	clock := NewClock()
	agg := NewAggregator(reg, clock, []string{"s"})
	go agg.Run()
	defer agg.Close()
	r := agg.Recorder(0, 0)
	prev := clock.Now()
	b.ReportAllocs()
	for b.Loop() {
		start := prev
		end := clock.Now()
		r.Op(end, int64((end-start)/time.Microsecond), -1, -1, 1, "")
		prev = clock.Now()
		r.Iteration(prev, prev-start)
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

// BenchmarkRecordHTTPRequest is BenchmarkRecordRequest plus k6's HTTP
// metrics of the request (http_reqs, http_req_duration and its
// expected_response submetric, http_req_failed, the six phases, data_sent
// and data_received), as the http family records them.
func BenchmarkRecordHTTPRequest(b *testing.B) {
	reg := NewRegistry()
	ids, err := RegisterHTTP(reg)
	if err != nil {
		b.Fatal(err)
	}
	clock := NewClock()
	agg := NewAggregator(reg, clock, []string{"s"})
	go agg.Run()
	defer agg.Close()
	r := agg.Recorder(0, 0)
	prev := clock.Now()
	h := HTTPSample{Sending: 6 * time.Microsecond, Waiting: 500 * time.Microsecond, Sent: 60, Received: 120, Status: 200, Expected: true}
	b.ReportAllocs()
	for b.Loop() {
		start := prev
		end := clock.Now()
		r.Op(end, int64((end-start)/time.Microsecond), -1, -1, 1, "")
		r.HTTP(end, &ids, &h)
		prev = clock.Now()
		r.Iteration(prev, prev-start)
	}
	r.Flush()
}

// BenchmarkAggregateHTTPSeries is the whole cost (the VU's and the
// aggregator's goroutine, process CPU from getrusage, the aggregator
// drained inside the timing) of recording HTTP requests, with and without
// the per-second HTTP phase histograms series.jsonl keeps
// (MarkHTTPSeries). Half the requests dial a connection (non-zero
// blocked and connecting).
func BenchmarkAggregateHTTPSeries(b *testing.B) {
	for _, marked := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "http-series"}[marked], func(b *testing.B) {
			reg := NewRegistry()
			ids, err := RegisterHTTP(reg)
			if err != nil {
				b.Fatal(err)
			}
			if marked {
				MarkHTTPSeries(reg)
			}
			clock := NewClock()
			agg := NewAggregator(reg, clock, []string{"s"})
			go agg.Run()
			r := agg.Recorder(0, 0)
			hs := [2]HTTPSample{
				{Sending: 6 * time.Microsecond, Waiting: 500 * time.Microsecond, Receiving: 20 * time.Microsecond, Sent: 60, Received: 120, Status: 200, Expected: true},
				{Blocked: 90 * time.Microsecond, Connecting: 80 * time.Microsecond, Sending: 6 * time.Microsecond, Waiting: 500 * time.Microsecond, Sent: 60, Received: 120, Status: 200, Expected: true},
			}
			cpu0 := cputime.Process()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				end := clock.Now()
				r.Op(end, 526, -1, -1, 1, "")
				r.HTTP(end, &ids, &hs[i&1])
				i++
			}
			r.Flush()
			agg.Close()
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
