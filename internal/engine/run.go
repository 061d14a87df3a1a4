package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
	"github.com/stampede-bench/stampede/vu"
)

// Spec is one scenario of a plan.
type Spec struct {
	Name     string
	Scenario vu.Scenario
	Config   Config
}

// Plan is what to run. Scenarios run one after the other (as nebula-bench
// does) unless Concurrent.
type Plan struct {
	Scenarios  []Spec
	Concurrent bool
}

// Hook runs around each scenario (profilers, progress displays).
type Hook interface {
	BeforeScenario(ctx context.Context, index int, spec Spec) error
	AfterScenario(ctx context.Context, index int, spec Spec) error
}

// Deps are what the engine records into.
type Deps struct {
	// Agg must have been created with the plan's scenario names in order
	// and be running.
	Agg   *metrics.Aggregator
	Clock metrics.Clock
	// Log receives every request when non-nil.
	Log   reqlog.Log
	Hooks []Hook
	// FakeTime tells that the clock is testing/synctest's: waits must use
	// Go timers, which the fake clock advances.
	FakeTime bool
	// Backoff is the per-VU wait after connection failures (closed model).
	Backoff Backoff
}

// Validate checks every scenario's configuration.
func (p Plan) Validate() error {
	if len(p.Scenarios) == 0 {
		return errors.New("no scenarios to run")
	}
	seen := map[string]bool{}
	for i, s := range p.Scenarios {
		if seen[s.Name] {
			return fmt.Errorf("scenario %q appears twice", s.Name)
		}
		seen[s.Name] = true
		if err := s.Config.Validate(); err != nil {
			return fmt.Errorf("scenario %s: %w", s.Name, err)
		}
		if s.Scenario == nil {
			return fmt.Errorf("scenario %d (%s) has no implementation", i, s.Name)
		}
	}
	return nil
}

// Run executes the plan. When ctx is cancelled (Ctrl+C) every iteration is
// interrupted at once and Run returns with interrupted set; what was
// measured until then is in the aggregator. Scenario hook, setup and VU
// errors end the run with an error.
func Run(ctx context.Context, plan Plan, deps Deps) (interrupted bool, err error) {
	if err := plan.Validate(); err != nil {
		return false, err
	}
	if plan.Concurrent {
		errc := make(chan error, len(plan.Scenarios))
		for i := range plan.Scenarios {
			go func() { errc <- runScenario(ctx, i, plan.Scenarios[i], deps) }()
		}
		var errs []error
		for range plan.Scenarios {
			errs = append(errs, <-errc)
		}
		return ctx.Err() != nil, errors.Join(errs...)
	}
	for i, s := range plan.Scenarios {
		if ctx.Err() != nil {
			break
		}
		if err := runScenario(ctx, i, s, deps); err != nil {
			return ctx.Err() != nil, err
		}
	}
	return ctx.Err() != nil, nil
}

func runScenario(ctx context.Context, idx int, spec Spec, deps Deps) (err error) {
	for _, h := range deps.Hooks {
		if err := h.BeforeScenario(ctx, idx, spec); err != nil {
			return fmt.Errorf("scenario %s: %w", spec.Name, err)
		}
	}
	defer func() {
		for _, h := range deps.Hooks {
			if herr := h.AfterScenario(context.WithoutCancel(ctx), idx, spec); herr != nil && err == nil {
				err = fmt.Errorf("scenario %s: %w", spec.Name, herr)
			}
		}
	}()
	if n, ok := spec.Scenario.(vu.Noter); ok {
		// Deferred before Teardown, so it runs after it: scenarios may
		// finish their notes (tallies, phases) while tearing down.
		defer func() {
			for _, note := range n.Notes() {
				deps.Agg.Note(idx, note)
			}
		}()
	}
	r := newRunner(idx, spec, deps)
	if s, ok := spec.Scenario.(vu.MeasuredSetupper); ok {
		if err := r.measured(ctx, s.SetupMeasured); err != nil {
			return fmt.Errorf("scenario %s setup: %w", spec.Name, err)
		}
	} else if s, ok := spec.Scenario.(vu.Setupper); ok {
		if err := s.Setup(ctx); err != nil {
			return fmt.Errorf("scenario %s setup: %w", spec.Name, err)
		}
	}
	mt, measuredTeardown := spec.Scenario.(vu.MeasuredTeardowner)
	if t, ok := spec.Scenario.(vu.Teardowner); ok || measuredTeardown {
		defer func() {
			tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			var terr error
			if measuredTeardown {
				terr = r.measured(tctx, mt.TeardownMeasured)
			} else {
				terr = t.Teardown(tctx)
			}
			if terr != nil && err == nil {
				err = fmt.Errorf("scenario %s teardown: %w", spec.Name, terr)
			}
		}()
	}
	start := deps.Clock.Now()
	deps.Agg.Mark(idx, deps.Clock.Wall(start), time.Time{}, false, spec.Config.Executor)
	if spec.Config.Warmup > 0 {
		deps.Agg.SetWarmup(idx, spec.Config.Warmup)
	}
	stopGauges := r.sampleGauges()
	err = r.execute(ctx, start)
	stopGauges()
	if n := r.cut.Load(); n > 0 {
		deps.Agg.Schedule(idx, 0, 0, n)
	}
	if note := r.backoffNote(deps.Clock.Now() - start); note != "" {
		deps.Agg.Note(idx, note)
	}
	r.closeVUs()
	deps.Agg.Mark(idx, time.Time{}, deps.Clock.Wall(deps.Clock.Now()), ctx.Err() != nil, "")
	if errors.Is(err, ErrInterrupted) {
		err = nil // Ctrl+C during VU allocation: an interrupted run, not a failure
	}
	if err != nil {
		return fmt.Errorf("scenario %s: %w", spec.Name, err)
	}
	return nil
}
