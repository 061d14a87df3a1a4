package sweep

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// Metrics of messaging families that node sweeps read when present: the
// acknowledged messages counter and the embedded servers' CPU (per cent
// of the machine's cores, sampled every second).
const (
	messagesMetric  = "messages"
	serverCPUMetric = "server_cpu"
)

// measureMessaging fills MsgRate and ServerCPU of p from a scenario that
// counts messages (an async publish iteration is many messages, so
// throughput in it/s would undercount TPS).
func measureMessaging(p *Point, sc *metrics.ScenarioSnapshot) {
	if n := sc.Counters[messagesMetric]; n > 0 && p.Seconds > 0 {
		p.MsgRate = float64(n) / p.Seconds
	}
	if t := sc.Trends[serverCPUMetric]; t != nil && t.Hist.TotalCount() > 0 {
		p.ServerCPU, p.ServersMeasured = t.Hist.Mean()/100, true
	}
}

// rate is the throughput a node sweep scales: msgs/s when the scenario
// counts messages, it/s otherwise.
func rate(p Point) float64 {
	if p.MsgRate > 0 {
		return p.MsgRate
	}
	return p.Throughput
}

// rateUnit names rate's unit for a curve.
func rateUnit(curve []Point) string {
	if len(curve) > 0 && curve[0].MsgRate > 0 {
		return "msgs/s"
	}
	return "it/s"
}

// serversMeasured tells whether the curve has the servers' CPU: the
// cluster ran on this machine, as stampede's embedded cluster does.
func serversMeasured(curve []Point) bool {
	for _, p := range curve {
		if p.ServersMeasured {
			return true
		}
	}
	return false
}

// clientBroker is the client:broker ratio of a step: generator processes
// (one) and VUs per node.
func clientBroker(p Point) string {
	if p.Nodes <= 0 {
		return "-"
	}
	return fmt.Sprintf("1:%d, %.1f VU/node", p.Nodes, p.VUs/float64(p.Nodes))
}

// busyShare is the share of the machine's cores that counts as busy for
// the shared-machine verdict.
const busyShare = 0.85

// sharedMachineVerdict decides a node sweep whose servers ran on this
// machine from the CPU of both sides, and always says that the nodes
// share the machine's cores. It returns false when the servers' CPU is
// unknown.
func sharedMachineVerdict(curve []Point, v Verdict) (Verdict, bool) {
	if !serversMeasured(curve) {
		return v, false
	}
	var parts []string
	worst := -1.0
	at := 0
	for i, p := range curve {
		gen := max(p.GeneratorCPU, 0)
		srv := p.ServerCPU
		parts = append(parts, fmt.Sprintf("%d node(s): servers %.0f%%, generator %.0f%%", p.Nodes, 100*srv, 100*gen))
		if gen+srv > worst {
			worst, at = gen+srv, i
		}
	}
	p := curve[at]
	gen, srv := max(p.GeneratorCPU, 0), p.ServerCPU
	caveat := "all nodes share this machine's cores, so per-node figures here show the method, not a cluster's capacity"
	cpu := "CPU of this machine's cores — " + strings.Join(parts, "; ")
	switch {
	case gen+srv >= busyShare:
		side := SideTarget
		if gen > srv {
			side = SideClient
		}
		return Verdict{Side: side, Reason: fmt.Sprintf(
			"the machine's cores are the limit: at %d node(s) the servers used %.0f%% and the generator %.0f%% of them, and more nodes only split the same cores (%s); %s",
			p.Nodes, 100*srv, 100*gen, cpu, caveat)}, true
	case p.GeneratorSaturated:
		return Verdict{Side: SideClient, Reason: fmt.Sprintf("client saturated first: the generator was busy (%s); %s", cpu, caveat)}, true
	case srv >= busyShare/2 && srv > gen:
		return Verdict{Side: SideTarget, Reason: fmt.Sprintf("the servers did most of the work (%s): replication and storage cost, not the client, shape the curve; %s", cpu, caveat)}, true
	}
	return Verdict{Side: v.Side, Reason: v.Reason + "; " + cpu + "; " + caveat}, true
}
