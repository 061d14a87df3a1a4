package sweep

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// Metrics that messaging families record once per scenario, read by node
// sweeps when present: how many nodes lead at least one of the load's
// streams or partitions, and how many streams or partitions the load
// writes.
const (
	leaderNodesMetric = "leader_nodes"
	partitionsMetric  = "load_partitions"
)

// measureLayout fills LeaderNodes and Partitions of p.
func measureLayout(p *Point, sc *metrics.ScenarioSnapshot) {
	if t := sc.Trends[leaderNodesMetric]; t != nil && t.Hist.TotalCount() > 0 {
		p.LeaderNodes = int(t.Hist.Max())
	}
	if t := sc.Trends[partitionsMetric]; t != nil && t.Hist.TotalCount() > 0 {
		p.Partitions = int(t.Hist.Max())
	}
}

// layoutVerdict overrides v when the setup, not the cluster, limited a
// node sweep: fewer streams or partitions than nodes, or fewer nodes
// leading them than nodes; fewer VUs than nodes is added to the reason.
// Points without the layout metrics (non-messaging families) leave v as
// it is.
func layoutVerdict(curve []Point, v Verdict) Verdict {
	var parts, clients []string
	for _, p := range curve {
		if p.Nodes <= 1 {
			continue
		}
		switch {
		case p.Partitions > 0 && p.Partitions < p.Nodes:
			parts = append(parts, fmt.Sprintf("%d node(s): %d stream(s)/partition(s)", p.Nodes, p.Partitions))
		case p.LeaderNodes > 0 && p.LeaderNodes < p.Nodes:
			parts = append(parts, fmt.Sprintf("%d node(s): %d lead the load", p.Nodes, p.LeaderNodes))
		}
		if p.VUs > 0 && int(p.VUs) < p.Nodes {
			clients = append(clients, fmt.Sprintf("%d node(s): %.0f VU(s)", p.Nodes, p.VUs))
		}
	}
	if len(parts) > 0 {
		v = Verdict{Side: SideUnknown, Reason: "the setup limits the curve, not the cluster: every write goes to the leaders of the load's streams or partitions, and there were fewer of them than nodes (" +
			strings.Join(parts, "; ") + "); give --streams (nats) or --partitions (kafka) ≥ the largest node count; " + v.Reason}
	}
	if len(clients) > 0 {
		v.Reason += "; fewer VUs than nodes (" + strings.Join(clients, "; ") +
			"): a VU waits for its own acknowledgements (a NATS VU is also one connection to one node), so fewer VUs than leaders can leave leaders waiting for work and the clients may limit the curve (give -u ≥ the largest node count)"
	}
	return v
}
