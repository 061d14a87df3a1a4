package executor

import (
	"fmt"
	"time"
)

// PerVUIterationsConfig is k6's per-vu-iterations executor: each of VUs
// virtual users runs Iterations iterations (closed model), within
// MaxDuration.
type PerVUIterationsConfig struct {
	// VUs is the number of VUs (default 1).
	VUs int64
	// Iterations is how many iterations each VU runs (default 1).
	Iterations int64
	// MaxDuration bounds the run (default 10m).
	MaxDuration time.Duration
}

func perVUIterationsOf(c Config) PerVUIterationsConfig {
	return PerVUIterationsConfig{VUs: c.VUs, Iterations: c.Iterations, MaxDuration: c.MaxDuration}
}

// Name implements Executor.
func (PerVUIterationsConfig) Name() string { return PerVUIterations }

func (PerVUIterationsConfig) fields() []string { return []string{"vus", "iterations", "maxDuration"} }

func (e PerVUIterationsConfig) defaults() Executor {
	e.VUs, e.Iterations, e.MaxDuration = iterationDefaults(e.VUs, e.Iterations, e.MaxDuration)
	return e
}

func (e PerVUIterationsConfig) store(c *Config) {
	c.VUs, c.Iterations, c.MaxDuration = e.VUs, e.Iterations, e.MaxDuration
}

// fromShortcuts: -u VUs run -i iterations each, within -d (default 10m).
func (PerVUIterationsConfig) fromShortcuts(s Shortcuts) (Executor, error) {
	if s.Iterations == 0 {
		return nil, fmt.Errorf("%s needs -i/--iterations", PerVUIterations)
	}
	return PerVUIterationsConfig{VUs: s.VUs, Iterations: s.Iterations, MaxDuration: shortcutMaxDuration(s)}, nil
}

// shortcutMaxDuration is -d when given, else k6's 10 minutes.
func shortcutMaxDuration(s Shortcuts) time.Duration {
	if s.DurationSet {
		return s.Duration
	}
	return 10 * time.Minute
}

// Validate implements Executor.
func (e PerVUIterationsConfig) Validate() error {
	var p problems
	if e.VUs < 1 || e.Iterations < 1 {
		p.bad("%s needs vus ≥ 1 and iterations ≥ 1", e.Name())
	}
	if e.MaxDuration <= 0 {
		p.bad("%s needs maxDuration > 0", e.Name())
	}
	return p.err()
}

// Describe implements Executor.
func (e PerVUIterationsConfig) Describe() string {
	return fmt.Sprintf("%d VUs × %d iterations", e.VUs, e.Iterations)
}

// MaxVUsNeeded implements Executor.
func (e PerVUIterationsConfig) MaxVUsNeeded() int64 { return e.VUs }

// TotalDuration implements Executor: maxDuration.
func (e PerVUIterationsConfig) TotalDuration() time.Duration { return e.MaxDuration }

// FixedDuration implements Executor: none, the executor ends with its
// iterations.
func (PerVUIterationsConfig) FixedDuration() time.Duration { return 0 }

// Closed implements Executor.
func (PerVUIterationsConfig) Closed() bool { return true }

// Split implements Executor: the VUs are split, each keeps its iterations.
func (e PerVUIterationsConfig) Split(share func(int64) int64) (Executor, bool) {
	e.VUs = share(e.VUs)
	return e, e.VUs > 0
}

// iterationDefaults are k6's defaults of the iteration-based executors:
// 1 VU, 1 iteration, at most 10 minutes.
func iterationDefaults(vus, iterations int64, maxDuration time.Duration) (int64, int64, time.Duration) {
	if vus == 0 {
		vus = 1
	}
	if iterations == 0 {
		iterations = 1
	}
	if maxDuration == 0 {
		maxDuration = 10 * time.Minute
	}
	return vus, iterations, maxDuration
}
