package executor

import (
	"fmt"
	"time"
)

// RampingVUsConfig is k6's ramping-vus executor: the number of looping VUs
// (closed model) goes from StartVUs linearly to each stage's target over
// the stage's duration.
type RampingVUsConfig struct {
	// StartVUs is the number of VUs at the start (default 0).
	StartVUs int64
	// Stages has at least one stage; targets are VUs.
	Stages []Stage
}

func rampingVUsOf(c Config) RampingVUsConfig {
	return RampingVUsConfig{StartVUs: c.StartVUs, Stages: c.Stages}
}

// Name implements Executor.
func (RampingVUsConfig) Name() string { return RampingVUs }

func (RampingVUsConfig) fields() []string { return []string{"startVUs", "stages"} }

func (e RampingVUsConfig) defaults() Executor { return e }

func (e RampingVUsConfig) store(c *Config) { c.StartVUs, c.Stages = e.StartVUs, e.Stages }

// fromShortcuts: the stages, from -u VUs when given (else 0).
func (RampingVUsConfig) fromShortcuts(s Shortcuts) (Executor, error) {
	e := RampingVUsConfig{Stages: s.Stages}
	if s.VUsSet {
		e.StartVUs = s.VUs
	}
	return e, nil
}

// Validate implements Executor.
func (e RampingVUsConfig) Validate() error {
	var p problems
	if len(e.Stages) == 0 {
		p.bad("%s needs at least one stage", e.Name())
	}
	if e.StartVUs < 0 {
		p.bad("startVUs must not be negative")
	}
	checkStages(e.Stages, p.bad)
	return p.err()
}

// Describe implements Executor.
func (e RampingVUsConfig) Describe() string {
	return fmt.Sprintf("ramping VUs over %d stages, %s", len(e.Stages), e.TotalDuration())
}

// MaxVUsNeeded implements Executor: the highest of startVUs and the
// stage targets.
func (e RampingVUsConfig) MaxVUsNeeded() int64 { return stagesMax(e.StartVUs, e.Stages) }

// TotalDuration implements Executor: the sum of the stages.
func (e RampingVUsConfig) TotalDuration() time.Duration { return stagesDuration(e.Stages) }

// FixedDuration implements Executor.
func (e RampingVUsConfig) FixedDuration() time.Duration { return e.TotalDuration() }

// Closed implements Executor.
func (RampingVUsConfig) Closed() bool { return true }

// Split implements Executor: startVUs and every stage target are split.
func (e RampingVUsConfig) Split(share func(int64) int64) (Executor, bool) {
	e.StartVUs = share(e.StartVUs)
	e.Stages = shareStages(e.Stages, share)
	return e, e.MaxVUsNeeded() > 0
}
