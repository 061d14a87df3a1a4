package nats

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/engine"
)

// silence subscribes to subject on the run's cluster without ever
// answering: a publish there has a responder but gets no PubAck.
func silence(t *testing.T, url, subject string) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	if _, err := nc.Subscribe(subject, func(*nats.Msg) {}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestAsyncPubAckTimeout: an async message whose PubAck never comes fails
// --nats-publish-timeout after its publish with the sync timeout's label,
// and the next window starts afresh (nats.go, which times nothing here,
// would otherwise keep the unanswered messages pending and stall it).
func TestAsyncPubAckTimeout(t *testing.T) {
	const window = 5
	f := family(t, "--nats-nodes", "1", "--nats-publish", "async", "--nats-async-window", strconv.Itoa(window), "--nats-publish-timeout", "1s")
	o, env, err := open(t, f, "", 1, ScenarioPublish)
	if err != nil {
		t.Fatal(err)
	}
	s := o.Scenarios[ScenarioPublish].(*publishScenario)
	silence(t, s.cluster.URL(), "silent.>")
	s.subjects = []string{"silent.0"}
	start := time.Now()
	sc := runOpened(t, o, env, step{ScenarioPublish, iterations(1, 3)}).Scenario(ScenarioPublish)
	took := time.Since(start)
	// A sync publish times out on its context's deadline.
	label := natsdrv.ErrorMessage(context.DeadlineExceeded)
	if got := natsdrv.ErrorMessage(errAckTimeout); got != label {
		t.Errorf("async timeout labelled %q, the sync one %q", got, label)
	}
	if got := sc.Errors[label]; got != 3*window || len(sc.Errors) != 1 || sc.Counters[MetricMessages] != 0 {
		t.Fatalf("errors %v, acknowledged %d: want %d × %q and nothing else", sc.Errors, sc.Counters[MetricMessages], 3*window, label)
	}
	// Three windows, each timed out 1 s after its publishes.
	if took < 3*time.Second || took > 6*time.Second {
		t.Errorf("3 windows with a 1 s timeout took %s", took)
	}
}

// TestAsyncNoResponders: an async message that no stream answers is sent
// again --nats-publish-retries times, each retry counted, and then fails
// with the "no responders" label.
func TestAsyncNoResponders(t *testing.T) {
	const window, iters, retries = 4, 2, 2
	f := family(t, "--nats-nodes", "1", "--nats-publish", "async", "--nats-async-window", strconv.Itoa(window),
		"--nats-publish-retries", strconv.Itoa(retries), "--nats-publish-retry-wait", "10ms")
	o, env, err := open(t, f, "", 1, ScenarioPublish)
	if err != nil {
		t.Fatal(err)
	}
	s := o.Scenarios[ScenarioPublish].(*publishScenario)
	s.subjects = []string{"nostream.0"}
	sc := runOpened(t, o, env, step{ScenarioPublish, iterations(1, iters)}).Scenario(ScenarioPublish)
	label := natsdrv.ErrorMessage(jetstream.ErrNoStreamResponse)
	if got := sc.Errors[label]; got != window*iters || len(sc.Errors) != 1 || sc.Counters[MetricMessages] != 0 {
		t.Fatalf("errors %v, acknowledged %d: want %d × %q and nothing else", sc.Errors, sc.Counters[MetricMessages], window*iters, label)
	}
	if got := sc.Counters[MetricPublishRetries]; got != window*iters*retries {
		t.Errorf("publish_retries %d, want %d", got, window*iters*retries)
	}
}

// BenchmarkPublishAsync is nats.Publish async per message (publish, PubAck,
// recording) on a one-node embedded cluster: allocs/op are the client's
// allocations per message, nats.go's included.
func BenchmarkPublishAsync(b *testing.B) {
	const window = 500
	f := family(b, "--nats-nodes", "1", "--nats-publish", "async", "--nats-async-window", strconv.Itoa(window), "--nats-message-size", "2048")
	o, env, err := open(b, f, "", 1, ScenarioPublish)
	if err != nil {
		b.Fatal(err)
	}
	iters := int64(max(b.N/window, 1))
	b.ReportAllocs()
	b.SetBytes(2048)
	b.ResetTimer()
	sc := runOpened(b, o, env, step{ScenarioPublish, engine.Config{Executor: engine.SharedIterations, VUs: 1, Iterations: iters, MaxDuration: 10 * time.Minute}}).Scenario(ScenarioPublish)
	b.StopTimer()
	if got := sc.Counters[MetricMessages]; got != iters*window {
		b.Fatalf("acknowledged %d of %d (%v)", got, iters*window, sc.Errors)
	}
	b.ReportMetric(float64(iters*window)/b.Elapsed().Seconds(), "msgs/s")
}
