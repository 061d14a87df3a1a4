package executor

import (
	"fmt"
	"time"
)

// ConstantArrivalRateConfig is k6's constant-arrival-rate executor: Rate
// iterations start per TimeUnit (open model) for Duration, on free VUs of
// a pool that grows from PreAllocatedVUs to MaxVUs; an iteration that
// finds no free VU is dropped (dropped_iterations).
type ConstantArrivalRateConfig struct {
	// Rate is the number of iterations per TimeUnit; required.
	Rate int64
	// TimeUnit is the period of Rate (default 1s).
	TimeUnit time.Duration
	// Duration is how long iterations start; required.
	Duration time.Duration
	// PreAllocatedVUs (default 1) and MaxVUs (default PreAllocatedVUs).
	PreAllocatedVUs, MaxVUs int64
}

func constantArrivalRateOf(c Config) ConstantArrivalRateConfig {
	return ConstantArrivalRateConfig{Rate: c.Rate, TimeUnit: c.TimeUnit, Duration: c.Duration,
		PreAllocatedVUs: c.PreAllocatedVUs, MaxVUs: c.MaxVUs}
}

// Name implements Executor.
func (ConstantArrivalRateConfig) Name() string { return ConstantArrivalRate }

func (ConstantArrivalRateConfig) fields() []string {
	return []string{"rate", "timeUnit", "duration", "preAllocatedVUs", "maxVUs"}
}

func (e ConstantArrivalRateConfig) vus() arrivalVUs {
	return arrivalVUs{Pre: e.PreAllocatedVUs, Max: e.MaxVUs}
}

func (e ConstantArrivalRateConfig) withVUs(b arrivalVUs) ConstantArrivalRateConfig {
	e.PreAllocatedVUs, e.MaxVUs = b.Pre, b.Max
	return e
}

func (e ConstantArrivalRateConfig) defaults() Executor {
	if e.TimeUnit == 0 {
		e.TimeUnit = time.Second
	}
	return e.withVUs(e.vus().defaults())
}

func (e ConstantArrivalRateConfig) store(c *Config) {
	c.Rate, c.TimeUnit, c.Duration = e.Rate, e.TimeUnit, e.Duration
	c.PreAllocatedVUs, c.MaxVUs = e.PreAllocatedVUs, e.MaxVUs
}

// fromShortcuts: --rate per --time-unit for -d, -u VUs preallocated, at
// most --max-vus (default 4×-u).
func (ConstantArrivalRateConfig) fromShortcuts(s Shortcuts) (Executor, error) {
	e := ConstantArrivalRateConfig{Rate: s.Rate, TimeUnit: s.TimeUnit, Duration: s.Duration}
	return e.withVUs(arrivalShortcutVUs(s)), nil
}

// Validate implements Executor. (A time unit ≤ 0 is reported by
// Config.Validate, which checks it for every executor.)
func (e ConstantArrivalRateConfig) Validate() error {
	var p problems
	if e.Rate < 1 {
		p.bad("%s needs rate ≥ 1", e.Name())
	}
	if e.Duration <= 0 {
		p.bad("%s needs a duration > 0", e.Name())
	}
	e.vus().check(e.Name(), p.bad)
	return p.err()
}

// Describe implements Executor.
func (e ConstantArrivalRateConfig) Describe() string {
	return fmt.Sprintf("%d it/%s for %s (VUs %d..%d)", e.Rate, shortUnit(e.TimeUnit), e.Duration, e.PreAllocatedVUs, e.MaxVUs)
}

// MaxVUsNeeded implements Executor: maxVUs.
func (e ConstantArrivalRateConfig) MaxVUsNeeded() int64 { return e.MaxVUs }

// TotalDuration implements Executor.
func (e ConstantArrivalRateConfig) TotalDuration() time.Duration { return e.Duration }

// FixedDuration implements Executor.
func (e ConstantArrivalRateConfig) FixedDuration() time.Duration { return e.Duration }

// Closed implements Executor: no, iterations start on a schedule.
func (ConstantArrivalRateConfig) Closed() bool { return false }

// Split implements Executor: the rate is split (the shares of the integer
// rate add up to it exactly), and the VU bounds, with maxVUs at least 1.
func (e ConstantArrivalRateConfig) Split(share func(int64) int64) (Executor, bool) {
	part := e
	part.Rate = share(e.Rate)
	if part.Rate == 0 {
		return part, false
	}
	return part.withVUs(e.vus().split(share)), true
}
