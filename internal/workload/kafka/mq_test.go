package kafka

import (
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/msgload"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// Produce exactly N messages, then consume them: the tool must neither
// lose nor double-count a message.
func TestProduceConsumeCountsMatch(t *testing.T) {
	const n = 3000
	f := family(t, "--topics", "3", "--partitions", "4", "--consumers", "2", "--message-size", "512")
	res := runSteps(t, f, "",
		step{ScenarioProduce, engine.Config{Executor: engine.SharedIterations, VUs: 32, Iterations: n}},
		step{ScenarioConsume, engine.Config{Executor: engine.ConstantVUs, VUs: 6, Duration: 3 * time.Second, GracefulStop: 2 * time.Second}},
	)
	p, c := res.sc(ScenarioProduce), res.sc(ScenarioConsume)
	if got := p.Counters[MetricMessages]; got != n {
		t.Errorf("messages = %d, want %d (errors %v)", got, n, p.Errors)
	}
	if got := p.Counters[MetricBytes]; got != n*512 {
		t.Errorf("bytes = %d, want %d", got, n*512)
	}
	if got := c.Counters[MetricConsumed]; got != n {
		t.Errorf("consumed = %d, want %d (errors %v)", got, n, c.Errors)
	}
	if got := c.Counters[MetricConsumedBytes]; got != n*512 {
		t.Errorf("consumed_bytes = %d, want %d", got, n*512)
	}
	// 32 VUs for 3 topics: each VU writes one topic, so the per-topic
	// counts are each topic's own acknowledgements (measured, not n/3 by
	// construction) and add up to n.
	var perTopic int64
	for _, tn := range []string{"stampede-0", "stampede-1", "stampede-2"} {
		v := p.Counters[msgload.Tagged(MetricMessages, "topic", tn)]
		if v <= 0 {
			t.Errorf("messages{topic:%s} = %d, want some", tn, v)
		}
		perTopic += v
	}
	if perTopic != n {
		t.Errorf("per-topic sum %d != %d", perTopic, n)
	}
	if pl := p.Trends[MetricPublishLatency]; pl == nil || pl.Hist.TotalCount() != n {
		t.Errorf("publish_latency count wrong: %+v", pl)
	}
	if rt := p.Trends[metrics.ResponseTime]; rt == nil || rt.Hist.TotalCount() != n {
		t.Errorf("responseTime count wrong")
	}
	if len(p.Errors)+len(c.Errors) > 0 {
		t.Errorf("errors: produce %v consume %v", p.Errors, c.Errors)
	}
}

// With --messages-per-iteration K every iteration sends K messages and
// records each acknowledgement; a VU writes one topic (4 VUs, 2 topics),
// so each topic gets whole iterations.
func TestMessagesPerIteration(t *testing.T) {
	f := family(t, "--messages-per-iteration", "7", "--topics", "2")
	res := runSteps(t, f, "", step{ScenarioProduce, engine.Config{Executor: engine.SharedIterations, VUs: 4, Iterations: 100}})
	p := res.sc(ScenarioProduce)
	if p.Counters[MetricMessages] != 700 || p.Counters[metrics.Requests] != 700 || p.Counters[metrics.Iterations] != 100 {
		t.Errorf("messages %d, requests %d, iterations %d; want 700, 700, 100 (errors %v)",
			p.Counters[MetricMessages], p.Counters[metrics.Requests], p.Counters[metrics.Iterations], p.Errors)
	}
	if a, b := p.Counters[msgload.Tagged(MetricMessages, "topic", "stampede-0")], p.Counters[msgload.Tagged(MetricMessages, "topic", "stampede-1")]; a+b != 700 || a%7 != 0 || b%7 != 0 || a == 0 || b == 0 {
		t.Errorf("per topic %d and %d, want whole iterations of 7 on each, 700 in all", a, b)
	}
}
