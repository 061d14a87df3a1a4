package cli

import (
	"regexp"
	"strings"

	"github.com/stampede-bench/stampede/internal/analysis/sweep"
	runsweep "github.com/stampede-bench/stampede/internal/run/sweep"
)

// splitTargets splits --targets on whitespace, which no URL contains
// (a space in a URL is %20), so that multi-broker URLs such as
// kafka://b1:9092,b2:9092 stay whole. A list that looks comma-separated
// (",scheme://" inside one item) is refused with the new spelling.
func splitTargets(list string) ([]string, error) {
	out := strings.Fields(list)
	for _, t := range out {
		if m := commaURL.FindStringIndex(t); m != nil {
			return nil, usagef("--targets %q: separate target URLs with spaces (commas belong to multi-broker URLs), e.g. --targets '%s %s'", t, t[:m[0]], t[m[0]+1:])
		}
	}
	return out, nil
}

// commaURL finds a comma followed by a URL scheme.
var commaURL = regexp.MustCompile(`,[a-zA-Z][a-zA-Z0-9+.-]*://`)

// refuseStandInNodes refuses a node sweep of kafka scenarios on the
// embedded cluster (no --target, no --targets): kfake is one process
// whatever --brokers says, so the curve would be an artefact.
func refuseStandInNodes(steps []runsweep.Step, targetGiven bool, scenarios []string) error {
	if len(steps) == 0 || steps[0].Dim != sweep.DimNodes || targetGiven || steps[0].Target != "" {
		return nil
	}
	for _, s := range scenarios {
		if strings.HasPrefix(s, "kafka.") {
			return usagef("--nodes with %s on the embedded Kafka cluster measures nothing about scaling: kfake is one process that serves every broker and replicates nothing. Sweep a real cluster (--targets 'kafka://… kafka://…' or --target with --before-step), or use the nats family, whose embedded cluster is real replicated nats-server nodes", s)
		}
	}
	return nil
}
