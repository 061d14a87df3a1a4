package kafka

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload"
)

// syncBuffer is a log writer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// family parses args as run flags of a fresh family.
func family(t testing.TB, args ...string) *Family {
	t.Helper()
	f := New(DefaultOptions())
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	f.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}

// step is one scenario of a test plan.
type step struct {
	name string
	cfg  engine.Config
}

// result is what a test run produced.
type result struct {
	snap   *metrics.Snapshot
	opened *workload.Opened
	log    *syncBuffer
}

func (r *result) sc(name string) *metrics.ScenarioSnapshot { return r.snap.Scenario(name) }

// open opens f for the scenarios with env defaults; target may be "".
func open(t testing.TB, f *Family, target string, maxVUs int, names ...string) (*workload.Opened, *workload.Env, *syncBuffer, error) {
	t.Helper()
	log := &syncBuffer{}
	env := &workload.Env{
		Target: target, Metrics: metrics.NewRegistry(), MaxVUs: maxVUs, Seed: 1,
		Timeout: 10 * time.Second, Log: log, Stderr: log,
		Getenv: func(string) string { return "" },
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	o, err := f.Open(ctx, env, names)
	return o, env, log, err
}

// runSteps opens f and runs the steps one after the other, like
// `stampede run` does.
func runSteps(t *testing.T, f *Family, target string, steps ...step) *result {
	t.Helper()
	maxVUs := 0
	var names []string
	for _, s := range steps {
		maxVUs = max(maxVUs, int(s.cfg.Defaults().MaxVUsNeeded()))
		names = append(names, s.name)
	}
	opened, env, log, err := open(t, f, target, maxVUs, names...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if opened.Close != nil {
			if err := opened.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		}
	})
	res := &result{opened: opened, log: log}
	res.snap = runOpened(t, t.Context(), opened, env, steps...)
	return res
}

func runOpened(t testing.TB, ctx context.Context, opened *workload.Opened, env *workload.Env, steps ...step) *metrics.Snapshot {
	t.Helper()
	clock := metrics.NewClock()
	var specs []engine.Spec
	var names []string
	for _, s := range steps {
		specs = append(specs, engine.Spec{Name: s.name, Scenario: opened.Scenarios[s.name], Config: s.cfg.Defaults()})
		names = append(names, s.name)
	}
	agg := metrics.NewAggregator(env.Metrics, clock, names)
	go agg.Run()
	if _, err := engine.Run(ctx, engine.Plan{Scenarios: specs}, engine.Deps{Agg: agg, Clock: clock}); err != nil {
		agg.Close()
		t.Fatal(err)
	}
	agg.Close()
	return agg.Snapshot()
}

func openB(b *testing.B, f *Family, target string, maxVUs int) (*workload.Opened, *workload.Env, *syncBuffer, error) {
	return open(b, f, target, maxVUs, ScenarioProduce)
}

func runOpenedB(b *testing.B, opened *workload.Opened, env *workload.Env, s step) *metrics.Snapshot {
	return runOpened(b, b.Context(), opened, env, s)
}
