package run

import (
	"context"

	"github.com/stampede-bench/stampede/internal/monitor"
)

// probeEndpoints contacts, before the run, every --monitor endpoint and
// every live output whose factory has a Probe (InfluxDB): unreachable, or
// not speaking the expected format (an HTML page for node_exporter), is a
// usage error and the run does not start. Failures after the start are
// counted and noted in the summary.
func probeEndpoints(ctx context.Context, p Plan, deps Deps) error {
	if err := monitor.Probe(ctx, p.Monitors, nil); err != nil {
		if ctx.Err() != nil {
			return interrupted("interrupted while checking the --monitor endpoints")
		}
		return usagef("%v", err)
	}
	outs := deps.outputRegistry()
	for _, o := range p.Outputs {
		f, ok := outs.Lookup(o.Kind)
		if !ok || f.Probe == nil {
			continue
		}
		if err := f.Probe(ctx, o.Arg); err != nil {
			if ctx.Err() != nil {
				return interrupted("interrupted while checking --out %s", f.Name)
			}
			return usagef("--out %s: %v", f.Name, err)
		}
	}
	return nil
}
