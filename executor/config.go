package executor

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
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

// Names lists the supported executors, in k6's order.
func Names() []string {
	return []string{ConstantVUs, RampingVUs, PerVUIterations, SharedIterations, ConstantArrivalRate, RampingArrivalRate}
}

// Stage is one step of a ramping executor: reach Target (VUs, or
// iterations per TimeUnit) linearly over Duration.
type Stage struct {
	Duration time.Duration `yaml:"duration" json:"duration"`
	Target   int64         `yaml:"target" json:"target"`
}

// ParseStage parses a stage of --stage: DURATION:TARGET, e.g. 30s:100.
func ParseStage(s string) (Stage, error) {
	d, t, ok := strings.Cut(s, ":")
	if !ok {
		return Stage{}, fmt.Errorf("bad stage %q: want DURATION:TARGET, e.g. 30s:100", s)
	}
	dur, err := time.ParseDuration(strings.TrimSpace(d))
	if err != nil || dur < 0 {
		return Stage{}, fmt.Errorf("bad stage %q: duration %q is not a duration like 30s", s, d)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n < 0 {
		return Stage{}, fmt.Errorf("bad stage %q: target %q is not a count ≥ 0", s, t)
	}
	return Stage{Duration: dur, Target: n}, nil
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

// Defaults fills zero fields with k6's defaults: those common to all
// executors, then the executor's own (an unknown executor gets only the
// common ones; Validate reports it).
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
	if e, err := Of(c); err == nil {
		e.defaults().store(&c)
	}
	return c
}

// Validate reports every problem with c, which must have its defaults.
func (c Config) Validate() error {
	var p problems
	if c.GracefulStop < 0 || c.Warmup < 0 {
		p.bad("gracefulStop and warmup must not be negative")
	}
	if e, err := Of(c); err != nil {
		p = append(p, err)
	} else if err := e.Validate(); err != nil {
		p = append(p, err)
	}
	if c.TimeUnit <= 0 {
		p.bad("timeUnit must be > 0")
	}
	c.checkLimits(p.bad)
	if total := c.TotalDuration(); c.Warmup > 0 && total > 0 && c.Warmup >= total {
		p.bad("warmup (%s) must be shorter than the duration (%s): nothing would be measured", c.Warmup, total)
	}
	return errors.Join(p...)
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

// ValidateInput is Validate for a configuration a user wrote (flags or a
// config file): it also refuses stages that last 0s in all, which run
// nothing. Configurations stampede derives itself may do that on purpose:
// the idle part of a segment (segment.Idle) of an iteration-based scenario
// takes no time.
func (c Config) ValidateInput() error {
	err := c.Validate()
	if len(c.Stages) > 0 && (c.Executor == RampingVUs || c.Executor == RampingArrivalRate) {
		var total time.Duration
		negative := false
		for _, s := range c.Stages {
			total += s.Duration
			negative = negative || s.Duration < 0 || s.Target < 0
		}
		if total == 0 && !negative {
			err = errors.Join(err, errors.New("the stages last 0s in all: nothing would run"))
		}
	}
	return err
}

// TotalDuration is the longest the executor runs, without graceful stop
// (Executor.TotalDuration; maxDuration for an unknown executor).
func (c Config) TotalDuration() time.Duration {
	if e, err := Of(c); err == nil {
		return e.TotalDuration()
	}
	return c.MaxDuration
}

// MaxVUsNeeded is how many VUs the executor may use at most
// (Executor.MaxVUsNeeded; vus for an unknown executor).
func (c Config) MaxVUsNeeded() int64 {
	if e, err := Of(c); err == nil {
		return e.MaxVUsNeeded()
	}
	return c.VUs
}

// Describe is a short human description of the executor, e.g. "50 VUs for
// 30s" (Executor.Describe; the executor's name when it is unknown).
func (c Config) Describe() string {
	if e, err := Of(c); err == nil {
		return e.Describe()
	}
	return c.Executor
}

// problems collects validation errors.
type problems []error

func (p *problems) bad(format string, args ...any) { *p = append(*p, fmt.Errorf(format, args...)) }

// err joins the problems; nil when there are none.
func (p problems) err() error { return errors.Join(p...) }
