package mq

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// run is what every scenario of one Open shares: options, target, metrics.
type run struct {
	opts   Options
	ids    *ids
	topics []string
	layout layout
	// client makes a franz-go client for the target with extra options.
	client func(extra ...kgo.Opt) (*kgo.Client, error)
	admin  *kadm.Client
	// cluster is the embedded cluster; nil with --target.
	cluster *kfake.Cluster
	pay     *payloads
	maxVUs  int
	// rb is what the cluster said of the load topics at Open.
	rb   *topicsReadBack
	logf func(format string, args ...any)
}

// base is the state of one scenario: the messaging core's (counts,
// sampler, fault window, background work, notes), the kafka family's
// watchdog over waiting senders and its once-a-second backlog sample.
type base struct {
	*run
	msgload.Core

	unmatched atomic.Int64

	samp  sampler
	watch watchdog
}

func newBase(r *run, name string) *base {
	b := &base{run: r}
	b.Name, b.IDs, b.Parts, b.Logf = name, &r.ids.IDs, r.topics, r.logf
	b.Produces = name != ScenarioConsume
	if b.churn() {
		b.Fault = msgload.Window{On: true, From: r.opts.ChurnStart, For: r.opts.ChurnFor}
	}
	b.OnStart = append(b.OnStart, func(ctx context.Context) {
		b.watch.run(ctx, b.Clock().Now, b.opts.DeliveryTimeout+guardSlack)
	})
	return b
}

// Every scenario embeds *base, so the engine tells each one when its VUs
// start.
var _ engine.Starter = (*base)(nil)

// Started fixes the start of the per-second backlog sample and the
// layout the core records, then starts the core's background work
// (msgload.Core.Started).
func (b *base) Started(ctx context.Context, at time.Duration, clock metrics.Clock) {
	if !b.IsStarted() {
		b.samp.init(at)
		if b.rb != nil { // read back after the scenarios were made
			b.LeaderNodes, b.LoadParts = b.rb.leading(), b.rb.partitionCount()
		}
	}
	b.Core.Started(ctx, at, clock)
}

// begin is called at the start of every iteration: it records what the
// background work left pending and may take the per-second sample extra.
func (b *base) begin(it *engine.Iter, extra func(it *engine.Iter, at time.Duration, dt time.Duration)) {
	b.Begin(it)
	b.samp.maybe(it, b, extra)
}

func (b *base) churn() bool { return b.opts.churning() && b.Name != ScenarioConsume }

// sampler calls a scenario's per-second hook (backlog) on whichever VU
// gets there first once a second. Throughput is sampled by the core's
// msgload.Sampler.
type sampler struct {
	next   atomic.Int64 // run offset (ns) of the next sample
	mu     sync.Mutex   // held by the sampling VU
	lastAt time.Duration
}

func (s *sampler) init(start time.Duration) {
	s.lastAt = start
	s.next.Store(int64(start + time.Second))
}

func (s *sampler) maybe(it *engine.Iter, b *base, extra func(*engine.Iter, time.Duration, time.Duration)) {
	now := it.Start
	if extra == nil || int64(now) < s.next.Load() || !s.mu.TryLock() {
		return
	}
	defer s.mu.Unlock()
	if int64(now) < s.next.Load() {
		return
	}
	now = it.Now()
	dt := now - s.lastAt
	s.lastAt = now
	s.next.Store(int64(now + time.Second))
	if extra != nil {
		extra(it, now, dt)
	}
}

// pinned tells whether each VU writes one topic (VU i → topic i mod T),
// so that per-topic counts are measured (msgload.Pinned).
func (b *base) pinned() bool { return msgload.Pinned(b.maxVUs, len(b.topics)) }

// produces tells whether the scenario produces (all but kafka.Consume).
func (b *base) produces() bool { return b.Produces }
