package kafka

import (
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stampede-bench/stampede/internal/engine"
)

// A broker that stalls for two seconds mid-run: msgs_per_s has a sample
// for every second, the stalled ones near 0, so its mean is the run's
// messages over its duration instead of an average that skips the stall.
func TestThroughputTrendCountsStalledSeconds(t *testing.T) {
	e := embedded(t, 1)
	opened, env, _, err := open(t, family(t), e.URL(), 8, ScenarioProduce)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	time.AfterFunc(1200*time.Millisecond, func() {
		e.Cluster.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
			e.Cluster.DropControl()
			e.Cluster.SleepControl(func() { time.Sleep(2 * time.Second) })
			return nil, nil, false
		})
	})
	const dur = 4 * time.Second
	snap := runOpened(t, t.Context(), opened, env, step{ScenarioProduce, engine.Config{Executor: engine.ConstantVUs, VUs: 8, Duration: dur}})
	p := snap.Scenario(ScenarioProduce)
	tr := p.Trends[MetricThroughput]
	if tr == nil {
		t.Fatal("no msgs_per_s")
	}
	h := tr.Hist
	// One per second, plus the partial second of the drain after -d
	// (msgload.Sampler's last sample, at least 100 ms long).
	if n := h.TotalCount(); n < 3 || n > 5 {
		t.Fatalf("msgs_per_s has %d samples in %v, want one per second and the drain", n, dur)
	}
	if h.Min() > h.Max()/10 {
		t.Errorf("msgs_per_s min %d max %d: the stalled seconds are not samples of their own", h.Min(), h.Max())
	}
	// The samples cover the seconds the ticker saw (3 or 4 of the 4) and
	// the drain; a partial second's sample is a rate (its count over its
	// span), so the sum may exceed the messages by up to that rate.
	sum := h.Mean() * float64(h.TotalCount())
	msgs := float64(p.Counters[MetricMessages])
	if sum > msgs*1.05+float64(h.Max()) || sum < msgs*float64(h.TotalCount()-2)/4 {
		t.Errorf("msgs_per_s samples sum to %.0f, messages %.0f (mean %.0f, %d samples)", sum, msgs, h.Mean(), h.TotalCount())
	}
}
