package sweep

import (
	"fmt"
	"math"
)

// Rule decides where a load curve saturates.
//
// Going from one step to the next (in order of load), the curve has passed
// its knee when throughput grew by less than MinGain while p99 grew by more
// than MaxP99Growth: more load no longer buys throughput, it only queues.
// Little's law explains why this is the saturation signature: with
// concurrency L ≈ throughput × latency, once throughput is capped every
// extra VU (or arrival) must show up as latency.
type Rule struct {
	// MinGain is the relative throughput growth below which a step adds no
	// useful throughput (default 0.10: +10%).
	MinGain float64
	// MaxP99Growth is the relative p99 growth above which latency is
	// climbing (default 0.50: +50%).
	MaxP99Growth float64
	// MinEfficiency is, for node sweeps, the scaling efficiency below
	// which the cluster stops scaling linearly (default 0.90).
	MinEfficiency float64
}

// DefaultRule is the rule stampede sweep applies.
var DefaultRule = Rule{MinGain: 0.10, MaxP99Growth: 0.50, MinEfficiency: 0.90}

func (r Rule) withDefaults() Rule {
	if r.MinGain == 0 {
		r.MinGain = DefaultRule.MinGain
	}
	if r.MaxP99Growth == 0 {
		r.MaxP99Growth = DefaultRule.MaxP99Growth
	}
	if r.MinEfficiency == 0 {
		r.MinEfficiency = DefaultRule.MinEfficiency
	}
	return r
}

// Knee is where a curve saturates: between points Before and At (indexes
// into the curve, At = Before+1).
type Knee struct {
	Found      bool    `json:"found"`
	Before     int     `json:"before"`
	At         int     `json:"at"`
	Gain       float64 `json:"gain"`      // relative throughput growth Before→At
	P99Growth  float64 `json:"p99Growth"` // relative p99 growth Before→At
	BestLoad   string  `json:"bestLoad"`  // the load of Before: the most useful load
	Throughput float64 `json:"throughput"`
}

// minP99 is the floor under p99 (ms) when computing its growth, so that a
// target answering in 0 µs does not make any change infinite.
const minP99 = 0.001

// FindKnee applies r to curve, whose points must be in increasing order of
// load, and returns the first step that passes the knee.
func FindKnee(curve []Point, r Rule) Knee {
	r = r.withDefaults()
	for i := 1; i < len(curve); i++ {
		a, b := curve[i-1], curve[i]
		gain := growth(a.Throughput, b.Throughput)
		p99 := (max(b.P99, minP99) - max(a.P99, minP99)) / max(a.P99, minP99)
		if gain < r.MinGain && p99 > r.MaxP99Growth {
			return Knee{Found: true, Before: i - 1, At: i, Gain: gain, P99Growth: p99, BestLoad: a.Value, Throughput: a.Throughput}
		}
	}
	return Knee{}
}

// growth is b/a − 1, or +Inf when a is 0 and b is not.
func growth(a, b float64) float64 {
	if a <= 0 {
		if b > 0 {
			return math.Inf(1)
		}
		return 0
	}
	return b/a - 1
}

// Describe says where the knee is, in one line.
func (k Knee) Describe(curve []Point) string {
	if !k.Found {
		if len(curve) == 0 {
			return "no steps"
		}
		last, peak := curve[len(curve)-1], 0
		for i, p := range curve {
			if p.Throughput > curve[peak].Throughput {
				peak = i
			}
		}
		if peak < len(curve)-1 {
			pk := curve[peak]
			return fmt.Sprintf("no knee by the rule: throughput peaked at %s %s (%.0f it/s) and fell to %.0f it/s while p99 did not climb (%s → %s): the limit is not queueing at the target",
				pk.Value, unitOf(pk.Dimension), pk.Throughput, last.Throughput, fmtMs(pk.P99), fmtMs(last.P99))
		}
		return fmt.Sprintf("no knee: throughput still grows at the highest load (%s %s, %.0f it/s); sweep further to find saturation",
			last.Value, unitOf(last.Dimension), last.Throughput)
	}
	a, b := curve[k.Before], curve[k.At]
	return fmt.Sprintf("knee between %s and %s %s: throughput %+.0f%% (%.0f → %.0f it/s) while p99 %+.0f%% (%s → %s); most useful load ≈ %s %s",
		a.Value, b.Value, unitOf(a.Dimension), 100*k.Gain, a.Throughput, b.Throughput, 100*k.P99Growth,
		fmtMs(a.P99), fmtMs(b.P99), a.Value, unitOf(a.Dimension))
}

func unitOf(dim string) string {
	switch dim {
	case DimVUs:
		return "VUs"
	case DimRate:
		return "it/s offered"
	case DimNodes:
		return "nodes"
	}
	return ""
}

// fmtMs formats milliseconds compactly.
func fmtMs(ms float64) string {
	switch {
	case ms < 1:
		return fmt.Sprintf("%.0fµs", ms*1e3)
	case ms < 10:
		return fmt.Sprintf("%.2fms", ms)
	case ms < 100:
		return fmt.Sprintf("%.1fms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0fms", ms)
	default:
		return fmt.Sprintf("%.2fs", ms/1e3)
	}
}
