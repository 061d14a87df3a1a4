package engine

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// countLog counts request records per VU, as an output that asks for
// them (output.RequestLogger) without blocking would.
type countLog struct{ total atomic.Int64 }

func (l *countLog) Writer(string) reqlog.Writer { return &countWriter{l: l} }

type countWriter struct {
	l *countLog
	n int64
}

func (w *countWriter) Write(reqlog.Record) { w.n++ }
func (w *countWriter) Close() error        { w.l.total.Add(w.n); return nil }

// BenchmarkNoopIterationRequestLog is BenchmarkNoopIteration with a
// request log that counts records per VU: what an output receiving every
// request record adds to the recording path. Without such an output the
// engine gets no request log (BenchmarkNoopIteration).
func BenchmarkNoopIterationRequestLog(b *testing.B) {
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"noop"})
	go agg.Run()
	log := &countLog{}
	cfg := Config{Executor: SharedIterations, VUs: 50, Iterations: int64(max(b.N, 50)), MaxDuration: time.Hour}.Defaults()
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := Run(context.Background(), Plan{Scenarios: []Spec{{Name: "noop", Scenario: noopScenario{}, Config: cfg}}}, Deps{Agg: agg, Clock: clock, Log: log}); err != nil {
		b.Fatal(err)
	}
	agg.Close()
	b.StopTimer()
	if got := log.total.Load(); got != cfg.Iterations {
		b.Fatalf("records = %d, want %d", got, cfg.Iterations)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "it/s")
}
