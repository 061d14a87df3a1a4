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

// base is the state of one scenario: counts shared by its VUs and the
// background goroutines, the per-second sampler and the scenario's notes.
// Background goroutines never record directly (recorders belong to VUs):
// they leave counts and errors in pending, and the next VU to start an
// iteration records them.
type base struct {
	*run
	name string

	startOnce sync.Once
	start     time.Duration // run offset at which the VUs started
	startWall time.Time
	started   atomic.Bool
	clock     metrics.Clock
	onStart   []func(ctx context.Context, start time.Duration)
	// atClose runs once after the VUs stopped and the background work
	// ended, before what is pending is recorded (the ledger's check).
	atClose []func()

	sent  atomic.Int64 // messages handed to a producer
	acked atomic.Int64
	// ackedBytes sums acknowledged value bytes.
	ackedBytes atomic.Int64
	consumed   atomic.Int64
	failed     atomic.Int64
	perTopic   []atomicInt
	// phaseAcked counts acknowledged messages per churn phase; phaseSecs
	// are the per-second rates of each phase (written by tick, read once
	// it stopped).
	phaseAcked [3]atomicInt
	phaseSecs  [3][]float64
	// rate takes msgs_per_s and its parts (the core's sampler).
	rate *msgload.Sampler

	churnOps, churnErrs atomic.Int64
	lost, unmatched     atomic.Int64

	samp    sampler
	pending metrics.Pending
	watch   watchdog

	closeOnce sync.Once

	bgCtx    context.Context
	bgCancel context.CancelFunc
	bg       sync.WaitGroup

	notesMu sync.Mutex
	notes   []string
}

func newBase(r *run, name string) *base {
	b := &base{run: r, name: name, perTopic: make([]atomicInt, len(r.topics))}
	b.bgCtx, b.bgCancel = context.WithCancel(context.Background())
	return b
}

// Every scenario embeds *base, so the engine tells each one when its VUs
// start.
var _ engine.Starter = (*base)(nil)

// Started fixes the scenario start and launches the background work
// (watchdog, per-second tick, churn, max-rate controller) when the engine
// starts the scenario's VUs (engine.Starter).
func (b *base) Started(_ context.Context, at time.Duration, clock metrics.Clock) {
	b.startOnce.Do(func() {
		b.start = at
		b.clock = clock
		b.startWall = time.Now()
		b.samp.init(at)
		b.bg.Add(1)
		go func() {
			defer b.bg.Done()
			b.watch.run(b.bgCtx, clock.Now, b.opts.DeliveryTimeout+guardSlack)
		}()
		if b.produces() && b.rb != nil {
			b.pending.Trend(b.ids.leaderNodes, int64(b.rb.leading()))
			b.pending.Trend(b.ids.partitions, int64(b.rb.partitionCount()))
		}
		if b.produces() {
			b.rate = b.newSampler(clock)
			b.rate.Start(at)
			b.bg.Add(1)
			go func() {
				defer b.bg.Done()
				b.rate.Run(b.bgCtx)
			}()
		}
		for _, f := range b.onStart {
			b.bg.Add(1)
			go func() {
				defer b.bg.Done()
				f(b.bgCtx, b.start)
			}()
		}
		b.started.Store(true)
	})
}

// begin is called at the start of every iteration: it records what the
// background work left pending and may take the per-second sample.
func (b *base) begin(it *engine.Iter, extra func(it *engine.Iter, at time.Duration, dt time.Duration)) {
	b.pending.Drain(it.Rec, it.Start)
	b.samp.maybe(it, b, extra)
}

// stopBackground stops and waits for the background goroutines; the
// sampler's last sample (the drain) is then pending.
func (b *base) stopBackground() {
	b.bgCancel()
	b.bg.Wait()
	if b.rate != nil && b.churn() {
		for i := range b.phaseSecs {
			b.phaseSecs[i] = b.rate.PhaseRates(i)
		}
	}
}

// newSampler is the core's per-second sampler of the acknowledged
// messages: msgs_per_s, topic_msgs_per_s with several topics, and
// msgs_per_s{phase:P} under churn.
func (b *base) newSampler(clock metrics.Clock) *msgload.Sampler {
	m := b.ids
	s := &msgload.Sampler{Now: clock.Now, Out: &b.pending, Count: b.acked.Load, Trend: m.throughput,
		Parts: len(b.topics), PartCount: func(i int) int64 { return b.perTopic[i].Load() }, PartTrend: m.topicTput}
	if b.churn() {
		s.Phase, s.PhaseTrend = b.phase, m.phaseTput
	}
	return s
}

// phase returns the churn phase index of run offset at.
func (b *base) phase(at time.Duration) int {
	o := &b.opts
	switch d := at - b.start; {
	case d < o.ChurnStart:
		return 0
	case d < o.ChurnStart+o.ChurnFor:
		return 1
	}
	return 2
}

func (b *base) churn() bool { return b.opts.churning() && b.produces() }

// acknowledged records one acknowledged message of size bytes to topic ti
// on the VU's recorder at end.
func (b *base) acknowledged(r *metrics.Recorder, end time.Duration, ti, size int) {
	m := b.ids
	r.Add(m.messages, end, 1)
	r.Add(m.bytes, end, int64(size))
	if m.perTopic != nil {
		r.Add(m.perTopic[ti], end, 1)
	}
	if b.churn() {
		p := b.phase(end)
		r.Add(m.phaseMsgs[p], end, 1)
		b.phaseAcked[p].Add(1)
	}
	b.perTopic[ti].Add(1)
	b.acked.Add(1)
	b.ackedBytes.Add(int64(size))
}

// note adds a line to the scenario's notes and logs it.
func (b *base) note(format string, args ...any) {
	b.notesMu.Lock()
	defer b.notesMu.Unlock()
	line := sprintf(format, args...)
	b.notes = append(b.notes, line)
	b.logf("%s: %s", b.name, line)
}

// Notes are remarks on the finished scenario (per-topic spread, churn
// phases, max-rate steps) for its summary.
func (b *base) Notes() []string {
	b.notesMu.Lock()
	defer b.notesMu.Unlock()
	return append([]string(nil), b.notes...)
}

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

// closeVU is called by every VU's Close: the first stops the background
// work (its last results, such as kafka.MaxRate's, land in pending) and
// records what is pending on its own recorder, so that nothing measured
// after the last iteration is lost. it is the VU's iteration context (nil
// when it never ran).
func (b *base) closeVU(it *engine.Iter) {
	if it == nil || it.Rec == nil || !b.started.Load() {
		return
	}
	b.closeOnce.Do(func() {
		b.stopBackground()
		for _, f := range b.atClose {
			f()
		}
		if b.pending.Drain(it.Rec, it.Now()) {
			it.Rec.Flush()
		}
	})
}

// produces tells whether the scenario produces (all but kafka.Consume).
func (b *base) produces() bool { return b.name != ScenarioConsume }

// atomicInt is an atomic counter alone on its cache line, so that VUs
// counting different topics do not slow each other down.
type atomicInt struct {
	atomic.Int64
	_ [56]byte
}
