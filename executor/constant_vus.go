package executor

import (
	"fmt"
	"time"
)

// ConstantVUsConfig is k6's constant-vus executor: VUs virtual users loop
// (closed model) for Duration.
type ConstantVUsConfig struct {
	// VUs is the number of VUs (default 1).
	VUs int64
	// Duration is how long they loop; required.
	Duration time.Duration
}

func constantVUsOf(c Config) ConstantVUsConfig {
	return ConstantVUsConfig{VUs: c.VUs, Duration: c.Duration}
}

// Name implements Executor.
func (ConstantVUsConfig) Name() string { return ConstantVUs }

func (ConstantVUsConfig) fields() []string { return []string{"vus", "duration"} }

func (e ConstantVUsConfig) defaults() Executor {
	if e.VUs == 0 {
		e.VUs = 1
	}
	return e
}

func (e ConstantVUsConfig) store(c *Config) { c.VUs, c.Duration = e.VUs, e.Duration }

// fromShortcuts: -u VUs for -d.
func (ConstantVUsConfig) fromShortcuts(s Shortcuts) (Executor, error) {
	return ConstantVUsConfig{VUs: s.VUs, Duration: s.Duration}, nil
}

// Validate implements Executor.
func (e ConstantVUsConfig) Validate() error {
	var p problems
	if e.VUs < 1 {
		p.bad("%s needs vus ≥ 1", e.Name())
	}
	if e.Duration <= 0 {
		p.bad("%s needs a duration > 0", e.Name())
	}
	return p.err()
}

// Describe implements Executor.
func (e ConstantVUsConfig) Describe() string { return fmt.Sprintf("%d VUs for %s", e.VUs, e.Duration) }

// MaxVUsNeeded implements Executor.
func (e ConstantVUsConfig) MaxVUsNeeded() int64 { return e.VUs }

// TotalDuration implements Executor.
func (e ConstantVUsConfig) TotalDuration() time.Duration { return e.Duration }

// FixedDuration implements Executor.
func (e ConstantVUsConfig) FixedDuration() time.Duration { return e.Duration }

// Closed implements Executor.
func (ConstantVUsConfig) Closed() bool { return true }

// Split implements Executor: the VUs are split.
func (e ConstantVUsConfig) Split(share func(int64) int64) (Executor, bool) {
	e.VUs = share(e.VUs)
	return e, e.VUs > 0
}
