package metric

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// SnapshotVersion is the version of the snapshot file format.
const SnapshotVersion = 1

// Snapshot is the complete measurement of a run: enough to recompute every
// statistic without the run. It serializes to JSON with histograms in the
// compressed HdrHistogram encoding, and merges exactly (see Merge).
type Snapshot struct {
	Version     int       `json:"version"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	Interrupted bool      `json:"interrupted,omitempty"`
	// Stopped is why stampede itself stopped the run before its end, as
	// one phrase (e.g. "the disk is full: write DIR/requests.csv: no space
	// left on device"); empty when the run ran its course or the user
	// interrupted it. A stopped run is also Interrupted (cut short).
	Stopped   string              `json:"stopped,omitempty"`
	Scenarios []*ScenarioSnapshot `json:"scenarios"`
}

// ScenarioSnapshot is the measurement of one scenario.
type ScenarioSnapshot struct {
	Name        string    `json:"name"`
	Executor    string    `json:"executor,omitempty"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	Interrupted bool      `json:"interrupted,omitempty"`
	// Warmup is the start of the scenario excluded from every statistic.
	Warmup   time.Duration     `json:"warmup,omitempty"`
	Trends   map[string]*Trend `json:"trends"`
	Counters map[string]int64  `json:"counters"`
	Rates    map[string]*Rate  `json:"rates,omitempty"`
	Gauges   map[string]*Gauge `json:"gauges,omitempty"`
	Errors   map[string]int64  `json:"errors,omitempty"`
	Units    map[string]Unit   `json:"units,omitempty"`
	// Notes are remarks shown in summaries, e.g. that a target is an
	// in-memory test cluster.
	Notes []string `json:"notes,omitempty"`
	// Scheduled is the number of iterations an arrival-rate schedule
	// planned to start after the warm-up, over ScheduledOver (both 0
	// under the closed model). The verdict compares the iterations
	// started and dropped with it.
	Scheduled     int64         `json:"scheduled,omitempty"`
	ScheduledOver time.Duration `json:"scheduledOver,omitempty"`
	// Cut counts the iterations still running when the graceful stop ran
	// out: interrupted, they are counted neither as iterations nor as
	// errors (Ctrl+C interruptions are not counted here).
	Cut int64 `json:"cut,omitempty"`
}

// Duration is the wall time the scenario ran.
func (s *ScenarioSnapshot) Duration() time.Duration { return s.End.Sub(s.Start) }

// MeasuredDuration is the time the statistics cover: Duration without the
// warm-up. Rates (per second) divide by it.
func (s *ScenarioSnapshot) MeasuredDuration() time.Duration {
	if d := s.Duration() - s.Warmup; d > 0 {
		return d
	}
	return s.Duration()
}

// Trend is one distribution.
type Trend struct {
	Unit Unit
	Hist *hdr.Histogram
}

type trendJSON struct {
	Unit Unit   `json:"unit"`
	Hist string `json:"hdr"`
}

// MarshalJSON encodes the histogram compressed.
func (t *Trend) MarshalJSON() ([]byte, error) {
	enc, err := EncodeHistogram(t.Hist)
	if err != nil {
		return nil, err
	}
	return json.Marshal(trendJSON{Unit: t.Unit, Hist: enc})
}

// UnmarshalJSON decodes a trend written by MarshalJSON.
func (t *Trend) UnmarshalJSON(b []byte) error {
	var j trendJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	h, err := DecodeHistogram(j.Hist)
	if err != nil {
		return err
	}
	t.Unit, t.Hist = j.Unit, h
	return nil
}

// Stats are the k6 trend statistics, in the trend's unit.
type Stats struct {
	Count                       int64
	Min, Avg, Med, Max          float64
	P90, P95, P99, P999, StdDev float64
}

// Stats computes the k6 trend statistics of t.
func (t *Trend) Stats() Stats {
	h := t.Hist
	if h.TotalCount() == 0 {
		return Stats{}
	}
	// The 0th and 100th percentiles are Min and Max (the lowest value
	// equivalent to the first sample, the highest equivalent to the last),
	// found in the one scan of the percentiles rather than in a walk of the
	// whole histogram each.
	q := h.ValueAtPercentilesSlice([]float64{0, 50, 90, 95, 99, 99.9, 100})
	return Stats{
		Count: h.TotalCount(),
		Min:   float64(q[0]), Avg: h.Mean(), Med: float64(q[1]), Max: float64(q[6]),
		P90: float64(q[2]), P95: float64(q[3]), P99: float64(q[4]), P999: float64(q[5]),
		StdDev: h.StdDev(),
	}
}

// Percentile returns the value at percentile p (0–100).
func (t *Trend) Percentile(p float64) float64 { return float64(t.Hist.ValueAtPercentile(p)) }

// Rate is a pass/fail count (checks).
type Rate struct {
	Passes int64 `json:"passes"`
	Fails  int64 `json:"fails"`
}

// Value is the fraction of passes (0 when empty).
func (r *Rate) Value() float64 {
	if n := r.Passes + r.Fails; n > 0 {
		return float64(r.Passes) / float64(n)
	}
	return 0
}

// Gauge is a sampled value with its extremes.
type Gauge struct {
	Value float64 `json:"value"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
}

// Scenario returns the scenario snapshot named name, or nil.
func (s *Snapshot) Scenario(name string) *ScenarioSnapshot {
	for _, sc := range s.Scenarios {
		if sc.Name == name {
			return sc
		}
	}
	return nil
}

// Merge returns the exact combination of snapshots taken by several
// processes (or runs) of the same plan: scenarios are matched by name,
// histograms merged, counters, rates and errors summed, gauges summed (the
// VUs of N processes add up) with min/max summed likewise, and each
// scenario's time span is the union of the parts.
func Merge(parts ...*Snapshot) (*Snapshot, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no snapshots")
	}
	out := &Snapshot{Version: SnapshotVersion}
	index := map[string]*ScenarioSnapshot{}
	for i, p := range parts {
		if p.Version != SnapshotVersion {
			return nil, fmt.Errorf("merge: snapshot %d has version %d, want %d", i+1, p.Version, SnapshotVersion)
		}
		if out.Start.IsZero() || p.Start.Before(out.Start) {
			out.Start = p.Start
		}
		if p.End.After(out.End) {
			out.End = p.End
		}
		out.Interrupted = out.Interrupted || p.Interrupted
		if out.Stopped == "" {
			out.Stopped = p.Stopped
		}
		for _, sc := range p.Scenarios {
			dst, ok := index[sc.Name]
			if !ok {
				dst = NewScenarioSnapshot(sc.Name, sc.Executor)
				dst.Start, dst.End = sc.Start, sc.End
				index[sc.Name] = dst
				out.Scenarios = append(out.Scenarios, dst)
			}
			if err := dst.merge(sc); err != nil {
				return nil, fmt.Errorf("merge scenario %s: %w", sc.Name, err)
			}
		}
	}
	return out, nil
}

// NewScenarioSnapshot returns an empty measurement of scenario name run by
// executor, its maps made.
func NewScenarioSnapshot(name, executor string) *ScenarioSnapshot {
	return &ScenarioSnapshot{
		Name: name, Executor: executor,
		Trends: map[string]*Trend{}, Counters: map[string]int64{},
		Rates: map[string]*Rate{}, Gauges: map[string]*Gauge{}, Errors: map[string]int64{},
		Units: map[string]Unit{},
	}
}

func (s *ScenarioSnapshot) merge(o *ScenarioSnapshot) error {
	if o.Start.Before(s.Start) {
		s.Start = o.Start
	}
	if o.End.After(s.End) {
		s.End = o.End
	}
	s.Interrupted = s.Interrupted || o.Interrupted
	s.Warmup = max(s.Warmup, o.Warmup)
	s.Scheduled += o.Scheduled // each process runs its segment of the schedule
	s.ScheduledOver = max(s.ScheduledOver, o.ScheduledOver)
	s.Cut += o.Cut
	for name, t := range o.Trends {
		dst, ok := s.Trends[name]
		if !ok {
			dst = &Trend{Unit: t.Unit, Hist: NewHistogram()}
			s.Trends[name] = dst
		}
		if dst.Unit != t.Unit {
			return fmt.Errorf("trend %s has units %s and %s", name, dst.Unit, t.Unit)
		}
		if dropped := dst.Hist.Merge(t.Hist); dropped != 0 {
			return fmt.Errorf("trend %s: %d values outside the histogram range", name, dropped)
		}
	}
	s.addCounts(o)
	for name, g := range o.Gauges {
		dst, ok := s.Gauges[name]
		if !ok {
			dst = &Gauge{}
			s.Gauges[name] = dst
		}
		dst.Value += g.Value
		dst.Min += g.Min
		dst.Max += g.Max
	}
	for _, n := range o.Notes {
		if !slices.Contains(s.Notes, n) {
			s.Notes = append(s.Notes, n)
		}
	}
	return nil
}

// SortedErrors returns the error messages by descending count, then by text.
func (s *ScenarioSnapshot) SortedErrors() []ErrorCount {
	out := make([]ErrorCount, 0, len(s.Errors))
	for msg, n := range s.Errors {
		out = append(out, ErrorCount{Msg: msg, N: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Msg < out[j].Msg
	})
	return out
}

// ErrorCount is an error message with its number of occurrences.
type ErrorCount struct {
	Msg string
	N   int64
}

// addCounts adds o's counters, rates and errors to s and takes its units:
// what a merge of processes and a run's total (Total) sum alike.
func (s *ScenarioSnapshot) addCounts(o *ScenarioSnapshot) {
	for name, v := range o.Counters {
		s.Counters[name] += v
	}
	for name, r := range o.Rates {
		dst, ok := s.Rates[name]
		if !ok {
			dst = &Rate{}
			s.Rates[name] = dst
		}
		dst.Passes += r.Passes
		dst.Fails += r.Fails
	}
	for msg, n := range o.Errors {
		s.Errors[msg] += n
	}
	for name, u := range o.Units {
		s.Units[name] = u
	}
}
