package natsload

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/natscluster"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// run is what every scenario of one Open shares.
type run struct {
	opts    Options
	ids     *ids
	streams []string
	// connect opens a client connection to the target.
	connect func(name string) (*nats.Conn, error)
	// cluster is the embedded cluster; nil with --target.
	cluster *natscluster.Cluster
	// admin is the run's JetStream context for stream questions (the
	// ledger's, the kill's leader).
	admin jetstream.JetStream
	// kill is --kill-node (parsed).
	kill msgload.KillSpec
	// windowAuto is set when the async window is the default 500 divided
	// among the VUs.
	windowAuto bool
	// killer carries out --kill-node on a --target cluster (--kill-hook);
	// nil on the embedded cluster, which broker kills directly.
	killer msgload.NodeKiller
	// leaderNodes is how many nodes lead at least one load stream.
	leaderNodes int
	maxVUs      int
	seed        int64
	logf        func(format string, args ...any)
}

// base is one scenario's state: counts shared by its VUs and background
// goroutines, which never record directly (recorders belong to VUs): they
// leave counts and samples in pending for the next VU iteration.
type base struct {
	*run
	name string

	startOnce sync.Once
	started   atomic.Bool
	start     time.Duration
	startWall time.Time
	onStart   []func(ctx context.Context)
	// atClose runs once after the VUs stopped and the background work
	// ended, before what is pending is recorded (the ledger's check).
	atClose []func()

	sent, acked, failed, consumed, lost atomic.Int64
	ackedBytes                          atomic.Int64
	// subjects are the streams\' subjects, made once for the VUs.
	subjects            []string
	perStream           []atomicInt
	phaseAcked          [3]atomic.Int64
	churnOps, churnErrs atomic.Int64
	// churnOn is set by addChurn or addKill: the scenario changes the
	// cluster in a window from winFrom for winFor after its start.
	churnOn         bool
	winFrom, winFor time.Duration
	// killEv is what --kill-node did (set when its goroutine ended).
	killMu sync.Mutex
	killEv msgload.KillEvent
	// retries counts publish retries (publish_retries).
	retries atomic.Int64
	// fastest is the lowest publish → PubAck latency, ns (0: none yet).
	fastest atomic.Int64

	pending metrics.Pending
	// rate takes msgs_per_s and its parts (the core's sampler).
	rate      *msgload.Sampler
	clock     metrics.Clock
	closeOnce sync.Once

	bgCtx    context.Context
	bgCancel context.CancelFunc
	bg       sync.WaitGroup

	notesMu sync.Mutex
	notes   []string
}

func newBase(r *run, name string) *base {
	b := &base{run: r, name: name, perStream: make([]atomicInt, len(r.streams))}
	for _, st := range r.streams {
		b.subjects = append(b.subjects, subjectOf(st))
	}
	b.bgCtx, b.bgCancel = context.WithCancel(context.Background())
	if r.cluster != nil {
		b.onStart = append(b.onStart, b.sampleServerCPU)
	}
	return b
}

// Every scenario embeds *base, so the engine tells each one when its VUs
// start.
var _ engine.Starter = (*base)(nil)

// Started fixes the scenario start and launches the background work when
// the engine starts the scenario's VUs (engine.Starter).
func (b *base) Started(_ context.Context, at time.Duration, clock metrics.Clock) {
	b.startOnce.Do(func() {
		b.start, b.startWall, b.clock = at, time.Now(), clock
		if b.ids.leaderNodes != 0 && b.name != ScenarioConsume {
			b.pending.Trend(b.ids.leaderNodes, int64(b.leaderNodes))
			b.pending.Trend(b.ids.partitions, int64(len(b.streams)))
		}
		if b.ids.throughput != 0 && b.name != ScenarioConsume {
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
				f(b.bgCtx)
			}()
		}
		b.started.Store(true)
	})
}

// begin runs at the start of every iteration: it records what the
// background work left pending.
func (b *base) begin(it *engine.Iter) {
	b.pending.Drain(it.Rec, it.Start)
}

// stopBackground stops and waits for the background goroutines; the
// sampler's last sample (the drain) is then pending.
func (b *base) stopBackground() {
	b.bgCancel()
	b.bg.Wait()
}

// newSampler is the core's per-second sampler of the PubAcks:
// msgs_per_s, stream_msgs_per_s with several streams, and
// msgs_per_s{phase:P} under churn.
func (b *base) newSampler(clock metrics.Clock) *msgload.Sampler {
	m := b.ids
	s := &msgload.Sampler{Now: clock.Now, Out: &b.pending, Count: b.acked.Load, Trend: m.throughput,
		Parts: len(b.streams), PartCount: func(i int) int64 { return b.perStream[i].Load() }, PartTrend: m.streamTput}
	if b.churn() {
		s.Phase, s.PhaseTrend = b.phase, m.phaseTput
	}
	return s
}

// closeVU is called by every VU's Close: the first stops the background
// work (the sampler's last sample, the max-rate result) and records what
// is pending on its own recorder, so that nothing measured after the last
// iteration is lost. it is the VU's last iteration (nil: it never ran).
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

// phase is the churn phase (0 before, 1 during, 2 after) of run offset at.
func (b *base) phase(at time.Duration) int {
	return msgload.Phase(at, b.start, b.winFrom, b.winFor)
}

func (b *base) churn() bool { return b.churnOn }

// pinned tells whether each VU writes one stream (VU i → stream i mod S),
// so that per-stream rates are measured (a slow leader shows); with fewer
// VUs than streams they rotate over the streams instead, and per-stream
// counts are equal by construction.
func (b *base) pinned() bool { return b.maxVUs >= len(b.streams) }

// acknowledged records one PubAck of a size-byte message to stream si.
func (b *base) acknowledged(r *metrics.Recorder, end time.Duration, si, size int) {
	m := b.ids
	r.Add(m.messages, end, 1)
	r.Add(m.bytes, end, int64(size))
	if b.churn() {
		p := b.phase(end)
		r.Add(m.phaseMsgs[p], end, 1)
		b.phaseAcked[p].Add(1)
	}
	b.perStream[si].Add(1)
	b.acked.Add(1)
	b.ackedBytes.Add(int64(size))
}

func (b *base) note(format string, args ...any) {
	b.notesMu.Lock()
	defer b.notesMu.Unlock()
	line := sprintf(format, args...)
	b.notes = append(b.notes, line)
	b.logf("%s: %s", b.name, line)
}

// Notes implements engine.Noter.
func (b *base) Notes() []string {
	b.notesMu.Lock()
	defer b.notesMu.Unlock()
	return append([]string(nil), b.notes...)
}

// sampleServerCPU records every second the embedded nodes' CPU as per
// cent of this machine's cores.
func (b *base) sampleServerCPU(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	last, ok := b.cluster.CPU()
	lastAt := time.Now()
	if !ok {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			cpu, ok := b.cluster.CPU()
			if !ok {
				return
			}
			pct := 100 * float64(cpu-last) / float64(now.Sub(lastAt)) / float64(cores())
			last, lastAt = cpu, now
			b.pending.Trend(b.ids.cpu, int64(pct+0.5))
		}
	}
}

// atomicInt is a counter alone on its cache line.
type atomicInt struct {
	atomic.Int64
	_ [56]byte
}

// vuConn is one VU's connection and JetStream context.
type vuConn struct {
	nc *nats.Conn
	js jetstream.JetStream
}

func (r *run) vuConn(name string, opts ...jetstream.JetStreamOpt) (*vuConn, error) {
	nc, err := r.connect(name)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc, opts...)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &vuConn{nc: nc, js: js}, nil
}

func (c *vuConn) close() {
	if c != nil && c.nc != nil {
		c.nc.Close()
	}
}
