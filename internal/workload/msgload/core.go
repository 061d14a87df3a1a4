package msgload

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

// Core is the state of one messaging scenario that both families share:
// the counts its VUs and background goroutines keep, the per-second
// sampler, the fault window, the background work and the notes. A
// family's scenario embeds it and adds its client state.
//
// Background goroutines never record (recorders belong to VUs): they
// leave counts, trends and errors in Pending, and the next VU to begin an
// iteration records them; the first VU to close records the rest.
//
// Fill the exported configuration fields (Name, IDs, Parts, Logf and what
// applies) before the engine starts the scenario; counters are safe for
// concurrent use.
type Core struct {
	// Name is the scenario's name, for logs and notes.
	Name string
	IDs  *IDs
	// Parts names the topics or streams the load writes (≥ 1).
	Parts []string
	// Logf logs a line (may be nil).
	Logf func(format string, args ...any)
	// Produces tells that the scenario publishes: it is sampled
	// (msgs_per_s) and its layout recorded.
	Produces bool
	// LeaderNodes and LoadParts are recorded once when the scenario
	// starts (leader_nodes, load_partitions), when LoadParts > 0.
	LeaderNodes, LoadParts int
	// Fault is the fault window (churn or a node kill) relative to the
	// scenario's start; the zero value is none.
	Fault Window

	// Sent counts messages handed to the client; Acked and AckedBytes
	// the acknowledged ones; Failed the failed; Consumed and Lost what
	// consumers received and what the broker confirmed lost; Retries the
	// publishes sent again; ChurnOps and ChurnErrs the fault window's
	// operations and their failures.
	Sent, Acked, AckedBytes, Failed atomic.Int64
	Consumed, Lost, Retries         atomic.Int64
	ChurnOps, ChurnErrs             atomic.Int64
	PerPart                         []Counter
	// PerPartLatency sums the publish latency (µs, as publish_latency)
	// of each part's acknowledged messages: with PerPart, each part's
	// own mean, measured however the load was spread over the parts.
	PerPartLatency []Counter
	PhaseAcked     [3]Counter
	Pending        metrics.Pending
	// Rate is the per-second sampler (set when a producing scenario
	// starts).
	Rate *Sampler
	// OnStart run in goroutines of their own from the scenario's start
	// until it stops; AtClose run once after the VUs stopped and the
	// background work ended, before what is pending is recorded (the
	// ledger's check).
	OnStart []func(ctx context.Context)
	AtClose []func()

	// fastest is the lowest send → acknowledgement latency, ns (0: none
	// yet), and scheduled whether a message came from an arrival-rate
	// schedule, for QueueingNote.
	fastest   atomic.Int64
	scheduled atomic.Bool

	startOnce sync.Once
	started   atomic.Bool
	start     time.Duration
	startWall time.Time
	clock     metrics.Clock
	closeOnce sync.Once
	initOnce  sync.Once
	bgCtx     context.Context
	bgCancel  context.CancelFunc
	bg        sync.WaitGroup

	notesMu sync.Mutex
	notes   []string
}

// Window is a fault window: from From after the scenario's start, for
// For (For ≤ 0: to the end, as a node killed and never restarted). On
// tells that the scenario has one; the zero Window is none.
type Window struct {
	From, For time.Duration
	On        bool
}

// Counter is an atomic counter alone on its cache line, so that VUs
// counting different parts do not slow each other down.
type Counter struct {
	atomic.Int64
	_ [56]byte
}

var _ vu.Starter = (*Core)(nil)

func (c *Core) init() {
	c.initOnce.Do(func() {
		c.bgCtx, c.bgCancel = context.WithCancel(context.Background())
		if len(c.PerPart) != len(c.Parts) {
			c.PerPart = make([]Counter, len(c.Parts))
		}
		if len(c.PerPartLatency) != len(c.Parts) {
			c.PerPartLatency = make([]Counter, len(c.Parts))
		}
	})
}

// Go runs f in a background goroutine until the scenario stops (f's
// context ends); the scenario's stop waits for it.
func (c *Core) Go(f func(ctx context.Context)) {
	c.init()
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		f(c.bgCtx)
	}()
}

// Started implements vu.Starter: it fixes the scenario's start,
// records the layout, starts the sampler of a producing scenario and the
// OnStart work.
func (c *Core) Started(_ context.Context, at time.Duration, clock metrics.Clock) {
	c.init()
	c.startOnce.Do(func() {
		c.start, c.startWall, c.clock = at, time.Now(), clock
		if c.Produces && c.LoadParts > 0 && c.IDs.LeaderNodes != 0 {
			c.Pending.Trend(c.IDs.LeaderNodes, int64(c.LeaderNodes))
			c.Pending.Trend(c.IDs.Partitions, int64(c.LoadParts))
		}
		if c.Produces && c.IDs.Throughput != 0 {
			c.Rate = c.newSampler(clock)
			c.Rate.Start(at)
			c.Go(c.Rate.Run)
		}
		for _, f := range c.OnStart {
			c.Go(f)
		}
		c.started.Store(true)
	})
}

// newSampler is the per-second sampler of the acknowledged messages:
// msgs_per_s, the per-part trend with several parts, the per-phase trends
// under a fault window.
func (c *Core) newSampler(clock metrics.Clock) *Sampler {
	m := c.IDs
	s := &Sampler{Now: clock.Now, Out: &c.Pending, Count: c.Acked.Load, Trend: m.Throughput,
		Parts: len(c.Parts), PartCount: func(i int) int64 { return c.PerPart[i].Load() }, PartTrend: m.PartTput}
	if c.Fault.On {
		s.Phase, s.PhaseTrend = c.Phase, m.PhaseTput
	}
	return s
}

// EverySecond makes sample run once a second in the background from the
// scenario's start until it stops, with the run offset of each tick: a
// per-second gauge (backlog, server CPU) that leaves its sample in
// Pending, so that a second in which no iteration began (a stalled
// broker) is a sample too. Call it before the scenario starts.
func (c *Core) EverySecond(sample func(now time.Duration)) {
	c.OnStart = append(c.OnStart, func(ctx context.Context) {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				sample(c.clock.Now())
			}
		}
	})
}

// IsStarted tells whether the engine started the scenario's VUs.
func (c *Core) IsStarted() bool { return c.started.Load() }

// Start is the run offset at which the scenario's VUs started.
func (c *Core) Start() time.Duration { return c.start }

// Clock is the run clock (valid once started).
func (c *Core) Clock() metrics.Clock { return c.clock }

// Elapsed is the wall time since the scenario started.
func (c *Core) Elapsed() time.Duration { return time.Since(c.startWall) }

// Phase is the fault phase (PhaseBefore, PhaseDuring, PhaseAfter) of run
// offset at.
func (c *Core) Phase(at time.Duration) int {
	length := c.Fault.For
	if length <= 0 {
		length = 1 << 62
	}
	return Phase(at, c.start, c.Fault.From, length)
}

// Begin runs at the start of every iteration: it records what the
// background work left pending.
func (c *Core) Begin(it *vu.Iter) { c.Pending.Drain(it.Rec, it.Start) }

// StopBackground stops and waits for the background goroutines; the
// sampler's last sample (the drain) is then pending.
func (c *Core) StopBackground() {
	c.init()
	c.bgCancel()
	c.bg.Wait()
}

// CloseVU is called by every VU's Close with its last iteration (nil when
// it never ran): the first stops the background work, runs AtClose and
// records what is pending on its own recorder, so that nothing measured
// after the last iteration is lost.
func (c *Core) CloseVU(it *vu.Iter) {
	if it == nil || it.Rec == nil || !c.started.Load() {
		return
	}
	c.closeOnce.Do(func() {
		c.StopBackground()
		for _, f := range c.AtClose {
			f()
		}
		if c.Pending.Drain(it.Rec, it.Now()) {
			it.Rec.Flush()
		}
	})
}

// Acknowledged records one acknowledged message of size bytes to part on
// the VU's recorder r at end.
func (c *Core) Acknowledged(r vu.Recorder, end time.Duration, part, size int) {
	m := c.IDs
	r.Add(m.Messages, end, 1)
	r.Add(m.Bytes, end, int64(size))
	if m.PerPart != nil {
		r.Add(m.PerPart[part], end, 1)
	}
	if c.Fault.On {
		p := c.Phase(end)
		r.Add(m.PhaseMsgs[p], end, 1)
		c.PhaseAcked[p].Add(1)
	}
	c.PerPart[part].Add(1)
	c.Acked.Add(1)
	c.AckedBytes.Add(int64(size))
}

// Origin is the time a message's latencies count from: its send time
// sent, or under an arrival-rate executor (or a MaxRate schedule) the
// iteration's intended start when that was earlier, so that a broker stall
// that made the VU late shows in publish_latency and e2e_latency
// (coordinated omission). A family stamps the message with its origin's
// wall time.
func Origin(it *vu.Iter, sent time.Duration) time.Duration {
	if it.Intended != it.Start && it.Intended < sent {
		return it.Intended
	}
	return sent
}

// Published records one message an iteration published: the request
// (labelled label, to part, sent at sent, its outcome res), and when it was
// acknowledged the message and its publish latency from its origin (see
// Origin) and, under an arrival-rate executor, its publish delay. It
// returns the end time.
func (c *Core) Published(it *vu.Iter, label string, part int, sent time.Duration, size int, res driver.Result) time.Duration {
	end := it.Request(label, sent, res)
	c.published(it, end, part, it.Intended, sent, it.Intended != it.Start, size, res.Err)
	return end
}

// PublishedEnd is Published for a message acknowledged at end (a run
// offset, when its acknowledgement arrived), recorded later: a window's
// acknowledgements are taken as they come and recorded when the window is
// complete.
func (c *Core) PublishedEnd(it *vu.Iter, label string, part int, sent, end time.Duration, size int, res driver.Result) time.Duration {
	end = it.RequestAuditAt(vu.Audit{Label: label}, sent, end, res)
	c.published(it, end, part, it.Intended, sent, it.Intended != it.Start, size, res.Err)
	return end
}

// PublishedAt is Published for a message with its own intended send time,
// recorded by a later iteration than the one that sent it (a window of
// messages in flight); scheduled tells that intended came from an
// arrival-rate schedule.
func (c *Core) PublishedAt(it *vu.Iter, label string, part int, intended, sent time.Duration, scheduled bool, size int, res driver.Result) time.Duration {
	end := it.RequestAt(label, intended, sent, res)
	c.published(it, end, part, intended, sent, scheduled, size, res.Err)
	return end
}

func (c *Core) published(it *vu.Iter, end time.Duration, part int, intended, sent time.Duration, scheduled bool, size int, err error) {
	if err != nil {
		c.Failed.Add(1)
		return
	}
	c.Acknowledged(it.Rec, end, part, size)
	c.noteFastest(end - sent)
	if scheduled && !c.scheduled.Load() {
		c.scheduled.Store(true)
	}
	from := sent
	if scheduled && intended < sent {
		from = intended
	}
	lat := int64((end - from) / time.Microsecond)
	it.Rec.Trend(c.IDs.PublishLatency, end, lat)
	c.PerPartLatency[part].Add(lat)
	if scheduled && c.IDs.PublishDelay != 0 {
		it.Rec.Trend(c.IDs.PublishDelay, end, int64(max(0, sent-intended)/time.Microsecond))
	}
}

// Note adds a line to the scenario's notes and logs it.
func (c *Core) Note(format string, args ...any) {
	c.notesMu.Lock()
	defer c.notesMu.Unlock()
	line := sprintf(format, args...)
	c.notes = append(c.notes, line)
	if c.Logf != nil {
		c.Logf("%s: %s", c.Name, line)
	}
}

// Notes implements vu.Noter: the scenario's notes for its summary.
func (c *Core) Notes() []string {
	c.notesMu.Lock()
	defer c.notesMu.Unlock()
	return append([]string(nil), c.notes...)
}

// FaultEvent counts one operation of the fault window (churn_ops, and the
// count in the fault note), and when err is set, its failure: an error
// "kind: what: msg(err)" in the summary's errors and the note's error
// count ("kind: msg(err)" when what is empty). Operations count whether
// or not they failed, in both families.
func (c *Core) FaultEvent(kind, what string, err error, msg func(error) string) {
	c.ChurnOps.Add(1)
	if c.IDs.ChurnOps != 0 {
		c.Pending.Add(c.IDs.ChurnOps, 1)
	}
	if err != nil {
		c.ChurnErrs.Add(1)
		prefix := kind + ": "
		if what != "" {
			prefix += what + ": "
		}
		c.Pending.Error(prefix + msg(err))
	}
}
