package merge

import (
	"fmt"
	"math"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// RateTrend names a trend whose samples are one process's count of a
// counter per second (kafka's msgs_per_s samples messages). Merging such
// histograms bucket by bucket would describe one process, not the whole;
// the merge rebuilds them from the merged per-second series instead, so
// every sample is the total of all processes in that second.
type RateTrend struct {
	// Trend is the per-second trend; Counter the counter it counts.
	Trend, Counter string
	// Sparse skips seconds without a count (phase-tagged trends, which
	// only cover part of the run); otherwise such seconds count as 0.
	Sparse bool
}

// minCover is the least part of a second a rebuilt sample must cover:
// shorter edges (the first and last second) would be noise.
const minCover = 500 * time.Millisecond

// rebuildRateTrends replaces every RateTrend of snap's scenarios with
// samples from the merged series all (second s at base + s): the
// counter's merged count in each second, divided by the part of that
// second the scenario's measured span covers. Seconds covered less than
// minCover are left out. It returns a note per rebuilt trend.
func rebuildRateTrends(snap *metrics.Snapshot, all map[seriesKey]*seriesAcc, base time.Time, rts []RateTrend, parts int) {
	if base.IsZero() {
		return
	}
	for _, sc := range snap.Scenarios {
		from, to := sc.Start.Add(sc.Warmup), sc.End
		if !to.After(from) {
			continue
		}
		first := int64(math.Floor(from.Sub(base).Seconds()))
		last := int64(math.Ceil(to.Sub(base).Seconds()))
		for _, rt := range rts {
			old := sc.Trends[rt.Trend]
			if old == nil {
				continue
			}
			h := metric.NewHistogram()
			for s := first; s < last; s++ {
				lo := base.Add(time.Duration(s) * time.Second)
				hi := lo.Add(time.Second)
				cover := minTime(hi, to).Sub(maxTime(lo, from))
				if cover < minCover {
					continue
				}
				var n int64
				if a := all[seriesKey{sc.Name, s}]; a != nil {
					n = a.counts[rt.Counter]
				}
				if n == 0 && rt.Sparse {
					continue
				}
				_ = h.RecordValue(int64(math.Round(float64(n) / cover.Seconds())))
			}
			if h.TotalCount() == 0 {
				continue
			}
			sc.Trends[rt.Trend] = &metrics.Trend{Unit: old.Unit, Hist: h}
			sc.Notes = append(sc.Notes, fmt.Sprintf("%s: merged from the per-second %s of all %d processes (each sample is the total of one second, divided by the part of it the run covers)", rt.Trend, rt.Counter, parts))
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
