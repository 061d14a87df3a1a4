package executor

import (
	"fmt"
	"time"
)

// RampingArrivalRateConfig is k6's ramping-arrival-rate executor: the
// rate at which iterations start (open model) goes from StartRate linearly
// to each stage's target over the stage's duration; VUs as for
// constant-arrival-rate.
type RampingArrivalRateConfig struct {
	// StartRate is the rate per TimeUnit at the start (default 0).
	StartRate int64
	// Stages has at least one stage; targets are rates per TimeUnit.
	Stages []Stage
	// TimeUnit is the period of the rates (default 1s).
	TimeUnit time.Duration
	// PreAllocatedVUs (default 1) and MaxVUs (default PreAllocatedVUs).
	PreAllocatedVUs, MaxVUs int64
}

func rampingArrivalRateOf(c Config) RampingArrivalRateConfig {
	return RampingArrivalRateConfig{StartRate: c.StartRate, Stages: c.Stages, TimeUnit: c.TimeUnit,
		PreAllocatedVUs: c.PreAllocatedVUs, MaxVUs: c.MaxVUs}
}

// Name implements Executor.
func (RampingArrivalRateConfig) Name() string { return RampingArrivalRate }

func (RampingArrivalRateConfig) fields() []string {
	return []string{"startRate", "stages", "timeUnit", "preAllocatedVUs", "maxVUs"}
}

func (e RampingArrivalRateConfig) vus() arrivalVUs {
	return arrivalVUs{Pre: e.PreAllocatedVUs, Max: e.MaxVUs}
}

func (e RampingArrivalRateConfig) withVUs(b arrivalVUs) RampingArrivalRateConfig {
	e.PreAllocatedVUs, e.MaxVUs = b.Pre, b.Max
	return e
}

func (e RampingArrivalRateConfig) defaults() Executor {
	if e.TimeUnit == 0 {
		e.TimeUnit = time.Second
	}
	return e.withVUs(e.vus().defaults())
}

func (e RampingArrivalRateConfig) store(c *Config) {
	c.StartRate, c.Stages, c.TimeUnit = e.StartRate, e.Stages, e.TimeUnit
	c.PreAllocatedVUs, c.MaxVUs = e.PreAllocatedVUs, e.MaxVUs
}

// fromShortcuts: the stages' rates per --time-unit from 0, VUs as for
// constant-arrival-rate. --rate without stages is an error: the rates are
// the stage targets.
func (RampingArrivalRateConfig) fromShortcuts(s Shortcuts) (Executor, error) {
	if s.RateSet && len(s.Stages) == 0 {
		return nil, fmt.Errorf("%s needs --stage DURATION:RATE", RampingArrivalRate)
	}
	e := RampingArrivalRateConfig{Stages: s.Stages, TimeUnit: s.TimeUnit}
	return e.withVUs(arrivalShortcutVUs(s)), nil
}

// Validate implements Executor. (A time unit ≤ 0 is reported by
// Config.Validate, which checks it for every executor.)
func (e RampingArrivalRateConfig) Validate() error {
	var p problems
	if len(e.Stages) == 0 {
		p.bad("%s needs at least one stage", e.Name())
	}
	if e.StartRate < 0 {
		p.bad("startRate must not be negative")
	}
	checkStages(e.Stages, p.bad)
	e.vus().check(e.Name(), p.bad)
	return p.err()
}

// Describe implements Executor.
func (e RampingArrivalRateConfig) Describe() string {
	return fmt.Sprintf("ramping rate over %d stages, %s (VUs %d..%d)", len(e.Stages), e.TotalDuration(), e.PreAllocatedVUs, e.MaxVUs)
}

// MaxVUsNeeded implements Executor: maxVUs.
func (e RampingArrivalRateConfig) MaxVUsNeeded() int64 { return e.MaxVUs }

// TotalDuration implements Executor: the sum of the stages.
func (e RampingArrivalRateConfig) TotalDuration() time.Duration { return stagesDuration(e.Stages) }

// FixedDuration implements Executor.
func (e RampingArrivalRateConfig) FixedDuration() time.Duration { return e.TotalDuration() }

// Closed implements Executor: no, iterations start on a schedule.
func (RampingArrivalRateConfig) Closed() bool { return false }

// Split implements Executor: startRate and every stage target are split,
// and the VU bounds as for constant-arrival-rate.
func (e RampingArrivalRateConfig) Split(share func(int64) int64) (Executor, bool) {
	part := e
	part.StartRate = share(e.StartRate)
	part.Stages = shareStages(e.Stages, share)
	if stagesMax(part.StartRate, part.Stages) == 0 {
		return part, false
	}
	return part.withVUs(e.vus().split(share)), true
}
