package report

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/stampede-bench/stampede/internal/analysis/sweep"
)

// Sweep step keys in resultdir.Options.Sweep.
const (
	sweepDimension = "dimension"
	sweepValue     = "value"
	sweepNodes     = "nodes"
)

// buildSweep returns the scaling curves when every run is a step of the
// same sweep dimension, or nil. Steps are ordered by their numeric value
// (non-numeric values, e.g. targets, keep the given order).
func buildSweep(runs []*Run) *Sweep {
	if len(runs) < 2 {
		return nil
	}
	dim := runs[0].Options.Sweep[sweepDimension]
	if dim == "" {
		return nil
	}
	for _, r := range runs {
		if r.Options.Sweep[sweepDimension] != dim {
			return nil
		}
	}
	type step struct {
		run   int
		value string
		x     float64
		nodes float64
	}
	steps := make([]step, len(runs))
	numeric := true
	for i, r := range runs {
		v := r.Options.Sweep[sweepValue]
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			numeric = false
		}
		nodes, _ := strconv.ParseFloat(r.Options.Sweep[sweepNodes], 64)
		if dim == "nodes" && nodes == 0 {
			nodes = x
		}
		steps[i] = step{run: i, value: v, x: x, nodes: nodes}
	}
	if numeric {
		sort.SliceStable(steps, func(i, j int) bool { return steps[i].x < steps[j].x })
	} else {
		for i := range steps {
			steps[i].x = float64(i)
		}
	}
	sw := &Sweep{Dimension: dim}
	byName := map[string]*SweepScenario{}
	for _, st := range steps {
		for _, sc := range runs[st.run].Scenarios {
			ss := byName[sc.Name]
			if ss == nil {
				ss = &SweepScenario{Name: sc.Name}
				byName[sc.Name] = ss
				sw.Scenarios = append(sw.Scenarios, ss)
			}
			pt := SweepPoint{
				Run: st.run, Value: st.value, X: st.x,
				Throughput: sc.Summary.Throughput, P50: sc.Summary.P50, P95: sc.Summary.P95, P99: sc.Summary.P99,
				ErrorRate: sc.Summary.ErrorRate,
			}
			if st.nodes > 0 {
				pt.Nodes = st.nodes
				pt.PerNode = round(sc.Summary.Throughput/st.nodes, 2)
			}
			ss.Points = append(ss.Points, pt)
		}
	}
	for _, ss := range sw.Scenarios {
		markKnee(ss)
	}
	// Scaling efficiency: throughput per node relative to the smallest
	// cluster measured (1 = linear scaling).
	for _, ss := range sw.Scenarios {
		ref := -1
		for i, p := range ss.Points {
			if p.Nodes > 0 && p.PerNode > 0 && (ref < 0 || p.Nodes < ss.Points[ref].Nodes) {
				ref = i
			}
		}
		if ref < 0 {
			continue
		}
		for i := range ss.Points {
			if ss.Points[i].Nodes > 0 {
				ss.Points[i].Efficiency = round(ss.Points[i].PerNode/ss.Points[ref].PerNode, 4)
			}
		}
	}
	return sw
}

// sortSteps orders the runs of a sweep by their numeric step value (runs
// with non-numeric values keep their order).
func sortSteps(runs []*Run) {
	vals := make(map[*Run]float64, len(runs))
	for _, r := range runs {
		x, err := strconv.ParseFloat(r.Options.Sweep[sweepValue], 64)
		if err != nil {
			return
		}
		vals[r] = x
	}
	sort.SliceStable(runs, func(i, j int) bool { return vals[runs[i]] < vals[runs[j]] })
}

// markKnee applies stampede sweep's knee rule (analysis/sweep.FindKnee) to
// a scenario's curve, so the report names the same knee as the table.
func markKnee(ss *SweepScenario) {
	curve := make([]sweep.Point, len(ss.Points))
	for i, p := range ss.Points {
		curve[i] = sweep.Point{Value: p.Value, Throughput: p.Throughput, P99: p.P99}
	}
	k := sweep.FindKnee(curve, sweep.DefaultRule)
	ss.KneeAt = -1
	if k.Found {
		ss.KneeAt = k.At
		ss.Knee = fmt.Sprintf("knee between %s and %s: throughput %+.0f%% while p99 %+.0f%%; most useful load ≈ %s",
			ss.Points[k.Before].Value, ss.Points[k.At].Value, 100*k.Gain, 100*k.P99Growth, k.BestLoad)
	}
}
