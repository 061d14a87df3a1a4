package cli

import (
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/runconfig"
)

// applyEnv sets every flag the user did not give from STAMPEDE_<NAME>
// (upper case, dashes as underscores), e.g. STAMPEDE_VUS=100.
func applyEnv(fs *pflag.FlagSet, getenv func(string) string) error {
	var err error
	fs.VisitAll(func(fl *pflag.Flag) {
		if fl.Changed || err != nil {
			return
		}
		key := "STAMPEDE_" + strings.ToUpper(strings.ReplaceAll(fl.Name, "-", "_"))
		if v := getenv(key); v != "" {
			if serr := fs.Set(fl.Name, v); serr != nil {
				err = usagef("%s=%q: %v", key, v, serr)
			}
		}
	})
	return err
}

// applyEnvExcept is applyEnv for the flags of fs not named in skip.
func applyEnvExcept(fs *pflag.FlagSet, getenv func(string) string, skip map[string]bool) error {
	sub := pflag.NewFlagSet(fs.Name(), pflag.ContinueOnError)
	fs.VisitAll(func(fl *pflag.Flag) {
		if !skip[fl.Name] {
			sub.AddFlag(fl)
		}
	})
	return applyEnv(sub, getenv)
}

// parseStage parses DURATION:TARGET, e.g. 30s:100.
func parseStage(s string) (engine.Stage, error) {
	d, t, ok := strings.Cut(s, ":")
	if !ok {
		return engine.Stage{}, usagef("bad stage %q: want DURATION:TARGET, e.g. 30s:100", s)
	}
	dur, err := time.ParseDuration(strings.TrimSpace(d))
	if err != nil || dur < 0 {
		return engine.Stage{}, usagef("bad stage %q: duration %q is not a duration like 30s", s, d)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n < 0 {
		return engine.Stage{}, usagef("bad stage %q: target %q is not a count ≥ 0", s, t)
	}
	return engine.Stage{Duration: dur, Target: n}, nil
}

// executorFromFlags builds the executor configuration the flags describe.
// changed tells which flags the user set.
func executorFromFlags(f *runFlags, changed func(string) bool) (engine.Config, error) {
	if err := checkExecutorFlags(f, changed); err != nil {
		return engine.Config{}, err
	}
	var stages []engine.Stage
	for _, s := range f.stages {
		st, err := parseStage(s)
		if err != nil {
			return engine.Config{}, err
		}
		stages = append(stages, st)
	}
	c, err := engine.Shortcuts{
		Executor: f.executor, VUs: f.vus, VUsSet: changed("vus"),
		Duration: f.duration, DurationSet: changed("duration"),
		Iterations: f.iterations, IterationsSet: changed("iterations"),
		Rate: f.rate, RateSet: changed("rate"), TimeUnit: f.timeUnit, MaxVUs: f.maxVUs,
		Stages: stages, GracefulStop: f.gracefulStp, Warmup: f.warmup,
	}.Config()
	if err != nil {
		return c, usagef("%v", err)
	}
	return c, nil
}

// executorFlagsChanged reports whether any executor flag was given.
func executorFlagsChanged(changed func(string) bool) bool {
	for _, n := range []string{"vus", "duration", "iterations", "rate", "time-unit", "max-vus", "stage", "executor"} {
		if changed(n) {
			return true
		}
	}
	return false
}

// scenarioConfig returns scenario name's executor: the config file's, or
// the flags' when the file has none for it or executor flags were given.
func scenarioConfig(name string, fromFlags engine.Config, fc *runconfig.File, changed func(string) bool) (engine.Config, error) {
	return fc.Scenario(name, fromFlags, executorFlagsChanged(changed))
}
