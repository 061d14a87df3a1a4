package cli

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

// parseProfilers parses the --profile values while planning, so a bad one
// stops the run before any target is touched.
func parseProfilers(specs []string, getenv func(string) string) ([]profile.Collector, error) {
	var out []profile.Collector
	for _, s := range specs {
		c, err := profile.ParseSpecEnv(s, getenv)
		if err != nil {
			return nil, asUsage(err)
		}
		out = append(out, c)
	}
	return out, nil
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
