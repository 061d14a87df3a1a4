package run

import (
	"io"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Deps are what Execute and Preflight use from the process: outputs,
// environment and where messages go. Nil writers discard. (Each family
// opens its targets with drivers of its own.)
type Deps struct {
	// Outputs make the live outputs Plan.Outputs name (--out NAME=ARG);
	// nil: stampede's own (outputs.New).
	Outputs *output.Registry
	// Getenv reads an environment variable (credentials, tokens); nil
	// reads none.
	Getenv func(string) string
	// Log receives the families' preparation messages (data generation,
	// loading); nil keeps them quiet.
	Log io.Writer
	// Info receives the run's own informational lines (live endpoints,
	// the segment plan, the wait for StartAt, the result directory).
	Info io.Writer
	// Warn receives warnings that are always shown (an output that cannot
	// keep up).
	Warn io.Writer
	// ProgressBars receives the families' progress bars (a terminal); nil
	// shows none.
	ProgressBars io.Writer
	// StdoutTTY tells the k6 summary that stdout is a terminal.
	StdoutTTY bool
	// ConsoleWidth is the terminal's width for the summary printed on it
	// (0: 80 columns).
	ConsoleWidth int
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
