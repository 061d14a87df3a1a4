package cli

import (
	"context"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// liveOutputs are outputs fed while the run goes (Prometheus, InfluxDB,
// the generator self-check) and the report written after it.
type liveOutputs struct {
	observers []metrics.Observer
	hooks     []engine.Hook
	closers   []func()
}

// startLiveOutputs starts the outputs p asks for.
func startLiveOutputs(ctx context.Context, env *Env, p *runPlan, reg *metrics.Registry) (*liveOutputs, error) {
	if len(p.outputs) > 0 {
		return nil, usagef("output %s is not available yet", p.outputs[0].kind)
	}
	if p.flags.prometheus != "" {
		return nil, usagef("--prometheus is not available yet")
	}
	return &liveOutputs{}, nil
}

// annotate adds what the live outputs learned (e.g. generator saturation)
// to the snapshot before the summaries are written.
func (l *liveOutputs) annotate(snap *metrics.Snapshot) {}

// afterRun writes post-run artefacts (the HTML report) into dir.
func (l *liveOutputs) afterRun(env *Env, p *runPlan, dir string, snap *metrics.Snapshot) error {
	return nil
}

// close stops every live output.
func (l *liveOutputs) close() {
	for _, c := range l.closers {
		c()
	}
}
