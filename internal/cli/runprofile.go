package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/profile"
)

// profileHook records target profiles around each scenario into
// RESULT_DIR/profiles.
type profileHook struct {
	collectors []profile.Collector
	dir        string
	files      []string
}

// newProfileHook parses --profile values; nil when there are none.
func newProfileHook(specs []string, dir string, getenv func(string) string) (*profileHook, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	h := &profileHook{dir: filepath.Join(dir, "profiles")}
	for _, s := range specs {
		c, err := profile.ParseSpecEnv(s, getenv)
		if err != nil {
			return nil, asUsage(err)
		}
		h.collectors = append(h.collectors, c)
	}
	return h, nil
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
		files, err := c.Stop(ctx)
		h.files = append(h.files, files...)
		if err != nil {
			errs = append(errs, fmt.Errorf("profiler for %s: %w", spec.Name, err))
		}
	}
	return errors.Join(errs...)
}
