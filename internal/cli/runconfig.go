package cli

import (
	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/runconfig"
)

// applyEnv sets every flag the user did not give from STAMPEDE_<NAME>
// (upper case, dashes as underscores), e.g. STAMPEDE_VUS=100.
func applyEnv(fs *pflag.FlagSet, getenv func(string) string) error {
	return runconfig.ApplyEnv(fs, getenv, "STAMPEDE_", nil)
}

// parseStage is engine.ParseStage, a usage error when bad.
func parseStage(s string) (engine.Stage, error) {
	st, err := executor.ParseStage(s)
	return st, asUsage(err)
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
