// Package builtin offers scenarios that need no target: builtin.Noop
// measures the engine itself, builtin.Sleep holds idle VUs.
package builtin

import (
	"context"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/vu"
)

// Family is the "builtin" family.
type Family struct {
	opts Options
}

var (
	_ workload.Family     = (*Family)(nil)
	_ workload.FlagBinder = (*Family)(nil)
)

// New returns the builtin family with options opts (see DefaultOptions).
func New(opts Options) *Family { return &Family{opts: opts} }

// Name implements workload.Family.
func (*Family) Name() string { return "builtin" }

// Scenarios implements workload.Family.
func (*Family) Scenarios() []workload.Info {
	return []workload.Info{
		{Name: "builtin.Noop", Description: "an operation that does nothing, fully recorded: the engine's own cost"},
		{Name: "builtin.Sleep", Description: "each iteration sleeps --sleep: idle VUs, e.g. for memory per VU"},
	}
}

// Open implements workload.Family.
func (f *Family) Open(_ context.Context, env *workload.Env, names []string) (*workload.Opened, error) {
	if err := f.opts.Validate(); err != nil {
		return nil, err
	}
	o := &workload.Opened{Scenarios: map[string]vu.Scenario{}, Target: "builtin (no target)"}
	for _, n := range names {
		switch n {
		case "builtin.Noop":
			o.Scenarios[n] = noop{}
		case "builtin.Sleep":
			o.Scenarios[n] = sleeper{d: f.opts.Sleep}
		}
	}
	return o, nil
}

type noop struct{}

func (noop) NewVU(context.Context, int) (vu.VU, error) { return noop{}, nil }
func (noop) Close() error                              { return nil }

// Iterate records one empty operation: the full per-request recording path.
func (noop) Iterate(_ context.Context, it *vu.Iter) error {
	it.Request("noop", it.Start, driver.Result{})
	return nil
}

type sleeper struct{ d time.Duration }

func (s sleeper) NewVU(context.Context, int) (vu.VU, error) { return s, nil }
func (sleeper) Close() error                                { return nil }

// Iterate sleeps, interruptibly.
func (s sleeper) Iterate(ctx context.Context, it *vu.Iter) error {
	t := time.NewTimer(s.d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	it.Request("sleep", it.Start, driver.Result{})
	return nil
}
