package metrics

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/stampede-bench/stampede/metric"
)

// gaugeState is a gauge's last value and extremes.
type gaugeState struct {
	set           bool
	val, min, max float64
}

// scenarioState is what the aggregator keeps of one scenario: the totals
// and the seconds still open for late batches. Only the aggregator
// goroutine touches it.
type scenarioState struct {
	name, executor string
	start, end     time.Time
	interrupted    bool
	warmup         time.Duration
	notes          []string
	scheduled, cut int64
	scheduledOver  time.Duration
	trends         []*hdr.Histogram
	counts, fails  []int64
	errors         map[string]int64
	gauges         []gaugeState
	open           []*secondBin // ascending by sec
	finished       int64        // last finished second
	free           []*secondBin
}

func newScenarioState(name string, reg *Registry) *scenarioState {
	n := reg.Len()
	return &scenarioState{
		name: name, trends: make([]*hdr.Histogram, n),
		counts: make([]int64, n), fails: make([]int64, n), gauges: make([]gaugeState, n),
		errors: map[string]int64{}, finished: -1 << 62,
	}
}

func (s *scenarioState) trend(id ID) *hdr.Histogram {
	h := s.trends[id]
	if h == nil {
		h = metric.NewHistogram()
		s.trends[id] = h
	}
	return h
}

func (s *scenarioState) setGauge(id ID, v float64) {
	g := &s.gauges[id]
	if !g.set {
		g.set, g.min, g.max = true, v, v
	}
	g.val = v
	g.min = min(g.min, v)
	g.max = max(g.max, v)
}

// bin returns the open second sec, creating it. A batch for a second that
// is already finished goes to the oldest open second: totals stay exact,
// the series shifts it by a little.
func (s *scenarioState) bin(sec int64, a *Aggregator) *secondBin {
	if sec <= s.finished {
		sec = s.finished + 1
	}
	i := 0
	for ; i < len(s.open); i++ {
		if s.open[i].sec == sec {
			return s.open[i]
		}
		if s.open[i].sec > sec {
			break
		}
	}
	var b *secondBin
	if n := len(s.free); n > 0 {
		b, s.free = s.free[n-1], s.free[:n-1]
	} else {
		b = &secondBin{rt: metric.NewHistogram(), counts: make([]int64, a.reg.Len()), fails: make([]int64, a.reg.Len())}
	}
	b.sec = sec
	s.open = append(s.open, nil)
	copy(s.open[i+1:], s.open[i:])
	s.open[i] = b
	return b
}

func (s *scenarioState) recycle(b *secondBin) {
	b.rt.Reset()
	for _, h := range b.trends {
		if h != nil {
			h.Reset()
		}
	}
	for _, h := range b.zeroOnly {
		if h != nil {
			h.Reset()
		}
	}
	clear(b.zeros)
	clear(b.counts)
	clear(b.fails)
	b.errors = nil
	s.free = append(s.free, b)
}

// snapshot returns the scenario's measurements, with copies of its
// histograms when clone is set (else its own).
func (s *scenarioState) snapshot(reg *Registry, clone bool) *ScenarioSnapshot {
	sc := metric.NewScenarioSnapshot(s.name, s.executor)
	sc.Start, sc.End, sc.Interrupted, sc.Warmup = s.start, s.end, s.interrupted, s.warmup
	sc.Notes = append([]string(nil), s.notes...)
	sc.Scheduled, sc.ScheduledOver, sc.Cut = s.scheduled, s.scheduledOver, s.cut
	for id := 0; id < reg.Len(); id++ {
		d := reg.Def(ID(id))
		switch d.Kind {
		case KindTrend:
			h := s.trends[id]
			if clone {
				h = s.liveTrend(ID(id), reg)
			}
			if h != nil && h.TotalCount() > 0 {
				sc.Trends[d.Name] = &Trend{Unit: d.Unit, Hist: h}
				sc.Units[d.Name] = d.Unit
			}
		case KindCounter:
			sc.Counters[d.Name] = s.counts[id]
			if d.Unit != UnitNone {
				sc.Units[d.Name] = d.Unit
			}
		case KindRate:
			if s.counts[id]+s.fails[id] > 0 {
				sc.Rates[d.Name] = &Rate{Passes: s.counts[id], Fails: s.fails[id]}
			}
		case KindGauge:
			if g := s.gauges[id]; g.set {
				sc.Gauges[d.Name] = &Gauge{Value: g.val, Min: g.min, Max: g.max}
			}
		}
	}
	for msg, n := range s.errors {
		sc.Errors[msg] = n
	}
	return sc
}

// liveTrend returns a copy of trend id's histogram with the seconds still
// open added (nil: none): responseTime and the series trends reach the
// totals only when their second is finished.
func (s *scenarioState) liveTrend(id ID, reg *Registry) *hdr.Histogram {
	var h *hdr.Histogram
	if t := s.trends[id]; t != nil {
		h = t.Clone()
	}
	total := func(want ID) *hdr.Histogram {
		if want != id {
			return nil
		}
		if h == nil {
			h = metric.NewHistogram()
		}
		return h
	}
	for _, b := range s.open {
		b.addTo(reg, total)
	}
	return h
}

// secondBin collects one second of one scenario until it is finished.
// The zero values of its series trends are counted (zeros, by slot) and
// go into the trend's histogram when the second is finished; a trend
// with no other value that second gets a small histogram of zeros
// (zeroOnly) instead of a full one. A full histogram is 188 KB, all of it
// resident once it is reset for the next second: most of k6's HTTP
// phases (blocked, connecting, TLS, receiving) are zero on every request
// of a kept-alive connection.
type secondBin struct {
	sec           int64
	rt            *hdr.Histogram
	trends        []*hdr.Histogram // Registry.Series, created on first use
	zeros         []int64
	zeroOnly      []*hdr.Histogram
	counts, fails []int64
	errors        map[string]int64
}

// addZeros counts n zero values of series slot (of n).
func (b *secondBin) addZeros(slot, slots int, n int64) {
	if len(b.zeros) < slots {
		b.zeros = append(b.zeros, make([]int64, slots-len(b.zeros))...)
	}
	b.zeros[slot] += n
}

// foldZeros records the counted zero values of each series trend in its
// histogram (hist), or in a histogram of zeros when the trend had no other
// value that second.
func (b *secondBin) foldZeros() {
	for slot, z := range b.zeros {
		if z == 0 {
			continue
		}
		b.zeros[slot] = 0
		h := b.hist(slot)
		if h == nil {
			if len(b.zeroOnly) <= slot {
				b.zeroOnly = append(b.zeroOnly, make([]*hdr.Histogram, slot+1-len(b.zeroOnly))...)
			}
			b.zeroOnly[slot] = metric.NewZerosHistogram()
			h = b.zeroOnly[slot]
		}
		_ = h.RecordValues(0, z)
	}
}

// hist returns the second's histogram of series slot: the full one when
// the trend had a value other than zero, else its zeros' (nil or empty:
// none).
func (b *secondBin) hist(slot int) *hdr.Histogram {
	if slot < len(b.trends) && b.trends[slot] != nil {
		return b.trends[slot]
	}
	if slot < len(b.zeroOnly) {
		return b.zeroOnly[slot]
	}
	return nil
}

// addTo adds the second's histograms (its zeros folded, or still counted
// in zeros while the second is open) to the trends that total returns by
// id (nil: not that one): responseTime and the series trends, which are
// recorded in the seconds alone.
func (b *secondBin) addTo(reg *Registry, total func(ID) *hdr.Histogram) {
	if b.rt.TotalCount() > 0 {
		if t := total(IDResponseTime); t != nil {
			t.Merge(b.rt)
		}
	}
	for slot, id := range reg.Series() {
		h := b.hist(slot)
		var z int64
		if slot < len(b.zeros) {
			z = b.zeros[slot]
		}
		if (h == nil || h.TotalCount() == 0) && z == 0 {
			continue
		}
		t := total(id)
		if t == nil {
			continue
		}
		if h != nil && h.TotalCount() > 0 {
			t.Merge(h)
		}
		if z > 0 {
			_ = t.RecordValues(0, z)
		}
	}
}

func (b *secondBin) point(s *scenarioState, reg *Registry, clock Clock) *Point {
	p := &Point{
		Scenario: s.name, Sec: b.sec, Time: clock.Wall(time.Duration(b.sec) * time.Second),
		Counts: map[string]int64{}, Errors: b.errors, Hist: b.rt, RT: metric.StatsOf(b.rt),
		VUs: int64(s.gauges[IDVUs].val), VUsMax: int64(s.gauges[IDVUsMax].val),
	}
	for i, id := range reg.Series() {
		if h := b.hist(i); h != nil && h.TotalCount() > 0 {
			if p.Trends == nil {
				p.Trends, p.TrendStats = map[string]*hdr.Histogram{}, map[string]PointStats{}
			}
			name := reg.Def(id).Name
			p.Trends[name] = h
			p.TrendStats[name] = metric.StatsOf(h)
		}
	}
	for id := 0; id < reg.Len(); id++ {
		d := reg.Def(ID(id))
		if b.counts[id] != 0 {
			p.Counts[d.Name] = b.counts[id]
		}
		if d.Kind == KindRate && b.counts[id]+b.fails[id] != 0 {
			p.Counts[d.Name+RateTotalSuffix] = b.counts[id] + b.fails[id]
		}
	}
	return p
}

// seriesTrend returns the bin's histogram of series slot (of n).
func (b *secondBin) seriesTrend(slot, n int) *hdr.Histogram {
	if len(b.trends) < n {
		b.trends = append(b.trends, make([]*hdr.Histogram, n-len(b.trends))...)
	}
	if b.trends[slot] == nil {
		b.trends[slot] = metric.NewHistogram()
	}
	return b.trends[slot]
}
