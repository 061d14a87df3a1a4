package merge

import (
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// mergeMonitor writes the parts' target series (monitor.jsonl) into out,
// each watched source once, and records their sources in opts.
func mergeMonitor(dirs []string, out string, parts []*resultdir.Result, opts *resultdir.Options) error {
	for _, p := range parts {
		for _, m := range p.Options.Monitor {
			if !contains(opts.Monitor, m) {
				opts.Monitor = append(opts.Monitor, m)
			}
		}
		opts.NICSpeed = max(opts.NICSpeed, p.Options.NICSpeed)
	}
	_, err := monitor.Merge(dirs, out)
	return err
}
