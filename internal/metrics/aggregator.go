package metrics

import (
	"slices"
	"sync"
	"time"
)

// MaxErrorMessages bounds the distinct error messages kept per scenario;
// further messages are counted under OtherErrors.
const MaxErrorMessages = 1000

// OtherErrors is the message under which errors beyond MaxErrorMessages
// distinct messages are counted.
const OtherErrors = "(other error messages)"

// queuedBatches bounds the batches waiting for the aggregator: at most
// 64 × 8 KiB of samples (batchCap) plus their counts. A Recorder whose
// batch finds the queue full waits (samples are never dropped). A queue
// of 4,096 held 17 MB when one no-op VU outran the aggregator on one core;
// this one stays in the cache and costs no throughput.
const queuedBatches = 64

// seriesLag is how many seconds a second stays open for late batches before
// it is finished and handed to observers.
const seriesLag = 2

// Aggregator owns the histograms of a run. One goroutine (Run) consumes the
// batches of every Recorder; other methods are safe for concurrent use.
type Aggregator struct {
	reg       *Registry
	trendIDs  []bool // by ID: the metric is a trend
	slots     []int8 // by ID: index in secondBin.trends, -1 for none
	pool      *batchPool
	in        chan *Batch
	ctl       chan func()
	clock     Clock
	observers []Observer
	done      chan struct{}
	quit      chan struct{}

	ctlMu  sync.RWMutex // guards closed against sends on ctl
	closed bool

	mu        sync.Mutex // guards live
	live      []LiveStats
	scenarios []*scenarioState
	closeOnce sync.Once
}

// LiveStats are running totals of a scenario for progress displays.
type LiveStats struct {
	Iterations, Requests, Errors, Dropped int64
	VUs                                   int64
	LastP95                               int64 // µs, responseTime of the last finished second
	LastRate                              int64 // iterations in the last finished second
}

// NewAggregator prepares an aggregator for the named scenarios. Observers
// are called with every finished second. Call Run in a goroutine, then
// Close when all Recorders have flushed.
func NewAggregator(reg *Registry, clock Clock, scenarios []string, observers ...Observer) *Aggregator {
	a := &Aggregator{
		reg:       reg,
		pool:      newBatchPool(reg.Len()),
		in:        make(chan *Batch, queuedBatches),
		ctl:       make(chan func(), 64),
		clock:     clock,
		observers: observers,
		done:      make(chan struct{}),
		quit:      make(chan struct{}),
		live:      make([]LiveStats, len(scenarios)),
	}
	for _, name := range scenarios {
		a.scenarios = append(a.scenarios, newScenarioState(name, reg))
	}
	a.slots = make([]int8, reg.Len())
	for i := range a.slots {
		a.slots[i] = -1
	}
	for i, id := range reg.Series() {
		a.slots[id] = int8(i)
	}
	a.trendIDs = make([]bool, reg.Len())
	for id := range a.trendIDs {
		a.trendIDs[id] = reg.Def(ID(id)).Kind == KindTrend
	}
	return a
}

// Recorder returns a new recorder for a VU of scenario i. Samples taken
// before warmEnd (a run offset) are discarded.
func (a *Aggregator) Recorder(scenario int, warmEnd time.Duration) *Recorder {
	return &Recorder{agg: a, scenario: scenario, warmEnd: warmEnd}
}

// Run consumes batches until Close. It finishes seconds as time passes.
func (a *Aggregator) Run() {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case b := <-a.in:
			a.consume(b)
		case f := <-a.ctl:
			f()
		case <-a.quit:
			// Drain what is left, then finish every open second.
			for {
				select {
				case b := <-a.in:
					a.consume(b)
					continue
				case f := <-a.ctl:
					f()
					continue
				default:
				}
				break
			}
			a.finishUpTo(1 << 62)
			close(a.done)
			return
		case <-tick.C:
			a.finishUpTo(secOf(a.clock.Now()) - seriesLag)
		}
	}
}

// Close stops Run after consuming every batch sent so far and finishing all
// open seconds. All Recorders must have flushed before.
func (a *Aggregator) Close() {
	a.closeOnce.Do(func() {
		a.ctlMu.Lock()
		a.closed = true
		a.ctlMu.Unlock()
		close(a.quit)
	})
	<-a.done
}

// do runs f on the aggregator goroutine and waits for it; after Close it
// runs f directly, the state being no longer shared.
func (a *Aggregator) do(f func()) {
	a.ctlMu.RLock()
	if a.closed {
		a.ctlMu.RUnlock()
		<-a.done
		f()
		return
	}
	ch := make(chan struct{})
	a.ctl <- func() { f(); close(ch) }
	a.ctlMu.RUnlock()
	<-ch
}

// SetGauge sets gauge id of scenario i.
func (a *Aggregator) SetGauge(scenario int, id ID, v float64) {
	a.do(func() { a.scenarios[scenario].setGauge(id, v) })
	if id == IDVUs {
		a.mu.Lock()
		a.live[scenario].VUs = int64(v)
		a.mu.Unlock()
	}
}

// Mark records the scenario's start or end (wall times) and whether it was
// interrupted.
func (a *Aggregator) Mark(scenario int, start, end time.Time, interrupted bool, executor string) {
	a.do(func() {
		s := a.scenarios[scenario]
		if !start.IsZero() {
			s.start = start
		}
		if !end.IsZero() {
			s.end = end
		}
		s.interrupted = s.interrupted || interrupted
		if executor != "" {
			s.executor = executor
		}
	})
}

// SetWarmup records how much of scenario i's start is excluded from the
// statistics, so that rates divide by the measured time only.
func (a *Aggregator) SetWarmup(scenario int, d time.Duration) {
	a.do(func() { a.scenarios[scenario].warmup = d })
}

// Schedule adds n iterations planned over d by scenario i's arrival-rate
// schedule (ScenarioSnapshot.Scheduled) and counts cut iterations that
// ran into the end of its graceful stop (ScenarioSnapshot.Cut).
func (a *Aggregator) Schedule(scenario int, planned int64, over time.Duration, cut int64) {
	a.do(func() {
		s := a.scenarios[scenario]
		s.scheduled += planned
		s.scheduledOver = max(s.scheduledOver, over)
		s.cut += cut
	})
}

// Note attaches a remark to scenario i, shown in summaries.
func (a *Aggregator) Note(scenario int, note string) {
	a.do(func() {
		s := a.scenarios[scenario]
		if !slices.Contains(s.notes, note) {
			s.notes = append(s.notes, note)
		}
	})
}

// Live returns the running totals of scenario i.
func (a *Aggregator) Live(scenario int) LiveStats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.live[scenario]
}

// Snapshot returns the measurements so far. It is exact once every Recorder
// has flushed (after the run, or after Close).
func (a *Aggregator) Snapshot() *Snapshot {
	var snap *Snapshot
	a.do(func() { snap = a.snapshot(true) })
	return snap
}

// Final returns the measurements of a closed aggregator (Close), handing
// its histograms over instead of copying them (one of 188 KB per trend):
// the aggregator is not to be used afterwards.
func (a *Aggregator) Final() *Snapshot {
	<-a.done
	for _, s := range a.scenarios {
		s.open, s.free = nil, nil // finished seconds' histograms, to the garbage collector
	}
	return a.snapshot(false)
}

// snapshot builds a Snapshot, copying the histograms when clone is set.
func (a *Aggregator) snapshot(clone bool) *Snapshot {
	snap := &Snapshot{Version: SnapshotVersion}
	for _, s := range a.scenarios {
		sc := s.snapshot(a.reg, clone)
		snap.Scenarios = append(snap.Scenarios, sc)
		if !sc.Start.IsZero() && (snap.Start.IsZero() || sc.Start.Before(snap.Start)) {
			snap.Start = sc.Start
		}
		if sc.End.After(snap.End) {
			snap.End = sc.End
		}
		snap.Interrupted = snap.Interrupted || sc.Interrupted
	}
	return snap
}

func (a *Aggregator) consume(b *Batch) {
	s := a.scenarios[b.Scenario]
	bin := s.bin(b.Sec, a)
	// responseTime and the series trends go into the second's histograms
	// alone, added to the totals when the second is finished (finishUpTo):
	// one record per sample, not two.
	for _, smp := range b.Samples {
		if smp.ID == IDResponseTime {
			record(bin.rt, smp.V)
		} else if slot := a.slots[smp.ID]; slot >= 0 {
			record(bin.seriesTrend(int(slot), len(a.reg.Series())), smp.V)
		} else {
			record(s.trend(smp.ID), smp.V)
		}
	}
	for id, n := range b.Counts {
		if n != 0 {
			if a.trendIDs[id] { // zero values counted by the recorder
				switch slot := a.slots[id]; {
				case ID(id) == IDResponseTime:
					bin.rt.RecordValues(0, n)
				case slot >= 0:
					bin.addZeros(int(slot), len(a.reg.Series()), n)
				default:
					s.trend(ID(id)).RecordValues(0, n)
				}
				continue
			}
			s.counts[id] += n
			bin.counts[id] += n
		}
	}
	for id, n := range b.Fails {
		if n != 0 {
			s.fails[id] += n
			bin.fails[id] += n
		}
	}
	for _, e := range b.Errors {
		if _, known := s.errors[e.Msg]; !known && len(s.errors) >= MaxErrorMessages {
			e.Msg = OtherErrors // bounded memory whatever the target says
		}
		s.errors[e.Msg] += e.N
		if bin.errors == nil {
			bin.errors = map[string]int64{}
		}
		bin.errors[e.Msg] += e.N
	}
	a.mu.Lock()
	l := &a.live[b.Scenario]
	l.Iterations = s.counts[IDIterations]
	l.Requests = s.counts[IDRequests]
	l.Errors = s.counts[IDErrors]
	l.Dropped = s.counts[IDDropped]
	a.mu.Unlock()
	a.pool.put(b)
}

// finishUpTo hands every open second ≤ last of every scenario to observers.
func (a *Aggregator) finishUpTo(last int64) {
	for i, s := range a.scenarios {
		for len(s.open) > 0 && s.open[0].sec <= last {
			bin := s.open[0]
			s.open = s.open[1:]
			s.finished = bin.sec
			bin.foldZeros()
			bin.addTo(a.reg, s.trend)
			p := bin.point(s, a.reg, a.clock)
			for _, obs := range a.observers {
				obs(p)
			}
			a.mu.Lock()
			a.live[i].LastP95 = p.RT.P95
			a.live[i].LastRate = p.Counts[Iterations]
			a.mu.Unlock()
			s.recycle(bin)
		}
	}
}
