package kafka

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
	"github.com/stampede-bench/stampede/vu"
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
// sampler, fault window, background work, notes) and the kafka family's
// watchdog over waiting senders.
type base struct {
	*run
	msgload.Core

	unmatched atomic.Int64

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
var _ vu.Starter = (*base)(nil)

// Started fixes the layout the core records, then starts the core's
// background work (msgload.Core.Started).
func (b *base) Started(ctx context.Context, at time.Duration, clock metrics.Clock) {
	if !b.IsStarted() && b.rb != nil { // read back after the scenarios were made
		b.LeaderNodes, b.LoadParts = b.rb.leading(), b.rb.partitionCount()
	}
	b.Core.Started(ctx, at, clock)
}

// churn tells whether the scenario has a churn window (not kafka.Consume).
func (b *base) churn() bool { return churning(&b.opts) && b.Name != ScenarioConsume }

// pinned tells whether each VU writes one topic (VU i → topic i mod T),
// so that per-topic counts are measured (msgload.Pinned).
func (b *base) pinned() bool { return msgload.Pinned(b.maxVUs, len(b.topics)) }

// produces tells whether the scenario produces (all but kafka.Consume).
func (b *base) produces() bool { return b.Produces }
