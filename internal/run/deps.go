package run

import (
	"io"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/plan"
)

// Deps are a public plan.Deps with what only the command line sets: the
// live display.
type Deps struct {
	plan.Deps
	// Display, when set, makes the live display of the run (a progress
	// line); it is told about each scenario and stopped when the engine
	// returns.
	Display func(Watch) Display
}

// Watch is what a live display can read while the run goes.
type Watch struct {
	// Agg has the live figures of each scenario (Agg.Live(i)).
	Agg *metrics.Aggregator
	// Specs are the scenarios in run order.
	Specs []engine.Spec
	// Clock is the run's clock.
	Clock metrics.Clock
}

// Display is a live view of a running plan.
type Display interface {
	engine.Hook
	// Stop ends the display once the engine has returned.
	Stop()
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// workloadEnv is what families get for plan p, recording into reg.
func (d Deps) workloadEnv(p Plan, reg *metrics.Registry) *workload.Env {
	getenv := d.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return &workload.Env{
		Target: p.Target, DataDir: p.DataDir, Metrics: reg,
		MaxVUs: int(p.MaxVUs()), Seed: p.Seed, Timeout: p.Timeout,
		Log: orDiscard(d.Log), Stderr: orDiscard(d.ProgressBars), Quiet: d.Log == nil, Getenv: getenv,
		InsecureSkipTLSVerify: p.InsecureSkipTLSVerify, UserAgent: p.UserAgent, Vars: p.Vars,
	}
}
