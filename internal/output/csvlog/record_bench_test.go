package csvlog

import (
	"io"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// BenchmarkRecordAndLog is the recording and logging path of one
// closed-model no-op iteration as the engine runs it with the default
// request CSV: the operation's end is read once and shared by the
// recorder (responseTime, rows, requests) and the log's row (its
// timestamp), the request passed as its fields (reqlog.PlainWriter) and,
// when WritePlain refuses it, as a record (vu.Iter's way), then the
// iteration's end (iterations, iteration_duration).
// It must not allocate (issue 32: 0 allocs/op on this path);
// BenchmarkRecordOnly is the same path without the log, its peer.
func BenchmarkRecordAndLog(b *testing.B) { benchRecord(b, true) }

// BenchmarkRecordOnly is BenchmarkRecordAndLog without the request log.
func BenchmarkRecordOnly(b *testing.B) { benchRecord(b, false) }

func benchRecord(b *testing.B, logged bool) {
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"s"})
	go agg.Run()
	defer agg.Close()
	rec := agg.Recorder(0, 0)
	l := New(io.Discard, Options{})
	w := l.Writer("s").(*Writer)
	base := clock.Base().UnixNano()
	var r reqlog.Record
	prev := clock.Now()
	b.ReportAllocs()
	for b.Loop() {
		start := prev
		end := clock.Now()
		rt := end - start
		rec.Op(end, int64(rt/time.Microsecond), -1, -1, 0, "")
		if logged && !w.WritePlain("noop", -1, rt, 0, base+int64(end)) {
			r = reqlog.Record{Query: "noop", Latency: -1, ResponseTime: rt, OK: true}
			w.WriteAt(&r, clock, end)
		}
		prev = clock.Now()
		rec.Iteration(prev, prev-start)
	}
	rec.Flush()
	w.Close()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}
