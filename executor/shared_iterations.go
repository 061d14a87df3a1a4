package executor

import (
	"fmt"
	"time"
)

// SharedIterationsConfig is k6's shared-iterations executor: VUs virtual
// users share Iterations iterations (closed model), within MaxDuration.
type SharedIterationsConfig struct {
	// VUs is the number of VUs (default 1); at most Iterations.
	VUs int64
	// Iterations is how many iterations all VUs run together (default 1).
	Iterations int64
	// MaxDuration bounds the run (default 10m).
	MaxDuration time.Duration
}

func sharedIterationsOf(c Config) SharedIterationsConfig {
	return SharedIterationsConfig{VUs: c.VUs, Iterations: c.Iterations, MaxDuration: c.MaxDuration}
}

// Name implements Executor.
func (SharedIterationsConfig) Name() string { return SharedIterations }

func (SharedIterationsConfig) fields() []string { return []string{"vus", "iterations", "maxDuration"} }

func (e SharedIterationsConfig) defaults() Executor {
	e.VUs, e.Iterations, e.MaxDuration = iterationDefaults(e.VUs, e.Iterations, e.MaxDuration)
	return e
}

func (e SharedIterationsConfig) store(c *Config) {
	c.VUs, c.Iterations, c.MaxDuration = e.VUs, e.Iterations, e.MaxDuration
}

// fromShortcuts: -u VUs share -i iterations within -d (default 10m); -i
// alone means that many iterations whatever the default VUs.
func (SharedIterationsConfig) fromShortcuts(s Shortcuts) (Executor, error) {
	if s.Iterations == 0 {
		return nil, fmt.Errorf("%s needs -i/--iterations", SharedIterations)
	}
	e := SharedIterationsConfig{VUs: s.VUs, Iterations: s.Iterations, MaxDuration: shortcutMaxDuration(s)}
	if !s.VUsSet && e.VUs > e.Iterations {
		e.VUs = e.Iterations
	}
	return e, nil
}

// Validate implements Executor.
func (e SharedIterationsConfig) Validate() error {
	var p problems
	if e.VUs < 1 || e.Iterations < 1 {
		p.bad("%s needs vus ≥ 1 and iterations ≥ 1", e.Name())
	}
	if e.Iterations < e.VUs {
		p.bad("shared-iterations: iterations (%d) must be ≥ vus (%d)", e.Iterations, e.VUs)
	}
	if e.MaxDuration <= 0 {
		p.bad("%s needs maxDuration > 0", e.Name())
	}
	return p.err()
}

// Describe implements Executor.
func (e SharedIterationsConfig) Describe() string {
	return fmt.Sprintf("%d iterations shared by %d VUs", e.Iterations, e.VUs)
}

// MaxVUsNeeded implements Executor.
func (e SharedIterationsConfig) MaxVUsNeeded() int64 { return e.VUs }

// TotalDuration implements Executor: maxDuration.
func (e SharedIterationsConfig) TotalDuration() time.Duration { return e.MaxDuration }

// FixedDuration implements Executor: none, the executor ends with its
// iterations.
func (SharedIterationsConfig) FixedDuration() time.Duration { return 0 }

// Closed implements Executor.
func (SharedIterationsConfig) Closed() bool { return true }

// Split implements Executor: the iterations and the VUs are split, and the
// segment's VUs are then clamped to [1, its iterations] so that it stays
// valid; this may move a VU between segments but never an iteration.
func (e SharedIterationsConfig) Split(share func(int64) int64) (Executor, bool) {
	part := e
	part.Iterations = share(e.Iterations)
	if part.Iterations == 0 {
		return part, false
	}
	part.VUs = min(max(share(e.VUs), 1), part.Iterations)
	return part, true
}
