package graph

import (
	"context"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/redact"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

var (
	_ workload.Preflighter  = (*Family)(nil)
	_ workload.MetricLister = (*Family)(nil)
)

// Preflight implements workload.Preflighter: before any data is generated
// it checks the options, that the target is one graph scenarios can run
// on, that it accepts a connection with the given credentials, and that a
// --data directory holds a data set (stampede never generates into a
// directory the user named).
func (f *Family) Preflight(ctx context.Context, env *workload.Env, _ []string) error {
	f.Scenarios()
	if err := f.validate(); err != nil {
		return err
	}
	if err := f.checkUserData(); err != nil {
		return err
	}
	if env.Target == "" {
		return nil
	}
	u, _, err := f.parseTarget(env.Target)
	if err != nil {
		return err
	}
	drv, err := f.drivers.Open(ctx, u, driver.Options{PoolSize: 1, Timeout: env.Timeout, Getenv: env.Getenv})
	if err != nil {
		return usage.Errorf("cannot open target %s: %v", redact.URL(env.Target), err)
	}
	return drv.Close()
}

// checkUserData refuses a --data directory without a data set in it.
func (f *Family) checkUserData() error {
	if f.opts.Data == "" {
		return nil
	}
	if _, err := ldbcfile.Parts(f.opts.Data, ldbcfile.PersonPath); err != nil {
		return usage.Errorf("--data %s holds no LDBC data set (no %s); generate one with stampede gen ldbc --out %s, or leave --data out to use one generated under --data-dir", f.opts.Data, ldbcfile.PersonPath, f.opts.Data)
	}
	if err := datagen.Complete(f.opts.Data); err != nil {
		return usage.Errorf("--data: %v: generate it again (stampede gen ldbc --force --out %s)", err, f.opts.Data)
	}
	return nil
}

// MetricDefs implements workload.MetricLister: the answer and write checks
// when --check-sample is on.
func (f *Family) MetricDefs([]string) []metrics.Def {
	if f.opts.CheckSample <= 0 {
		return nil
	}
	return []metrics.Def{metrics.CheckMetric(CheckAnswer), metrics.CheckMetric(CheckWrite)}
}
