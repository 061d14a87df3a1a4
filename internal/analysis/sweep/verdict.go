package sweep

import "fmt"

// Sides of a saturation verdict.
const (
	SideClient  = "client"
	SideTarget  = "target"
	SideNone    = "none"
	SideUnknown = "unknown"
)

// LittleGap is the fraction of configured VUs that Little's law must
// account for: when throughput × mean iteration time explains fewer than
// LittleGap × VUs busy VUs, the VUs spent their time outside the measured
// iterations — waiting for the generator (CPU, GC, scheduling), not for
// the target.
const LittleGap = 0.8

// Verdict says which side saturated first.
type Verdict struct {
	Side   string `json:"side"`
	Reason string `json:"reason"`
}

// Diagnose decides whether the client (the generator) or the target
// saturated first on a curve with knee k. When the steps were monitored
// (--monitor; Point.Target), the target's measured CPU and network decide
// (see diagnoseMeasured). Otherwise it checks in this order:
//
//  1. the generator self-check: CPU busy (selfcheck's rule) at or before
//     the knee means the numbers measure the client — unless the target
//     runs inside stampede's process, when the verdict is unknown;
//  2. Little's law at the knee (closed model): concurrency = throughput ×
//     mean iteration time well below the configured VUs (< LittleGap)
//     means VUs idled outside the iterations, a client bottleneck; in the
//     open model, dropped iterations while VUs were not busy in
//     iterations likewise;
//  3. otherwise, with a knee: the target — throughput is capped while
//     Little's law holds, so the extra concurrency queued at the target;
//  4. no knee and no client signal: nothing saturated within the sweep.
func Diagnose(curve []Point, k Knee) Verdict {
	if len(curve) == 0 {
		return Verdict{Side: SideUnknown, Reason: "no steps"}
	}
	if v, ok := diagnoseMeasured(curve, k); ok {
		return v
	}
	last := len(curve) - 1
	if k.Found {
		last = k.At
	}
	for _, p := range curve[:last+1] {
		if p.GeneratorSaturated && p.InProcess {
			return Verdict{Side: SideUnknown, Reason: fmt.Sprintf(
				"the target runs inside stampede's process (embedded), and that process was busy at %s %s (mean %.0f%% of its cores): client and target share one CPU budget here; give the target its own machine (--target) to tell them apart",
				p.Value, unitOf(p.Dimension), 100*p.GeneratorCPU)}
		}
		if p.GeneratorSaturated {
			return Verdict{Side: SideClient, Reason: fmt.Sprintf(
				"client saturated first: %s at %s %s; %s",
				generatorBusy(p), p.Value, unitOf(p.Dimension), generatorRemedy(p))}
		}
	}
	for _, p := range curve[:last+1] {
		if p.HostSaturated {
			return Verdict{Side: SideUnknown, Reason: fmt.Sprintf(
				"the generator's machine was busy with other processes at %s %s (its self-check says the numbers may be limited by the client): neither side can be named; re-run on a quiet machine or give the generator its own",
				p.Value, unitOf(p.Dimension))}
		}
	}
	p := curve[last]
	if p.VUs > 0 && p.Concurrency < LittleGap*p.VUs && (p.Closed || p.Dropped > 0) {
		return Verdict{Side: SideClient, Reason: fmt.Sprintf(
			"client saturated first: at %s %s Little's law accounts for %.1f busy VUs (throughput %.0f it/s × %s per iteration) of %.0f: the VUs waited outside the measured iterations (generator CPU, GC or connection pool)",
			p.Value, unitOf(p.Dimension), p.Concurrency, p.Throughput, fmtMs(p.IterMean), p.VUs)}
	}
	if !k.Found {
		return Verdict{Side: SideNone, Reason: "neither side saturated within the sweep"}
	}
	gen := "generator CPU unknown"
	if p.GeneratorCPU >= 0 {
		gen = fmt.Sprintf("generator CPU %.0f%%", 100*p.GeneratorCPU)
	}
	return Verdict{Side: SideTarget, Reason: fmt.Sprintf(
		"target saturated first: throughput stayed near %.0f it/s while p99 rose %+.0f%%, and Little's law holds (%.1f busy VUs of %.0f), so the extra load queued at the target (%s)",
		p.Throughput, 100*k.P99Growth, p.Concurrency, p.VUs, gen)}
}

// generatorBusy says how the generator was saturated at p: its CPU busy,
// or its cgroup's CPU quota throttling it (then its CPU figure is low).
func generatorBusy(p Point) string {
	if p.GeneratorThrottled*5 >= 1 {
		return fmt.Sprintf("the generator was throttled by its cgroup's CPU quota (in %.0f%% of the seconds; its CPU mean %.0f%%, max %.0f%% of its cores)",
			100*p.GeneratorThrottled, 100*max(p.GeneratorCPU, 0), 100*max(p.GeneratorMax, 0))
	}
	return fmt.Sprintf("the generator's CPU was busy (mean %.0f%%, max %.0f%% of its cores)", 100*p.GeneratorCPU, 100*p.GeneratorMax)
}

// generatorRemedy is what to do about a saturated generator.
func generatorRemedy(p Point) string {
	if p.GeneratorThrottled*5 >= 1 {
		return "raise the generator's CPU quota (cpu.max) or add generator machines (stampede run --segment, stampede k8s manifest)"
	}
	return "add generator machines (stampede run --segment, stampede k8s manifest)"
}
