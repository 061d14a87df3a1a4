package sweep

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// Target is what --monitor measured on the target during one step's
// scenario: the busiest source's CPU and network.
type Target struct {
	// Source is the source with the highest CPU utilisation; Local is set
	// when it runs on the generator's machine (loopback, pid=).
	Source string `json:"source"`
	Local  bool   `json:"local,omitempty"`
	// Host is set when Source measured a whole host (node_exporter), not
	// processes.
	Host bool `json:"host,omitempty"`
	// CPU and CPUMax are its utilisation (mean over the scenario and the
	// highest second, 0–1) of Cores cores.
	CPU    float64 `json:"cpu"`
	CPUMax float64 `json:"cpuMax"`
	Cores  float64 `json:"cores,omitempty"`
	// Saturated: its CPU was above monitor.Threshold in a fifth of the
	// seconds or more (any source's, then Source is that one).
	Saturated bool `json:"saturated,omitempty"`
	// NICBound names the interface of a source that ran above
	// monitor.NICThreshold of its link speed ("node: eth0 at 118 MB/s of
	// 1 Gbit/s"), "" when none did.
	NICBound string `json:"nicBound,omitempty"`
	// NetPeak is the busiest interface's busiest second, bytes/s, of any
	// source.
	NetPeak float64 `json:"netPeak,omitempty"`
}

// AddTarget fills the Target of each point of one step from the step's
// monitor series (dir/monitor.jsonl), when it has one.
func AddTarget(points []Point, r *resultdir.Result) error {
	var wins []monitor.Window
	for _, p := range points {
		sc := r.Snapshot.Scenario(p.Scenario)
		if sc == nil {
			wins = append(wins, monitor.Window{})
			continue
		}
		wins = append(wins, monitor.Window{From: sc.Start.Add(sc.Warmup), To: sc.End})
	}
	all, err := monitor.Summarize(r.Dir, wins, monitor.SummarizeOptions{NICSpeed: r.Options.NICSpeed})
	if err != nil || all == nil {
		return err
	}
	local := map[string]bool{}
	for _, m := range r.Options.Monitor {
		if id, _, ok := strings.Cut(m, "="); ok && monitor.IsLocalEndpoint(m) {
			local[id] = true
		}
	}
	for i := range points {
		points[i].Target = targetOf(all[i], local)
	}
	return nil
}

func targetOf(sts []monitor.Stats, local map[string]bool) *Target {
	// A local host's CPU counts the generator too: when a process source
	// (pid=, process-exporter) watches the target, its figures decide.
	procs := false
	for _, st := range sts {
		procs = procs || (st.Samples > 0 && st.Proc && !st.Host && st.Cores > 0)
	}
	var t *Target
	for _, st := range sts {
		if st.Samples == 0 || !(st.Host || st.Cores > 0) || (procs && st.Host && local[st.Source]) {
			continue
		}
		better := t == nil || (st.Saturated() && !t.Saturated) || (st.Saturated() == t.Saturated && st.CPUMax > t.CPUMax)
		if better {
			nt := Target{Source: st.Source, Local: local[st.Source], Host: st.Host, CPU: st.CPUAvg, CPUMax: st.CPUMax, Cores: st.Cores, Saturated: st.Saturated()}
			if t != nil {
				nt.NICBound, nt.NetPeak = t.NICBound, t.NetPeak
			}
			t = &nt
		}
	}
	for _, st := range sts {
		if st.Samples == 0 {
			continue
		}
		if t == nil {
			t = &Target{Source: st.Source, Local: local[st.Source]}
		}
		t.NetPeak = max(t.NetPeak, st.NetPeak)
		if st.NICBound() && t.NICBound == "" {
			t.NICBound = fmt.Sprintf("%s: %s at %s of its %s link", st.Source, st.NetPeakDev, monitor.FmtBytesRate(st.NetPeak), monitor.FmtBits(st.NetSpeed))
		}
	}
	return t
}

// describe is the target's measured state for a verdict.
func (t *Target) describe() string {
	s := fmt.Sprintf("server %s CPU mean %.0f%%, max %.0f%%", t.Source, 100*t.CPU, 100*t.CPUMax)
	if t.Cores > 0 {
		s += fmt.Sprintf(" of %s cores", trimFloat(t.Cores))
	}
	if t.NetPeak > 0 {
		s += ", network peak " + monitor.FmtBytesRate(t.NetPeak)
	}
	return s + " (measured)"
}

func trimFloat(x float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", x), ".0") }

// diagnoseMeasured is Diagnose for sweeps whose steps were monitored: the
// saturated side is named from the target's measured CPU and network;
// Little's law only tells a client bottleneck the target did not see.
// ok is false when no step up to the knee was monitored, or a target runs
// in stampede's process (Diagnose's own rules apply then).
func diagnoseMeasured(curve []Point, k Knee) (Verdict, bool) {
	last := len(curve) - 1
	if k.Found {
		last = k.At
	}
	monitored := false
	for _, p := range curve[:last+1] {
		if p.InProcess {
			return Verdict{}, false
		}
		monitored = monitored || p.Target != nil
	}
	if !monitored {
		return Verdict{}, false
	}
	at := func(p Point) string { return p.Value + " " + unitOf(p.Dimension) }
	for _, p := range curve[:last+1] {
		t := p.Target
		if t == nil {
			continue
		}
		if t.Saturated && t.Local && t.Host {
			return Verdict{Side: SideUnknown, Reason: fmt.Sprintf(
				"at %s the monitored host was saturated, but it is the generator's own machine (a loopback endpoint): its CPU counts the generator and every other process there (%s); watch the target's process (--monitor pid=NAME) or give the target its own machine",
				at(p), t.describe())}, true
		}
		if (t.Saturated || t.NICBound != "") && t.Local && p.GeneratorSaturated {
			return Verdict{Side: SideUnknown, Reason: fmt.Sprintf(
				"at %s both were busy on one machine: the target (%s) runs on the generator's machine, and the generator's CPU was saturated too; give the target its own machine to tell them apart",
				at(p), t.describe())}, true
		}
		if t.NICBound != "" {
			return Verdict{Side: SideTarget, Reason: fmt.Sprintf(
				"target saturated first: its network is the limit at %s — %s (%s); more throughput needs a faster NIC or more nodes, not more load",
				at(p), t.NICBound, t.describe())}, true
		}
		if t.Saturated {
			return Verdict{Side: SideTarget, Reason: fmt.Sprintf(
				"target saturated first: at %s the server's CPU was above %.0f%% (%s)",
				at(p), 100*monitor.Threshold, t.describe())}, true
		}
		if p.GeneratorSaturated {
			return Verdict{Side: SideClient, Reason: fmt.Sprintf(
				"client saturated first: %s at %s while the target had headroom (%s); %s",
				generatorBusy(p), at(p), t.describe(), generatorRemedy(p))}, true
		}
	}
	p := curve[last]
	tdesc := "target not monitored at this step"
	if p.Target != nil {
		tdesc = p.Target.describe()
	}
	if p.VUs > 0 && p.Concurrency < LittleGap*p.VUs && (p.Closed || p.Dropped > 0) {
		return Verdict{Side: SideClient, Reason: fmt.Sprintf(
			"client saturated first: at %s Little's law accounts for %.1f busy VUs of %.0f (the VUs waited outside the measured iterations) while the target had headroom (%s)",
			at(p), p.Concurrency, p.VUs, tdesc)}, true
	}
	if !k.Found {
		return Verdict{Side: SideNone, Reason: "neither side saturated within the sweep (" + tdesc + ")"}, true
	}
	return Verdict{Side: SideTarget, Reason: fmt.Sprintf(
		"target limits throughput at %s but not by CPU or network: throughput stayed near %.0f it/s while p99 rose %+.0f%%, with %s — look at locks, disk, a single busy thread or the target's configuration",
		at(p), p.Throughput, 100*k.P99Growth, tdesc)}, true
}

// targetMonitored reports whether any point has target measurements.
func targetMonitored(ps []Point) bool {
	for _, p := range ps {
		if p.Target != nil {
			return true
		}
	}
	return false
}

// targetCell is the table's "target CPU" cell: mean (max) utilisation.
func targetCell(t *Target) string {
	if t == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%% (%.0f%%)", 100*t.CPU, 100*t.CPUMax)
}
