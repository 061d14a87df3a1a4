package run

import (
	"context"

	"github.com/stampede-bench/stampede/internal/monitor"
)

// probeEndpoints contacts, before the run, every --monitor endpoint and
// runs the Preflight of every output of the plan (an endpoint that must
// answer, a file that must be writable, a port that must be free): a
// failure is a usage error and the run does not start. Failures after the
// start are counted and noted in the summary.
func probeEndpoints(ctx context.Context, p Plan, deps Deps) error {
	if err := monitor.Probe(ctx, p.Monitors, nil); err != nil {
		if ctx.Err() != nil {
			return interrupted("interrupted while checking the --monitor endpoints")
		}
		return usagef("%v", err)
	}
	outs := deps.outputRegistry()
	params := deps.outputParams(p)
	for _, o := range p.Outputs {
		if err := checkOutputSpec(outs, o); err != nil {
			return err
		}
		f, _ := outs.Lookup(o.Kind)
		if f.Preflight == nil {
			continue
		}
		pp := params
		pp.Arg, pp.Options = o.Arg, o.Options
		if err := f.Preflight(ctx, pp); err != nil {
			if ctx.Err() != nil {
				return interrupted("interrupted while checking %s", f.Label(o.Arg))
			}
			return usagef("%s: %v", f.Label(o.Arg), err)
		}
	}
	return nil
}
