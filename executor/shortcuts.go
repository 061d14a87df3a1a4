package executor

import (
	"fmt"
	"strings"
	"time"
)

// Shortcuts are the command-line options that stand for one executor, as
// k6's --vus, --duration, --iterations and --stage do, with stampede's
// --rate, --time-unit, --max-vus and --executor. A ...Set field tells
// that the user gave the option (its value may equal the default).
type Shortcuts struct {
	// Executor is the executor's name; "" picks one from the options given
	// (see Config).
	Executor string
	// VUs: constant and iteration executors' VUs, ramping-vus' startVUs,
	// arrival-rate executors' preAllocatedVUs.
	VUs    int64
	VUsSet bool
	// Duration: constant executors' duration, iteration executors'
	// maxDuration (10m unless set).
	Duration    time.Duration
	DurationSet bool
	// Iterations of the iteration executors; required there.
	Iterations    int64
	IterationsSet bool
	// Rate of constant-arrival-rate, per TimeUnit.
	Rate     int64
	RateSet  bool
	TimeUnit time.Duration
	// MaxVUs of arrival-rate executors; 0 means 4×VUs.
	MaxVUs int64
	// Stages of the ramping executors.
	Stages []Stage
	// GracefulStop and Warmup are common to all executors.
	GracefulStop, Warmup time.Duration
}

// Config returns the executor configuration (with defaults, validated) the
// shortcuts stand for. Without Executor: stages and a rate mean
// ramping-arrival-rate, stages ramping-vus, a rate constant-arrival-rate,
// iterations shared-iterations, and otherwise constant-vus. The rate and
// iterations are kept in the configuration even where the executor does
// not use them. Problems are joined on one line, separated by "; ".
func (s Shortcuts) Config() (Config, error) {
	name := s.Executor
	if name == "" {
		switch {
		case len(s.Stages) > 0 && s.RateSet:
			name = RampingArrivalRate
		case len(s.Stages) > 0:
			name = RampingVUs
		case s.RateSet:
			name = ConstantArrivalRate
		case s.IterationsSet:
			name = SharedIterations
		default:
			name = ConstantVUs
		}
	}
	c := Config{Executor: name, Iterations: s.Iterations, Rate: s.Rate, TimeUnit: s.TimeUnit,
		Stages: s.Stages, GracefulStop: s.GracefulStop, Warmup: s.Warmup}
	e, err := Of(c)
	if err != nil {
		return c, err
	}
	if e, err = e.fromShortcuts(s); err != nil {
		return c, err
	}
	c = c.With(e)
	if len(s.Stages) > 0 && !takes(e, "stages") {
		return c, fmt.Errorf("--stage only applies to ramping-vus and ramping-arrival-rate, not %s", name)
	}
	if s.RateSet && !takes(e, "rate") && !takes(e, "startRate") {
		return c, fmt.Errorf("--rate only applies to constant-arrival-rate and ramping-arrival-rate, not %s", name)
	}
	if s.MaxVUs != 0 && !takes(e, "maxVUs") {
		return c, fmt.Errorf("--max-vus only applies to constant-arrival-rate and ramping-arrival-rate, not %s", name)
	}
	c = c.Defaults()
	if err := c.ValidateInput(); err != nil {
		return c, fmt.Errorf("%s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return c, nil
}

// takes tells whether an executor has option field (YAML/JSON name).
func takes(e Executor, field string) bool {
	for _, f := range e.fields() {
		if f == field {
			return true
		}
	}
	return false
}

// arrivalShortcutVUs: -u VUs preallocated, --max-vus or 4×-u at most.
func arrivalShortcutVUs(s Shortcuts) arrivalVUs {
	b := arrivalVUs{Pre: s.VUs, Max: s.MaxVUs}
	if b.Max == 0 {
		b.Max = 4 * s.VUs
	}
	return b
}
