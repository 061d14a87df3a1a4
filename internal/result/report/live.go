package report

import (
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/metric"
)

// LiveOptions tune a Live payload. Zero values take the defaults.
type LiveOptions struct {
	// Title heads the page; default "stampede live".
	Title string
	// Generator names the tool version in the footer (optional).
	Generator string
	// Scenarios are the run's scenarios in run order; a scenario not
	// named here is added when its first second arrives.
	Scenarios []string
	// Window is how many of the latest seconds the charts keep; default
	// 600 (10 minutes). The exported report keeps the whole run.
	Window int
}

// Live builds the report's payload while a run goes, from the same
// per-second points series.jsonl receives: Observe each point, Payload
// whenever the page wants one. The charts draw each second as it is
// (step 1, percentiles of the second); the totals (requests, errors,
// response time percentiles) are exact over the whole run so far. It is
// safe for concurrent use; Observe takes a lock for a few microseconds
// (one histogram merge per second of each scenario).
type Live struct {
	mu      sync.Mutex
	opts    LiveOptions
	start   time.Time
	scs     []*liveScenario
	samples map[string][]monitor.Sample // --monitor samples by source, bounded by the window
	sources []string                    // in first-seen order
	ended   bool
}

type liveScenario struct {
	name        string
	acc         *seriesAcc
	rt          *hdr.Histogram
	counts      map[string]int64
	errors      map[string]int64
	first, last time.Time // start of the first second, end of the last
}

// NewLive returns an empty live payload builder.
func NewLive(opts LiveOptions) *Live {
	if opts.Window <= 0 {
		opts.Window = 600
	}
	opts.Window = max(opts.Window, 10)
	if opts.Title == "" {
		opts.Title = "stampede live"
	}
	l := &Live{opts: opts, samples: map[string][]monitor.Sample{}}
	for _, name := range opts.Scenarios {
		l.scenario(name)
	}
	return l
}

func (l *Live) scenario(name string) *liveScenario {
	for _, s := range l.scs {
		if s.name == name {
			return s
		}
	}
	s := &liveScenario{name: name, rt: metric.NewHistogram(), counts: map[string]int64{}, errors: map[string]int64{}}
	l.scs = append(l.scs, s)
	return s
}

// Observe adds one finished second (a metrics.Observer). It keeps nothing
// of p after it returns.
func (l *Live) Observe(p *metrics.Point) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.scenario(p.Scenario)
	if s.acc == nil {
		s.acc = newAcc(&Scenario{Name: s.name}, nil, time.Time{}, p.Sec, 1)
		s.first = p.Time
		if l.start.IsZero() || p.Time.Before(l.start) {
			l.start = p.Time
		}
	}
	_ = s.acc.add(p) // step 1: no histogram is decoded, add cannot fail
	s.acc.trim(l.opts.Window)
	if p.Hist != nil {
		s.rt.Merge(p.Hist)
	}
	for k, v := range p.Counts {
		s.counts[k] += v
	}
	for msg, n := range p.Errors {
		if _, known := s.errors[msg]; !known && len(s.errors) >= metrics.MaxErrorMessages {
			msg = metrics.OtherErrors
		}
		s.errors[msg] += n
	}
	if end := p.Time.Add(time.Second); end.After(s.last) {
		s.last = end
	}
}

// ObserveTarget adds one --monitor sample (monitor.Monitor.Subscribe).
func (l *Live) ObserveTarget(s monitor.Sample) {
	if s.Err != "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	old, seen := l.samples[s.Source]
	if !seen {
		l.sources = append(l.sources, s.Source)
	}
	old = append(old, s)
	if n := len(old) - l.opts.Window; n > 0 {
		old = append(old[:0:0], old[n:]...)
	}
	l.samples[s.Source] = old
}

// End marks the run as over: the next payloads say so.
func (l *Live) End() {
	l.mu.Lock()
	l.ended = true
	l.mu.Unlock()
}

// Payload returns the page's data for what was observed so far: one run,
// every scenario (those not started yet without series).
func (l *Live) Payload() *Payload {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := &Payload{Version: PayloadVersion, Live: true, Ended: l.ended, Title: l.opts.Title, Generator: l.opts.Generator}
	run := &Run{Label: "live", Start: l.start}
	for _, s := range l.scs {
		sc := s.payload()
		if s.acc != nil {
			for _, src := range l.sources {
				var pts []targetPoint
				for i := range l.samples[src] {
					if tp, ok := targetPointOf(&l.samples[src][i], s.first, s.last); ok {
						pts = append(pts, tp)
					}
				}
				if len(pts) > 0 {
					ts := &TargetSource{Source: src, Stats: monitor.Stats{Source: src, Samples: len(pts)}}
					ts.fill(pts, l.opts.Window)
					sc.Target = append(sc.Target, ts)
				}
			}
		}
		if s.last.After(run.End) {
			run.End = s.last
		}
		run.Scenarios = append(run.Scenarios, sc)
		p.Scenarios = append(p.Scenarios, s.name)
	}
	if run.Start.IsZero() {
		run.Start = time.Now()
		run.End = run.Start
	}
	p.Runs = []*Run{run}
	return p
}

// payload is the scenario so far.
func (s *liveScenario) payload() *Scenario {
	sc := &Scenario{Name: s.name, Start: s.first}
	sc.Verdict.Status = "running"
	if s.acc == nil {
		sc.Summary.Checks = -1
		return sc
	}
	d := s.last.Sub(s.first).Seconds()
	sc.Duration = round(d, 3)
	sum := &sc.Summary
	sum.Iterations, sum.Requests = s.counts[metrics.Iterations], s.counts[metrics.Requests]
	sum.Errors, sum.Dropped = s.counts[metrics.Errors], s.counts[metrics.DroppedIterations]
	ops := sum.Requests
	if ops == 0 {
		ops = sum.Iterations
	}
	if d > 0 {
		sum.Throughput = round(float64(ops)/d, 2)
	}
	if ops > 0 {
		sum.ErrorRate = round(float64(sum.Errors)/float64(ops), 6)
	}
	sum.Checks = -1
	if pass, fail := metric.RateParts(s.counts, metrics.Checks); pass+fail > 0 {
		sum.Checks = round(float64(pass)/float64(pass+fail), 6)
		sc.Rates = []RateRow{{Name: metrics.Checks, Passes: pass, Fails: fail, Value: sum.Checks}}
	}
	if s.rt.TotalCount() > 0 {
		t := &metrics.Trend{Unit: metrics.UnitMicros, Hist: s.rt}
		st := t.Stats()
		sum.P50, sum.P90, sum.P95, sum.P99 = usToMs(st.Med), usToMs(st.P90), usToMs(st.P95), usToMs(st.P99)
		sum.Max, sum.Avg = usToMs(st.Max), usToMs(st.Avg)
		sc.Distribution = distribution(t)
		sc.Trends = []TrendRow{{Name: metrics.ResponseTime, Unit: "ms", Count: st.Count, Min: usToMs(st.Min), Avg: usToMs(st.Avg),
			Med: usToMs(st.Med), P90: usToMs(st.P90), P95: usToMs(st.P95), P99: usToMs(st.P99), P999: usToMs(st.P999), Max: usToMs(st.Max)}}
	}
	snap := &metrics.ScenarioSnapshot{Errors: s.errors}
	for i, e := range snap.SortedErrors() {
		if i >= maxErrorRows {
			break
		}
		sc.Errors = append(sc.Errors, Count{Name: e.Msg, N: e.N})
	}
	s.acc.sc = sc
	s.acc.finish()
	return sc
}
