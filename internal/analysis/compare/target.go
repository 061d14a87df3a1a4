package compare

import (
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// TargetCPU is the metric name of the target's CPU time per operation, µs:
// the CPU the monitored target used during the scenario's measured span
// (after warm-up) — its processes' when --monitor had pid= or
// process-exporter sources, else its hosts' busy time — divided by the
// requests (iterations when none were counted). A neighbour that delays
// requests hardly makes them cost more CPU, so this is the steadiest
// figure of a build's efficiency (bench/pgo.sh measured it by hand).
const TargetCPU = "target_cpu"

// targetCPUs reads the target's CPU seconds per scenario of a run from its
// monitor series (nil when the run was not monitored).
func targetCPUs(res *resultdir.Result, warm map[string]time.Duration) (map[string]float64, error) {
	scs := res.Snapshot.Scenarios
	wins := make([]monitor.Window, len(scs))
	for i, sc := range scs {
		w := warm[sc.Name]
		if sc.Warmup > w {
			w = sc.Warmup
		}
		wins[i] = monitor.Window{From: sc.Start.Add(w), To: sc.End}
	}
	all, err := monitor.Summarize(res.Dir, wins, monitor.SummarizeOptions{})
	if err != nil || all == nil {
		return nil, err
	}
	out := map[string]float64{}
	for i, sc := range scs {
		if secs, ok := monitor.TargetCPU(all[i]); ok {
			out[sc.Name] = secs
		}
	}
	return out, nil
}

// targetCPUValue is TargetCPU of scenario sc in run: µs per operation.
func targetCPUValue(run Run, sc *metrics.ScenarioSnapshot) (float64, string, bool) {
	secs, ok := run.TargetCPU[sc.Name]
	if !ok {
		return 0, "", false
	}
	ops := sc.Counters[metrics.Requests]
	if ops == 0 {
		ops = sc.Counters[metrics.Iterations]
	}
	if ops == 0 {
		return 0, "", false
	}
	return secs * 1e6 / float64(ops), "µs/op", true
}

// monitoredEverywhere reports whether every run of both sides that has
// scenario name also has its target CPU, so target_cpu is compared by
// default.
func monitoredEverywhere(name string, sides ...Side) bool {
	for _, s := range sides {
		for _, run := range s.Runs {
			if run.Snapshot.Scenario(name) == nil {
				continue
			}
			if _, ok := run.TargetCPU[name]; !ok {
				return false
			}
		}
	}
	return true
}
