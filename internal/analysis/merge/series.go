package merge

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// seriesKey is one scenario's second on the merged time base.
type seriesKey struct {
	scenario string
	sec      int64
}

// seriesAcc accumulates the points of one key. Histograms are kept sparse
// (hdr.PackedHistogram): a dense one with the shared geometry is ~190 KB,
// and a long run has many seconds.
type seriesAcc struct {
	counts, errors map[string]int64
	vus            int64
	hist           *hdr.PackedHistogram
}

func (a *seriesAcc) add(p *metrics.Point, h *hdr.PackedHistogram) error {
	return a.absorb(&seriesAcc{counts: p.Counts, errors: p.Errors, vus: p.VUs, hist: h})
}

func (a *seriesAcc) mergeHist(h *hdr.PackedHistogram) error {
	if h == nil {
		return nil
	}
	if a.hist == nil {
		a.hist = h
		return nil
	}
	if dropped := a.hist.Merge(h); dropped != 0 {
		return fmt.Errorf("%d values outside the histogram range", dropped)
	}
	return nil
}

func (a *seriesAcc) absorb(o *seriesAcc) error {
	if a.counts == nil {
		a.counts = map[string]int64{}
	}
	for k, v := range o.counts {
		a.counts[k] += v
	}
	for k, v := range o.errors {
		if a.errors == nil {
			a.errors = map[string]int64{}
		}
		a.errors[k] += v
	}
	a.vus += o.vus
	return a.mergeHist(o.hist)
}

// mergeSeries merges the series.jsonl of dirs into out/series.jsonl and
// returns the number of points written. Parts are aligned by wall time:
// each part's second s happened at its clock's zero + s, and the merged
// time base is the earliest zero; parts that shared a --start-at align
// second for second, others to the nearest second. Points are written by
// second, then in the scenario order of snap, in SeriesWriter's format.
func mergeSeries(dirs []string, out string, snap *metrics.Snapshot, workers int, rts []RateTrend) (int, error) {
	zeros := make([]time.Time, len(dirs))
	var base time.Time
	for i, d := range dirs {
		z, ok, err := seriesZero(d)
		if err != nil {
			return 0, err
		}
		if ok {
			zeros[i] = z
			if base.IsZero() || z.Before(base) {
				base = z
			}
		}
	}
	offsets := make([]int64, len(dirs))
	for i, z := range zeros {
		if !z.IsZero() {
			offsets[i] = int64(math.Round(z.Sub(base).Seconds()))
		}
	}

	// Each worker folds whole parts into its own map; the maps are folded
	// together at the end, so no lock is taken per point.
	workers = min(workers, len(dirs))
	accs := make([]map[seriesKey]*seriesAcc, workers)
	errs := make([]error, workers)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := range workers {
		accs[w] = map[seriesKey]*seriesAcc{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if errs[w] != nil {
					continue
				}
				errs[w] = readPacked(dirs[i], func(p *metrics.Point, h *hdr.PackedHistogram) error {
					k := seriesKey{p.Scenario, p.Sec + offsets[i]}
					a := accs[w][k]
					if a == nil {
						a = &seriesAcc{}
						accs[w][k] = a
					}
					if err := a.add(p, h); err != nil {
						return fmt.Errorf("%s: %s second %d: %w", dirs[i], p.Scenario, p.Sec, err)
					}
					return nil
				})
			}
		}()
	}
	for i := range dirs {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	all := accs[0]
	for _, m := range accs[1:] {
		for k, a := range m {
			if dst := all[k]; dst != nil {
				if err := dst.absorb(a); err != nil {
					return 0, fmt.Errorf("merge series %s second %d: %w", k.scenario, k.sec, err)
				}
			} else {
				all[k] = a
			}
		}
	}
	if len(dirs) > 1 {
		rebuildRateTrends(snap, all, base, rts, len(dirs))
	}
	return writeSeries(out, all, base, snap)
}

// writeSeries writes the accumulated points in order through a
// resultdir.SeriesWriter, so the format is exactly a run's.
func writeSeries(out string, all map[seriesKey]*seriesAcc, base time.Time, snap *metrics.Snapshot) (int, error) {
	rank := map[string]int{}
	for i, sc := range snap.Scenarios {
		rank[sc.Name] = i
	}
	keys := make([]seriesKey, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.sec != b.sec {
			return a.sec < b.sec
		}
		ra, oka := rank[a.scenario]
		rb, okb := rank[b.scenario]
		if oka != okb {
			return oka
		}
		if ra != rb {
			return ra < rb
		}
		return a.scenario < b.scenario
	})
	sw, err := resultdir.NewSeriesWriter(out)
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		a := all[k]
		p := &metrics.Point{
			Scenario: k.scenario, Sec: k.sec, Time: base.Add(time.Duration(k.sec) * time.Second),
			Counts: a.counts, Errors: a.errors, VUs: a.vus,
		}
		if p.Counts == nil {
			p.Counts = map[string]int64{}
		}
		if a.hist != nil && a.hist.TotalCount() > 0 {
			// The sparse histogram's statistics and V2 encoding are
			// bit-identical to the dense ones a run writes (hdrhistogram-go
			// guarantees it), without a 190 KB dense copy per point.
			p.RT = statsOfPacked(a.hist)
			enc, err := a.hist.Encode()
			if err != nil {
				sw.Close()
				return 0, fmt.Errorf("merge series %s second %d: %w", k.scenario, k.sec, err)
			}
			p.HistEnc = base64.StdEncoding.EncodeToString(enc) // as metrics.EncodeHistogram
		}
		sw.Observe(p) // p.Hist is nil: the writer keeps HistEnc as set
	}
	if err := sw.Close(); err != nil {
		return 0, fmt.Errorf("write merged series: %w", err)
	}
	return len(keys), nil
}

// statsOfPacked is metrics.StatsOf for a sparse histogram.
func statsOfPacked(h *hdr.PackedHistogram) metrics.PointStats {
	q := h.ValueAtPercentilesSlice([]float64{50, 90, 95, 99})
	return metrics.PointStats{N: h.TotalCount(), Mean: h.Mean(), P50: q[0], P90: q[1], P95: q[2], P99: q[3], Max: h.Max()}
}

// errStop ends a series scan early.
var errStop = errors.New("stop")

// seriesZero returns the wall time of second 0 of dir's series, from its
// first point (false when the series is missing or empty).
func seriesZero(dir string) (time.Time, bool, error) {
	var zero time.Time
	err := resultdir.ScanSeries(dir, func(p *metrics.Point) error {
		zero = p.Time.Add(-time.Duration(p.Sec) * time.Second)
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return time.Time{}, false, err
	}
	return zero, !zero.IsZero(), nil
}

// readPacked calls fn for each point of dir's series with its histogram
// decoded sparse (nil when the second had no response).
func readPacked(dir string, fn func(*metrics.Point, *hdr.PackedHistogram) error) error {
	return resultdir.ScanSeries(dir, func(p *metrics.Point) error {
		var h *hdr.PackedHistogram
		if p.HistEnc != "" {
			// metrics.EncodeHistogram wraps hdr's base64 output in base64 again.
			raw, err := base64.StdEncoding.DecodeString(p.HistEnc)
			if err == nil {
				h, err = hdr.DecodePacked(raw)
			}
			if err != nil {
				return fmt.Errorf("%s: %s second %d: decode histogram: %w", dir, p.Scenario, p.Sec, err)
			}
		}
		return fn(p, h)
	})
}
