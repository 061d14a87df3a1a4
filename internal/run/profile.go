package run

import (
	"context"
	"errors"
	"fmt"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/profile"
)

// profileHook records target profiles around each scenario into
// RESULT_DIR/profiles.
type profileHook struct {
	collectors []profile.Collector
	dir        string
}

func (h *profileHook) BeforeScenario(ctx context.Context, _ int, spec engine.Spec) error {
	scope := profile.Scope{Scenario: spec.Name, Dir: h.dir, Duration: spec.Config.TotalDuration()}
	for _, c := range h.collectors {
		if err := c.Start(ctx, scope); err != nil {
			return fmt.Errorf("start profiler: %w", err)
		}
	}
	return nil
}

func (h *profileHook) AfterScenario(ctx context.Context, _ int, spec engine.Spec) error {
	var errs []error
	for _, c := range h.collectors {
		if _, err := c.Stop(ctx); err != nil {
			errs = append(errs, fmt.Errorf("profiler for %s: %w", spec.Name, err))
		}
	}
	return errors.Join(errs...)
}
