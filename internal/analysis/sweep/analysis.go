package sweep

import (
	"fmt"
	"sort"
)

// Curve is one scenario across the steps of a sweep, in order of load
// (of nodes for node sweeps, of steps for target sweeps).
type Curve struct {
	Scenario string   `json:"scenario"`
	Points   []Point  `json:"points"`
	Knee     Knee     `json:"knee"`
	Verdict  Verdict  `json:"verdict"`
	Scaling  *Scaling `json:"scaling,omitempty"`
}

// Scaling is how throughput grows with the cluster in a node sweep,
// relative to the smallest cluster.
type Scaling struct {
	BaseNodes      int     `json:"baseNodes"`
	BaseThroughput float64 `json:"baseThroughput"`
	// PerNode and Efficiency are per point: throughput per node, and that
	// divided by the smallest cluster's (1 = linear scaling).
	PerNode    []float64 `json:"perNode"`
	Efficiency []float64 `json:"efficiency"`
	// Linear is true when every efficiency is at least the rule's
	// MinEfficiency; otherwise SubLinearAt is the first point below it.
	Linear      bool `json:"linear"`
	SubLinearAt int  `json:"subLinearAt"`
	// NotMeaningful says why the curve says nothing about scaling (a
	// stand-in target); empty when it does.
	NotMeaningful string `json:"notMeaningful,omitempty"`
}

// StandInScaling is the verdict of a node sweep against a stand-in.
const StandInScaling = "not meaningful: the target is a stand-in (kfake: one goroutine of one process serves every broker, nothing is replicated), so the curve is limited by the stand-in and its broker count says nothing about how a cluster scales; sweep a real cluster (--targets), or use the nats family, whose embedded cluster is real replicated nats-server nodes"

// standIn tells whether any point ran against a stand-in target.
func standIn(points []Point) bool {
	for _, p := range points {
		if p.StandIn {
			return true
		}
	}
	return false
}

// Analysis is the result of a sweep.
type Analysis struct {
	Dimension string  `json:"dimension"`
	Rule      Rule    `json:"rule"`
	Curves    []Curve `json:"curves"`
}

// Analyze groups points by scenario (in first-seen order), orders each
// curve, and finds knees, verdicts and, for node sweeps, scaling.
func Analyze(points []Point, r Rule) *Analysis {
	r = r.withDefaults()
	a := &Analysis{Rule: r}
	index := map[string]int{}
	for _, p := range points {
		if a.Dimension == "" {
			a.Dimension = p.Dimension
		}
		i, ok := index[p.Scenario]
		if !ok {
			i = len(a.Curves)
			index[p.Scenario] = i
			a.Curves = append(a.Curves, Curve{Scenario: p.Scenario})
		}
		a.Curves[i].Points = append(a.Curves[i].Points, p)
	}
	for i := range a.Curves {
		c := &a.Curves[i]
		sort.SliceStable(c.Points, func(x, y int) bool {
			if a.Dimension == DimTarget {
				return c.Points[x].Step < c.Points[y].Step
			}
			return c.Points[x].Load < c.Points[y].Load
		})
		if a.Dimension == DimNodes {
			c.Scaling = scale(c.Points, r)
		} else {
			c.Knee = FindKnee(c.Points, r)
		}
		c.Verdict = Diagnose(c.Points, c.Knee)
		if c.Scaling != nil && standIn(c.Points) {
			c.Scaling.NotMeaningful = StandInScaling
			c.Verdict = Verdict{Side: SideUnknown, Reason: StandInScaling}
		}
		if c.Scaling != nil && !c.Scaling.Linear && c.Verdict.Side == SideNone {
			p := c.Points[c.Scaling.SubLinearAt]
			c.Verdict = Verdict{Side: SideTarget, Reason: fmt.Sprintf(
				"the target limits scaling: from %s nodes throughput per node falls while the generator kept up (Little's law: %.1f busy VUs of %.0f)",
				p.Value, p.Concurrency, p.VUs)}
		}
		if c.Scaling != nil {
			c.Verdict, _ = sharedMachineVerdict(c.Points, c.Verdict)
			c.Verdict = layoutVerdict(c.Points, c.Verdict)
		}
	}
	return a
}

// scale computes throughput per node and efficiency against the first
// (smallest) cluster.
func scale(curve []Point, r Rule) *Scaling {
	s := &Scaling{Linear: true, SubLinearAt: -1}
	if len(curve) == 0 {
		return s
	}
	base := curve[0]
	s.BaseNodes, s.BaseThroughput = base.Nodes, rate(base)
	basePer := perNode(base)
	for i, p := range curve {
		per := perNode(p)
		eff := 0.0
		if basePer > 0 {
			eff = per / basePer
		}
		s.PerNode = append(s.PerNode, per)
		s.Efficiency = append(s.Efficiency, eff)
		if i > 0 && eff < r.MinEfficiency && s.Linear {
			s.Linear, s.SubLinearAt = false, i
		}
	}
	return s
}

func perNode(p Point) float64 {
	if p.Nodes <= 0 {
		return rate(p)
	}
	return rate(p) / float64(p.Nodes)
}

// Describe says how a node sweep scales, in one line.
func (s *Scaling) Describe(curve []Point) string {
	if s.NotMeaningful != "" {
		return "not meaningful (stand-in target): efficiency figures are shown but describe one test process, not a cluster"
	}
	if len(curve) < 2 {
		return "one cluster size: nothing to compare"
	}
	last := len(curve) - 1
	u := rateUnit(curve)
	if s.Linear {
		return fmt.Sprintf("scales linearly from %d to %d nodes: %.0f → %.0f %s, efficiency %.0f%% (≥ %.0f%% at every size)",
			curve[0].Nodes, curve[last].Nodes, rate(curve[0]), rate(curve[last]), u, 100*s.Efficiency[last], 100*minOf(s.Efficiency))
	}
	i := s.SubLinearAt
	return fmt.Sprintf("sub-linear from %d nodes: efficiency %.0f%% (%.0f %s per node vs %.0f on the %d-node cluster); %d nodes give %.0f %s, %.1f× the %d-node cluster",
		curve[i].Nodes, 100*s.Efficiency[i], s.PerNode[i], u, s.PerNode[0], curve[0].Nodes,
		curve[last].Nodes, rate(curve[last]), u, ratio(rate(curve[last]), rate(curve[0])), curve[0].Nodes)
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
