package engine

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
	"github.com/stampede-bench/stampede/vu"
)

// runner holds the state of one scenario's execution.
type runner struct {
	idx  int
	spec Spec
	cfg  Config
	deps Deps

	mu  sync.Mutex // guards vus (allocation only, never per iteration)
	vus []*vuState

	active    atomic.Int64 // VUs running an iteration or looping
	allocated atomic.Int64
	ready     atomic.Bool // the initial VUs exist: gauges may be sampled
	warmEnd   time.Duration

	backoffs    atomic.Int64 // connection-failure waits of all VUs
	backoffTime atomic.Int64 // their total, ns
	cut         atomic.Int64 // iterations that ran into the end of the graceful stop
}

// vuState is a VU of the runner. The fields an iteration reads come first
// and the Iter's own hot ones follow (vu.Iter), so that an iteration
// touches few cache lines of it.
type vuState struct {
	rec  *metrics.Recorder
	wait time.Duration // current connection-error backoff
	it   vu.Iter
	id   int
	vu   vu.VU
	// flusher is the request writer when it buffers (nil otherwise).
	flusher reqlog.Flusher
}

// flush hands the VU's buffered samples and request records over: it is
// about to be idle for long.
func (v *vuState) flush() {
	v.rec.Flush()
	if v.flusher != nil {
		v.flusher.Flush()
	}
}

func newRunner(idx int, spec Spec, deps Deps) *runner {
	return &runner{idx: idx, spec: spec, cfg: spec.Config, deps: deps}
}

// execute runs the configured executor. start is the run offset at which
// the scenario began.
func (r *runner) execute(ctx context.Context, start time.Duration) error {
	r.warmEnd = start + r.cfg.Warmup
	e, err := executor.Of(r.cfg)
	if err != nil {
		return err
	}
	return runExecutor(ctx, e, r, start)
}

// newVU allocates one VU with its own recorder and request writer.
func (r *runner) newVU(ctx context.Context) (*vuState, error) {
	r.mu.Lock()
	id := len(r.vus)
	r.vus = append(r.vus, nil)
	r.mu.Unlock()
	u, err := r.spec.Scenario.NewVU(ctx, id)
	if err != nil {
		return nil, err
	}
	v := &vuState{id: id, vu: u, rec: r.deps.Agg.Recorder(r.idx, r.warmEnd)}
	var log reqlog.Writer
	if r.deps.Log != nil {
		log = r.deps.Log.Writer(r.spec.Name)
		v.flusher, _ = log.(reqlog.Flusher)
	}
	v.it.Init(id, v.rec, r.deps.Clock, log)
	r.mu.Lock()
	r.vus[id] = v
	r.mu.Unlock()
	r.allocated.Add(1)
	return v, nil
}

// measured runs fn (a scenario's setup or teardown) with an Iter of its
// own whose operations are recorded in the scenario, timed from their own
// start, and flushed when fn returns. It is no iteration and no VU.
func (r *runner) measured(ctx context.Context, fn func(context.Context, *vu.Iter) error) error {
	rec := r.deps.Agg.Recorder(r.idx, 0)
	var log reqlog.Writer
	if r.deps.Log != nil {
		log = r.deps.Log.Writer(r.spec.Name)
	}
	it := &vu.Iter{}
	it.Init(-1, rec, r.deps.Clock, log)
	it.BeginMeasured(ctx, r.deps.Clock.Now())
	err := fn(ctx, it)
	rec.Flush()
	if log != nil {
		_ = log.Close()
	}
	return err
}

// newVUs allocates n VUs concurrently (connections open in parallel, at
// most 64 at a time). It stops at the first error, and when ctx is
// cancelled (Ctrl+C while a million VUs are being set up) it returns
// ErrInterrupted at once: the VUs made so far are closed by closeVUs.
func (r *runner) newVUs(ctx context.Context, n int64) ([]*vuState, error) {
	out := make([]*vuState, n)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	failed := func() bool { mu.Lock(); defer mu.Unlock(); return firstErr != nil }
	sem := make(chan struct{}, 64)
	for i := range out {
		if ctx.Err() != nil || failed() {
			break
		}
		wg.Add(1)
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wg.Done()
			continue
		}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			v, err := r.newVU(ctx)
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				return
			}
			out[i] = v
		}()
	}
	wg.Wait()
	if firstErr != nil && ctx.Err() == nil {
		return nil, firstErr
	}
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	if !r.ready.Swap(true) {
		r.started(ctx)
	}
	return out, nil
}

// ErrInterrupted is returned by executors stopped (ctx cancelled) before
// their VUs were all allocated; Run reports it as an interruption, not as
// a failure.
var ErrInterrupted = errors.New("interrupted while allocating VUs")

// iterate runs one iteration of v intended to start at intended and
// records it. A negative intended means the closed model: the iteration
// starts now, and now is -intended-1 when the caller knows it (the previous
// iteration's end, saving a clock read), or unknown when intended is
// exactly -1. ctx interrupts it. It returns the end time.
func (r *runner) iterate(ctx context.Context, v *vuState, intended time.Duration) time.Duration {
	start, scheduled := r.begin(ctx, v, intended)
	err := v.vu.Iterate(ctx, &v.it)
	end, wait := r.finish(ctx, v, start, scheduled, err)
	if wait > 0 {
		end = r.backOff(ctx, wait, end)
	}
	return end
}

// begin starts an iteration of v (see iterate) and returns its start and
// whether an arrival-rate schedule gave it.
func (r *runner) begin(ctx context.Context, v *vuState, intended time.Duration) (start time.Duration, scheduled bool) {
	it := &v.it
	scheduled = intended >= 0
	if intended < -1 {
		start = -intended - 1
		intended = start
	} else {
		start = it.Clock.Now()
		if intended < 0 {
			intended = start
		}
	}
	it.Begin(ctx, start, intended, scheduled)
	v.rec.Tick(start)
	return start, scheduled
}

// finish records the iteration of v begun at start that returned err,
// and returns its end and how long v must wait before its next iteration
// (a connection failure's back-off, closed model only; 0: none).
func (r *runner) finish(ctx context.Context, v *vuState, start time.Duration, scheduled bool, err error) (end, wait time.Duration) {
	it := &v.it
	end = it.Clock.Now()
	it.N++
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// Still running when the graceful stop ran out: cut, neither a
		// completed iteration nor a target failure (the verdict counts it).
		if end >= r.warmEnd {
			r.cut.Add(1)
		}
		return end, 0
	}
	if err != nil && vu.StoppedBy(ctx, err) {
		return end, 0 // interrupted by the stop: not a completed iteration
	}
	connFailed := it.End(r.spec.Name, end, err)
	v.rec.Iteration(end, end-start)
	if end-start > slowIteration || (scheduled && end-start > slowScheduled) {
		// A slow VU may now block for long (think time, a stalled
		// target): hand its samples and records over rather than hold
		// them.
		v.flush()
	}
	if !scheduled && (v.wait > 0 || connFailed) {
		v.flush() // about to wait: hand the samples over first
		return end, r.backoffWait(v, connFailed)
	}
	return end, 0
}

// slowIteration is the iteration duration above which a VU flushes its
// recorder after every iteration instead of batching. A closed-model VU
// starts its next iteration at once, and the recorder hands a batch over
// when its second has passed (Recorder.Tick), so only an iteration that
// may outlast the aggregator's two seconds for late batches needs it:
// flushing after every 10 ms iteration cost 500 VUs of a loaded HTTP run
// one aggregator wake-up per request. slowScheduled is the threshold of
// arrival-rate VUs, which may then idle until their next slot.
const (
	slowIteration = 250 * time.Millisecond
	slowScheduled = 10 * time.Millisecond
)

// closedNext is the intended argument of iterate for a closed-model
// iteration that starts at the previous one's end.
func closedNext(prevEnd time.Duration) time.Duration { return -prevEnd - 1 }

// closeVUs flushes recorders and request writers and closes the VUs.
func (r *runner) closeVUs() {
	r.mu.Lock()
	vus := r.vus
	r.mu.Unlock()
	// A bounded pool closes the VUs (a close may wait on the network):
	// one goroutine per VU took seconds with a million VUs, past the 2 s
	// Ctrl+C promises.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(vus), closeWorkers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(len(vus)); i = next.Add(1) - 1 {
				v := vus[i]
				if v == nil {
					continue
				}
				v.rec.Flush()
				if log := v.it.Log(); log != nil {
					_ = log.Close()
				}
				_ = v.vu.Close()
			}
		}()
	}
	wg.Wait()
}

// closeWorkers is the number of goroutines closing VUs at the end of a
// scenario.
const closeWorkers = 256

// sampleGauges reports vus and vus_max every 250 ms until stopped.
func (r *runner) sampleGauges() (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	report := func() {
		if !r.ready.Load() {
			return // VUs are still being allocated: nothing to sample yet
		}
		r.deps.Agg.SetGauge(r.idx, metrics.IDVUs, float64(r.active.Load()))
		r.deps.Agg.SetGauge(r.idx, metrics.IDVUsMax, float64(r.allocated.Load()))
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		report() // at once, so live views see the VUs from the start
		reported := false
		for {
			select {
			case <-done:
				if !reported {
					report() // runs shorter than a second get one sample
				}
				return
			case <-t.C:
				report()
				reported = true
			}
		}
	}()
	return func() { close(done); <-finished }
}

// stopContexts derives the two stop signals of an executor: loop ends when
// no new iteration may start (after d); hard interrupts iterations still
// running gracefulStop later, or when parent is cancelled.
func (r *runner) stopContexts(parent context.Context, d time.Duration) (loop, hard context.Context, cancel func()) {
	hard, cancelHard := context.WithTimeout(parent, d+r.cfg.GracefulStop)
	loop, cancelLoop := context.WithTimeout(hard, d)
	return loop, hard, func() { cancelLoop(); cancelHard() }
}
