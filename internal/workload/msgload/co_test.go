package msgload

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

// stallBroker is a synthetic broker that acknowledges a message 1 ms
// after it is published, except from 2 s to 3 s after t0, when it stalls:
// what is published then is acknowledged at 3 s, and a client that
// connects then is ready only at 3 s. Consumers receive a message 1 ms
// after its acknowledgement.
type stallBroker struct {
	t0 time.Time
}

func (b *stallBroker) stalled() (bool, time.Duration) {
	now := time.Since(b.t0)
	return now >= 2*time.Second && now < 3*time.Second, 3*time.Second - now
}

// coScenario publishes one message per iteration to a stallBroker through
// the core, stamped with its origin, and records its end-to-end latency
// from the stamp when the synthetic consumer receives it, as the families
// do.
type coScenario struct {
	Core
	broker *stallBroker
	e2e    metrics.ID
}

func (s *coScenario) NewVU(context.Context, int) (vu.VU, error) {
	if stalled, left := s.broker.stalled(); stalled {
		time.Sleep(left)
	}
	return &coVU{s: s}, nil
}

type coVU struct {
	s  *coScenario
	it *vu.Iter
}

func (v *coVU) Iterate(_ context.Context, it *vu.Iter) error {
	s := v.s
	v.it = it
	s.Begin(it)
	sent := it.Now()
	stamp := it.Clock.Wall(Origin(it, sent)) // what the message carries
	s.Sent.Add(1)
	wait := time.Millisecond
	if stalled, left := s.broker.stalled(); stalled {
		wait = left
	}
	time.Sleep(wait)
	end := s.Published(it, "m", 0, sent, 100, driver.Result{Rows: 1})
	time.Sleep(time.Millisecond) // delivered to the consumer
	it.Rec.Trend(s.e2e, end, int64(time.Since(stamp)/time.Microsecond))
	return nil
}

func (v *coVU) Close() error { v.s.CloseVU(v.it); return nil }

// runCO runs a coScenario at 100 msgs/s for 5 s under the engine's
// constant-arrival-rate executor on synctest's clock.
func runCO(t *testing.T, maxVUs int64) (*metrics.ScenarioSnapshot, *coScenario) {
	reg := metrics.NewRegistry()
	s := &coScenario{broker: &stallBroker{t0: time.Now()}}
	s.Name, s.Parts, s.Produces, s.IDs = "co", []string{"p"}, true, &IDs{}
	RegisterPublish(reg, s.IDs, 1, "part_msgs_per_s", false)
	s.e2e = AddTrend(reg, MetricE2ELatency, metrics.UnitMicros)
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"co"})
	go agg.Run()
	cfg := engine.Config{Executor: engine.ConstantArrivalRate, Rate: 100, Duration: 5 * time.Second, PreAllocatedVUs: 1, MaxVUs: maxVUs}.Defaults()
	if _, err := engine.Run(t.Context(), engine.Plan{Scenarios: []engine.Spec{{Name: "co", Scenario: s, Config: cfg}}}, engine.Deps{Agg: agg, Clock: clock, FakeTime: true}); err != nil {
		t.Fatal(err)
	}
	agg.Close()
	return agg.Snapshot().Scenarios[0], s
}

// TestLatencyFromTheIntendedSend: under an arrival-rate executor the
// messages due while the broker stalled (2 s to 3 s) are sent late — their
// VUs could only connect when it recovered — and publish_latency and
// e2e_latency count from each message's intended send time, so the stall
// is in their percentiles (p99 near 1 s), while service_time (from the
// actual send) stays below it; publish_delay says how late the sends were.
// With too few VUs the messages that found none are dropped and counted
// in dropped_iterations, never hidden.
//
// Mutations caught: Origin returning the actual send (e2e_latency p99
// 2 ms), Published timing from the actual send (publish_latency p99
// 1 ms).
func TestLatencyFromTheIntendedSend(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sc, s := runCO(t, 200)
		pl, e2e := sc.Trends[MetricPublishLatency].Stats(), sc.Trends[MetricE2ELatency].Stats()
		svc, delay := sc.Trends[metrics.ServiceTime].Stats(), sc.Trends[MetricPublishDelay].Stats()
		t.Logf("publish_latency p99 %vµs max %vµs, e2e_latency p99 %vµs, service_time p99 %vµs, publish_delay max %vµs", pl.P99, pl.Max, e2e.P99, svc.P99, delay.Max)
		if pl.P99 < 500_000 || pl.Max < 950_000 {
			t.Errorf("publish_latency p99 %vµs max %vµs: the stall is hidden (want p99 ≥ 500 ms, max ≥ 950 ms)", pl.P99, pl.Max)
		}
		if e2e.P99 < 500_000 || e2e.Max < 950_000 {
			t.Errorf("e2e_latency p99 %vµs max %vµs: the stall is hidden (want p99 ≥ 500 ms, max ≥ 950 ms)", e2e.P99, e2e.Max)
		}
		if svc.P99 >= 100_000 {
			t.Errorf("service_time p99 %vµs, want < 100 ms: it must not include the wait for a VU", svc.P99)
		}
		if delay.Max < 900_000 {
			t.Errorf("publish_delay max %vµs, want ≥ 900 ms", delay.Max)
		}
		if n := sc.Counters[MetricMessages]; n != 500 {
			t.Errorf("%d messages acknowledged, want the schedule's 500", n)
		}
		// Under a schedule VUs wait for their slots: Little's law over
		// the VUs would claim a queue that is not there.
		if n := s.QueueingNote(200, "ack", "--window"); n != "" {
			t.Errorf("queueing note under an arrival-rate schedule: %s", n)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		sc, _ := runCO(t, 2)
		msgs, dropped := sc.Counters[MetricMessages], sc.Counters[metrics.DroppedIterations]
		if dropped < 50 || msgs+dropped != 500 {
			t.Errorf("%d messages and %d dropped iterations, want ≥ 50 dropped and 500 in all", msgs, dropped)
		}
	})
}
