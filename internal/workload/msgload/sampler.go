package msgload

import (
	"context"
	"sync"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// MinFinalSample is the shortest partial second the Sampler turns into a
// last sample when it stops: shorter remainders are too short to give a
// rate (their messages are still in the counters and the totals).
const MinFinalSample = 100 * time.Millisecond

// TrendSink takes trend samples; *metrics.Pending is one.
type TrendSink interface {
	Trend(id metrics.ID, v int64)
}

var _ TrendSink = (*metrics.Pending)(nil)

// Sampler takes the per-second rate samples of a scenario: msgs_per_s of
// its acknowledged-message counter, the per-topic (or per-stream) rates
// when there are several, and the rate per churn phase. It samples on the
// run clock from its own goroutine (Run) once a second, so that a second in
// which no VU ran (a stalled broker) is a sample of its own, 0 or low, and
// when Run ends it takes a last sample of the partial second since the
// previous one (at least MinFinalSample long): the drain after -d, when
// VUs wait for their last acknowledgements, is sampled like any other
// second. Each sample is the count over the span it covers divided by that
// span, rounded to the nearest whole msgs/s.
//
// Samples go to Out (metrics.Pending): background goroutines never record;
// the next VU iteration, or the scenario's last VU Close, records them.
// Fill the fields, call Start once, then run Run in one goroutine.
type Sampler struct {
	// Now reads the run clock (metrics.Clock.Now).
	Now func() time.Duration
	// Out receives the samples (a *metrics.Pending).
	Out TrendSink
	// Count is the counter sampled into Trend (acknowledged messages).
	Count func() int64
	Trend metrics.ID
	// PartCount, when Parts > 1, is the counter of part i (a topic or a
	// stream), sampled into PartTrend: its spread shows how evenly the
	// parts were served.
	Parts     int
	PartCount func(i int) int64
	PartTrend metrics.ID
	// Phase, when set, maps the middle of a sampled span to a churn phase
	// (Phase); the sample also goes to PhaseTrend[phase] and is kept for
	// PhaseRates.
	Phase      func(at time.Duration) int
	PhaseTrend [3]metrics.ID

	mu        sync.Mutex
	last      time.Duration
	lastCount int64
	lastParts []int64
	phaseSecs [3][]float64
	samples   int
}

// Start fixes the first span's beginning at run offset at.
func (s *Sampler) Start(at time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = at
	s.lastCount = s.Count()
	if s.Parts > 1 {
		s.lastParts = make([]int64, s.Parts)
		for i := range s.lastParts {
			s.lastParts[i] = s.PartCount(i)
		}
	}
}

// Run samples once a second until ctx ends, then takes the last partial
// sample.
func (s *Sampler) Run(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			s.sample(true)
			return
		case <-t.C:
			s.sample(false)
		}
	}
}

// sample takes one sample of the span since the previous one.
func (s *Sampler) sample(final bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now()
	dt := now - s.last
	if dt <= 0 || final && dt < MinFinalSample {
		return
	}
	perSec := float64(time.Second) / float64(dt)
	n := s.Count()
	r := float64(n-s.lastCount) * perSec
	s.Out.Trend(s.Trend, int64(r+0.5))
	if s.Phase != nil {
		p := s.Phase(now - dt/2)
		s.Out.Trend(s.PhaseTrend[p], int64(r+0.5))
		s.phaseSecs[p] = append(s.phaseSecs[p], r)
	}
	if s.Parts > 1 {
		for i := range s.lastParts {
			c := s.PartCount(i)
			s.Out.Trend(s.PartTrend, int64(float64(c-s.lastParts[i])*perSec+0.5))
			s.lastParts[i] = c
		}
	}
	s.last, s.lastCount = now, n
	s.samples++
}

// PhaseRates returns the per-second rates sampled in phase p so far.
func (s *Sampler) PhaseRates(p int) []float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]float64(nil), s.phaseSecs[p]...)
}

// Samples is how many samples were taken.
func (s *Sampler) Samples() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.samples
}
