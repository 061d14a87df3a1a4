package executor

import (
	"fmt"
	"time"
)

// Executor is one of k6's executors with its own options: it validates
// and describes itself, tells how many VUs and how long it needs, and
// splits itself for a segment of a distributed run (the engine schedules
// its iterations). There is one file per executor (constant_vus.go,
// ramping_vus.go, per_vu_iterations.go, shared_iterations.go,
// constant_arrival_rate.go, ramping_arrival_rate.go), and Of decodes a
// Config into its executor. Only this package's executors implement it.
//
// Options common to all executors (gracefulStop, warmup) stay in Config.
type Executor interface {
	// Name is the executor's k6 name, e.g. "constant-vus".
	Name() string
	// Validate reports every problem of the executor's own options (with
	// their defaults), joined; nil when it can run.
	Validate() error
	// Describe is a short human description, e.g. "50 VUs for 30s".
	Describe() string
	// MaxVUsNeeded is how many VUs the executor may use at most.
	MaxVUsNeeded() int64
	// TotalDuration is the longest the executor runs, without graceful stop:
	// its duration or stages, or maxDuration for iteration-based executors.
	TotalDuration() time.Duration
	// FixedDuration is how long the executor runs whatever the target
	// does: Duration for duration- and stage-based executors, 0 for
	// iteration-based ones, which end when their iterations are done.
	FixedDuration() time.Duration
	// Closed tells the closed model (VUs loop, each starting its next
	// iteration when the last one ends) from the open model (iterations
	// start on a schedule, arrival-rate executors).
	Closed() bool
	// Split returns the part of the executor that one segment of a
	// distributed run executes. share maps a whole count (VUs, iterations,
	// a rate) to the segment's share of it; the shares of all segments sum
	// to the whole. ok is false when the share is nothing (more segments
	// than VUs, iterations or rate): the segment then runs no VU.
	Split(share func(int64) int64) (part Executor, ok bool)

	// fields names the Config fields (their YAML/JSON names) the executor
	// reads, in addition to the common ones.
	fields() []string
	// fromShortcuts returns the executor the command-line shortcuts
	// stand for (the receiver is its zero value).
	fromShortcuts(s Shortcuts) (Executor, error)
	// defaults fills the executor's unset options with k6's defaults.
	defaults() Executor
	// store writes the executor's options into c, leaving other fields.
	store(c *Config)
}

// Of decodes the executor options of c (as given, without
// defaults: see Config.Defaults). The error names an unknown executor.
func Of(c Config) (Executor, error) {
	switch c.Executor {
	case ConstantVUs:
		return constantVUsOf(c), nil
	case RampingVUs:
		return rampingVUsOf(c), nil
	case PerVUIterations:
		return perVUIterationsOf(c), nil
	case SharedIterations:
		return sharedIterationsOf(c), nil
	case ConstantArrivalRate:
		return constantArrivalRateOf(c), nil
	case RampingArrivalRate:
		return rampingArrivalRateOf(c), nil
	}
	return nil, fmt.Errorf("unknown executor %q (known: %v)", c.Executor, Names())
}

// With returns c with the options of e (and its name as Executor); the
// common options of c are kept.
func (c Config) With(e Executor) Config {
	c.Executor = e.Name()
	e.store(&c)
	return c
}

// commonFields are the Config fields every executor accepts.
var commonFields = []string{"executor", "gracefulStop", "warmup"}

// CheckFields reports the first of keys (the YAML/JSON names of the options
// given for one scenario) that executor does not accept, naming it and the
// executor; an unknown executor is reported as such.
func CheckFields(executor string, keys []string) error {
	e, err := Of(Config{Executor: executor})
	if err != nil {
		return err
	}
	allowed := append(append([]string(nil), commonFields...), e.fields()...)
	for _, k := range keys {
		ok := false
		for _, a := range allowed {
			ok = ok || a == k
		}
		if !ok {
			return fmt.Errorf("%s has no option %q (its options: %v)", executor, k, allowed[1:])
		}
	}
	return nil
}

// shortUnit prints a time unit for a rate: "s" for a second.
func shortUnit(d time.Duration) string {
	if d == time.Second {
		return "s"
	}
	return d.String()
}

// stagesDuration is the total duration of stages.
func stagesDuration(stages []Stage) time.Duration {
	var d time.Duration
	for _, s := range stages {
		d += s.Duration
	}
	return d
}

// stagesMax is the highest of start and the stage targets.
func stagesMax(start int64, stages []Stage) int64 {
	m := start
	for _, s := range stages {
		m = max(m, s.Target)
	}
	return m
}

// shareStages returns stages with every target replaced by its share.
func shareStages(stages []Stage, share func(int64) int64) []Stage {
	if stages == nil {
		return nil
	}
	out := make([]Stage, len(stages))
	for i, s := range stages {
		out[i] = Stage{Duration: s.Duration, Target: share(s.Target)}
	}
	return out
}
