package msgload

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// TestSamplerStallAndDrain: a stalled second is a sample of 0, and the
// partial second at the end (the drain after -d) is sampled too, so that
// the samples cover the whole scenario: their time-weighted mean is the
// count over the elapsed time.
//
// Mutation caught: dropping the final sample in Run (the old NATS sampler,
// which sampled only when an iteration started) loses the last 500 ms, in
// which 1,000 messages were acknowledged: the test sees 3 samples, not 4.
func TestSamplerStallAndDrain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		now := func() time.Duration { return time.Since(t0) }
		var n atomic.Int64
		reg := metrics.NewRegistry()
		id := reg.MustAdd(metrics.Def{Name: "msgs_per_s", Kind: metrics.KindTrend})
		out := &sink{}
		s := &Sampler{Now: now, Out: out, Count: n.Load, Trend: id}
		s.Start(0)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Run(ctx)
		}()
		// Second 1: 1,000; second 2: stalled; second 3: 3,000; then 500 ms
		// of drain at 2,000/s.
		for _, step := range []struct {
			d    time.Duration
			rate int64
		}{{time.Second, 1000}, {time.Second, 0}, {time.Second, 3000}, {500 * time.Millisecond, 2000}} {
			for range 10 { // mid-tenths: never at the same instant as a tick
				time.Sleep(step.d / 20)
				n.Add(step.rate * int64(step.d) / int64(time.Second) / 10)
				time.Sleep(step.d / 20)
			}
		}
		synctest.Wait()
		cancel()
		<-done
		got := out.got[id]
		want := []int64{1000, 0, 3000, 2000}
		if len(got) != len(want) {
			t.Fatalf("samples %v, want %v (1s, 1s, 1s, then the 0.5s drain)", got, want)
		}
		for i := range want {
			if d := got[i] - want[i]; d < -10 || d > 10 {
				t.Fatalf("samples %v, want %v", got, want)
			}
		}
		if s.Samples() != 4 {
			t.Fatalf("samples %d", s.Samples())
		}
	})
}

type sink struct{ got map[metrics.ID][]int64 }

func (s *sink) Trend(id metrics.ID, v int64) {
	if s.got == nil {
		s.got = map[metrics.ID][]int64{}
	}
	s.got[id] = append(s.got[id], v)
}

// TestSamplerPartsAndPhases: per-part and per-phase samples.
func TestSamplerPartsAndPhases(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		now := func() time.Duration { return time.Since(t0) }
		var parts [2]atomic.Int64
		var all atomic.Int64
		out := &sink{}
		s := &Sampler{Now: now, Out: out, Count: all.Load, Trend: 1,
			Parts: 2, PartCount: func(i int) int64 { return parts[i].Load() }, PartTrend: 2,
			Phase: func(at time.Duration) int { return Phase(at, 0, time.Second, time.Second) }, PhaseTrend: [3]metrics.ID{3, 4, 5}}
		s.Start(0)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); s.Run(ctx) }()
		for range 3 {
			time.Sleep(time.Second - time.Millisecond)
			parts[0].Add(100)
			parts[1].Add(300)
			all.Add(400)
			time.Sleep(time.Millisecond)
			synctest.Wait()
		}
		time.Sleep(50 * time.Millisecond) // too short for a final sample
		cancel()
		<-done
		if got := out.got[2]; len(got) != 6 || got[0] != 100 || got[1] != 300 {
			t.Fatalf("per part %v", got)
		}
		if len(out.got[3]) != 1 || len(out.got[4]) != 1 || len(out.got[5]) != 1 || len(s.PhaseRates(PhaseDuring)) != 1 {
			t.Fatalf("per phase %v", out.got)
		}
	})
}
