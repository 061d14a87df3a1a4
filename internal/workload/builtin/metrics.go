package builtin

import (
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload"
)

var _ workload.MetricLister = (*Family)(nil)

// MetricDefs implements workload.MetricLister: the built-in scenarios
// record only the engine's own metrics.
func (f *Family) MetricDefs([]string) []metrics.Def { return nil }
