package engine

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Executor names, as in k6.
const (
	ConstantVUs         = "constant-vus"
	RampingVUs          = "ramping-vus"
	PerVUIterations     = "per-vu-iterations"
	SharedIterations    = "shared-iterations"
	ConstantArrivalRate = "constant-arrival-rate"
	RampingArrivalRate  = "ramping-arrival-rate"
)

// ExecutorNames lists the supported executors.
var ExecutorNames = []string{ConstantVUs, RampingVUs, PerVUIterations, SharedIterations, ConstantArrivalRate, RampingArrivalRate}

// Stage is one step of a ramping executor: reach Target (VUs, or
// iterations per TimeUnit) linearly over Duration.
type Stage struct {
	Duration time.Duration `yaml:"duration" json:"duration"`
	Target   int64         `yaml:"target" json:"target"`
}

// Config is one scenario's executor configuration, with k6's option names
// and defaults.
type Config struct {
	Executor string `yaml:"executor" json:"executor"`
	// VUs for constant-vus, per-vu-iterations and shared-iterations (default 1).
	VUs int64 `yaml:"vus" json:"vus,omitempty"`
	// Iterations per VU (per-vu-iterations) or in total (shared-iterations); default 1.
	Iterations int64 `yaml:"iterations" json:"iterations,omitempty"`
	// Duration of constant-vus and constant-arrival-rate.
	Duration time.Duration `yaml:"duration" json:"duration,omitempty"`
	// MaxDuration bounds the iteration-based executors (default 10m).
	MaxDuration time.Duration `yaml:"maxDuration" json:"maxDuration,omitempty"`
	// StartVUs and Stages drive ramping-vus; StartRate and Stages drive
	// ramping-arrival-rate.
	StartVUs  int64   `yaml:"startVUs" json:"startVUs,omitempty"`
	StartRate int64   `yaml:"startRate" json:"startRate,omitempty"`
	Stages    []Stage `yaml:"stages" json:"stages,omitempty"`
	// Rate iterations per TimeUnit (default 1s) for constant-arrival-rate.
	Rate     int64         `yaml:"rate" json:"rate,omitempty"`
	TimeUnit time.Duration `yaml:"timeUnit" json:"timeUnit,omitempty"`
	// PreAllocatedVUs and MaxVUs bound the VUs of arrival-rate executors.
	PreAllocatedVUs int64 `yaml:"preAllocatedVUs" json:"preAllocatedVUs,omitempty"`
	MaxVUs          int64 `yaml:"maxVUs" json:"maxVUs,omitempty"`
	// GracefulStop is how long iterations in progress at the end may take
	// before they are interrupted (default 30s, as k6).
	GracefulStop time.Duration `yaml:"gracefulStop" json:"gracefulStop,omitempty"`
	// Warmup is excluded from all statistics (default 0).
	Warmup time.Duration `yaml:"warmup" json:"warmup,omitempty"`
}

// Defaults fills zero fields with k6's defaults.
func (c Config) Defaults() Config {
	if c.Executor == "" {
		c.Executor = ConstantVUs
	}
	if c.GracefulStop == 0 {
		c.GracefulStop = 30 * time.Second
	}
	if c.TimeUnit == 0 {
		c.TimeUnit = time.Second
	}
	switch c.Executor {
	case ConstantVUs, PerVUIterations, SharedIterations:
		if c.VUs == 0 {
			c.VUs = 1
		}
	}
	switch c.Executor {
	case PerVUIterations, SharedIterations:
		if c.Iterations == 0 {
			c.Iterations = 1
		}
		if c.MaxDuration == 0 {
			c.MaxDuration = 10 * time.Minute
		}
	case ConstantArrivalRate, RampingArrivalRate:
		if c.PreAllocatedVUs == 0 {
			c.PreAllocatedVUs = 1
		}
		if c.MaxVUs == 0 {
			c.MaxVUs = c.PreAllocatedVUs
		}
	}
	return c
}

// Validate reports the first problem with c, which must have its defaults.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.GracefulStop < 0 || c.Warmup < 0 {
		bad("gracefulStop and warmup must not be negative")
	}
	switch c.Executor {
	case ConstantVUs:
		if c.VUs < 1 {
			bad("%s needs vus ≥ 1", c.Executor)
		}
		if c.Duration <= 0 {
			bad("%s needs a duration > 0", c.Executor)
		}
	case RampingVUs:
		if len(c.Stages) == 0 {
			bad("%s needs at least one stage", c.Executor)
		}
		if c.StartVUs < 0 {
			bad("startVUs must not be negative")
		}
		checkStages(c.Stages, bad)
	case PerVUIterations, SharedIterations:
		if c.VUs < 1 || c.Iterations < 1 {
			bad("%s needs vus ≥ 1 and iterations ≥ 1", c.Executor)
		}
		if c.Executor == SharedIterations && c.Iterations < c.VUs {
			bad("shared-iterations: iterations (%d) must be ≥ vus (%d)", c.Iterations, c.VUs)
		}
		if c.MaxDuration <= 0 {
			bad("%s needs maxDuration > 0", c.Executor)
		}
	case ConstantArrivalRate:
		if c.Rate < 1 {
			bad("%s needs rate ≥ 1", c.Executor)
		}
		if c.Duration <= 0 {
			bad("%s needs a duration > 0", c.Executor)
		}
		checkVUBounds(c, bad)
	case RampingArrivalRate:
		if len(c.Stages) == 0 {
			bad("%s needs at least one stage", c.Executor)
		}
		if c.StartRate < 0 {
			bad("startRate must not be negative")
		}
		checkStages(c.Stages, bad)
		checkVUBounds(c, bad)
	default:
		bad("unknown executor %q (known: %v)", c.Executor, ExecutorNames)
	}
	if c.TimeUnit <= 0 {
		bad("timeUnit must be > 0")
	}
	if total := c.TotalDuration(); c.Warmup > 0 && total > 0 && c.Warmup >= total {
		bad("warmup (%s) must be shorter than the duration (%s): nothing would be measured", c.Warmup, total)
	}
	return errors.Join(errs...)
}

func checkStages(stages []Stage, bad func(string, ...any)) {
	var total time.Duration
	for i, s := range stages {
		if s.Duration < 0 || s.Target < 0 {
			bad("stage %d: duration and target must not be negative", i+1)
		} else if total+s.Duration < total {
			bad("stage %d: the stages last longer than %s in all", i+1, time.Duration(math.MaxInt64))
			return
		}
		total += s.Duration
	}
}

func checkVUBounds(c Config, bad func(string, ...any)) {
	if c.PreAllocatedVUs < 0 || c.MaxVUs < 1 {
		bad("%s needs preAllocatedVUs ≥ 0 and maxVUs ≥ 1", c.Executor)
	}
	if c.MaxVUs < c.PreAllocatedVUs {
		bad("%s: maxVUs (%d) must be ≥ preAllocatedVUs (%d)", c.Executor, c.MaxVUs, c.PreAllocatedVUs)
	}
}

// TotalDuration is the longest the executor runs, without graceful stop.
func (c Config) TotalDuration() time.Duration {
	switch c.Executor {
	case ConstantVUs, ConstantArrivalRate:
		return c.Duration
	case RampingVUs, RampingArrivalRate:
		var d time.Duration
		for _, s := range c.Stages {
			d += s.Duration
		}
		return d
	default:
		return c.MaxDuration
	}
}

// MaxVUsNeeded is how many VUs the executor may use at most.
func (c Config) MaxVUsNeeded() int64 {
	switch c.Executor {
	case RampingVUs:
		m := c.StartVUs
		for _, s := range c.Stages {
			m = max(m, s.Target)
		}
		return m
	case ConstantArrivalRate, RampingArrivalRate:
		return c.MaxVUs
	default:
		return c.VUs
	}
}
