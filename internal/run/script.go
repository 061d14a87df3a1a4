package run

import (
	"fmt"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/threshold"
)

// ScriptOptions are what a k6 script's options give a plan built from the
// command line: each scenario's executor, the thresholds, the summary's
// trend statistics and tags.
type ScriptOptions struct {
	// Configs are the executors of the plan's scenarios, in order.
	Configs []engine.Config
	// Thresholds are the script's and the command line's, all of them.
	Thresholds []threshold.Threshold
	// TrendStats are summaryTrendStats, parsed (nil: the plan's stay).
	TrendStats []string
	// Tags are the script's tags; the plan's (--tag) win.
	Tags map[string]string
}

// WithScript returns p with the script's options o: the executors
// (scaled to p's segment as built-in ones are), concurrent scenarios as
// in k6, the thresholds, trend statistics and tags.
func (p Plan) WithScript(o ScriptOptions) (Plan, error) {
	if len(o.Configs) != len(p.Scenarios) {
		return p, fmt.Errorf("script: %d executors for %d scenarios", len(o.Configs), len(p.Scenarios))
	}
	for i := range p.Scenarios {
		p.Scenarios[i].Config = o.Configs[i]
	}
	p, err := p.WithSegment(p.Segment)
	if err != nil {
		return p, err
	}
	p.Concurrent = len(p.Scenarios) > 1
	specs := make([]string, len(o.Thresholds))
	for i, t := range o.Thresholds {
		specs[i] = t.String()
	}
	if p.Thresholds, err = ParseThresholds(specs); err != nil {
		return p, err
	}
	if len(o.TrendStats) > 0 {
		p.TrendStats = o.TrendStats
	}
	if len(o.Tags) > 0 {
		tags := make(map[string]string, len(o.Tags)+len(p.Tags))
		for k, v := range o.Tags {
			tags[k] = v
		}
		for k, v := range p.Tags {
			tags[k] = v
		}
		p.Tags = tags
	}
	return p, nil
}
