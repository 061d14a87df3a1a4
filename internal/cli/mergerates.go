package cli

import (
	"github.com/stampede-bench/stampede/internal/analysis/merge"
	"github.com/stampede-bench/stampede/internal/workload/mq"
)

// mergeRateTrends are the per-second trends `stampede merge` rebuilds
// from the merged series, so that merged msgs/s is the sum over the
// processes.
func mergeRateTrends() []merge.RateTrend {
	var out []merge.RateTrend
	for _, p := range mq.PerSecondTrends() {
		out = append(out, merge.RateTrend{Trend: p.Trend, Counter: p.Counter, Sparse: p.Sparse})
	}
	return out
}
