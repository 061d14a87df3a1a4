package cli

import (
	"context"
	"fmt"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// requestLog is the per-request CSV.
type requestLog interface {
	engine.RequestLog
	Close() error
}

// liveOutputs are outputs fed while the run goes (Prometheus, InfluxDB).
type liveOutputs struct {
	observers []metrics.Observer
	hooks     []engine.Hook
	closers   []func()
}

func (l *liveOutputs) close() {
	for _, c := range l.closers {
		c()
	}
}

// TEMPORARY until the output packages land.
func startLiveOutputs(ctx context.Context, env *Env, p *runPlan, reg *metrics.Registry) (*liveOutputs, error) {
	if len(p.outputs) > 0 {
		return nil, usagef("output %s is not available", p.outputs[0].kind)
	}
	return &liveOutputs{}, nil
}

func openRequestLog(path string) (requestLog, error) { return nil, nil }

func parseThreshold(s string) (any, error) { return nil, nil }

func writeSummaries(env *Env, p *runPlan, dir string, snap *metrics.Snapshot) (bool, error) {
	for _, sc := range snap.Scenarios {
		fmt.Fprintf(env.Stdout, "%s: %d iterations %v\n", sc.Name, sc.Counters[metrics.Iterations], sc.Errors)
	}
	return false, nil
}
