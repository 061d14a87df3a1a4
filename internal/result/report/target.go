package report

import (
	"math"
	"time"

	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// TargetSource is one --monitor source during one scenario: its summary
// and its per-second figures on the scenario's time axis (seconds from the
// scenario's start, as the throughput chart), averaged over Step seconds
// when the scenario is long.
type TargetSource struct {
	Source string        `json:"source"`
	Stats  monitor.Stats `json:"stats"`
	// Warning is the saturation note of the source, "" when none.
	Warning string    `json:"warning,omitempty"`
	Step    int       `json:"step"`
	T       []float64 `json:"t"`
	// CPU is the host's utilisation (a local process's share of the
	// cores), %; ProcCores a process's CPU in cores; Rx and Tx bytes/s.
	CPU       []float64 `json:"cpu,omitempty"`
	ProcCores []float64 `json:"procCores,omitempty"`
	Rx        []float64 `json:"rx,omitempty"`
	Tx        []float64 `json:"tx,omitempty"`
}

type targetPoint struct {
	t, cpu, proc, rx, tx float64
	hasCPU, hasProc      bool
}

// addTarget attaches the monitor series of r (when it has one) to the
// scenarios of run.
func addTarget(run *Run, r *resultdir.Result, maxPoints int) error {
	snap := r.Snapshot
	wins := make([]monitor.Window, len(snap.Scenarios))
	for i, sc := range snap.Scenarios {
		wins[i] = monitor.Window{From: sc.Start, To: sc.End}
	}
	stats, err := monitor.Summarize(r.Dir, wins, monitor.SummarizeOptions{NICSpeed: r.Options.NICSpeed})
	if err != nil || stats == nil {
		return err
	}
	// points[scenario][source]
	points := make([]map[string][]targetPoint, len(snap.Scenarios))
	for i := range points {
		points[i] = map[string][]targetPoint{}
	}
	err = monitor.Scan(r.Dir, func(s *monitor.Sample) error {
		if s.Err != "" {
			return nil
		}
		for i, sc := range snap.Scenarios {
			if p, ok := targetPointOf(s, sc.Start, sc.End); ok {
				points[i][s.Source] = append(points[i][s.Source], p)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, sc := range run.Scenarios {
		for _, st := range stats[i] {
			ts := &TargetSource{Source: st.Source, Stats: st, Warning: st.Warning()}
			ts.fill(points[i][st.Source], maxPoints)
			sc.Target = append(sc.Target, ts)
		}
	}
	return nil
}

// targetPointOf is sample s on the time axis of a scenario that spans
// [start, end]; false when s is outside it.
func targetPointOf(s *monitor.Sample, start, end time.Time) (targetPoint, bool) {
	from := s.Time.Add(-time.Duration(s.DT * float64(time.Second)))
	if s.Time.Before(start) || from.After(end) {
		return targetPoint{}, false
	}
	v := s.Values
	p := targetPoint{t: math.Max(0, from.Sub(start).Seconds()), rx: v[monitor.NetRx], tx: v[monitor.NetTx]}
	if u, ok := v[monitor.CPUUtil]; ok {
		p.cpu, p.hasCPU = 100*u, true
	} else if u, ok := v[monitor.ProcUtil]; ok {
		p.cpu, p.hasCPU = 100*u, true
	}
	if c, ok := v[monitor.ProcCPU]; ok {
		p.proc, p.hasProc = c, true
	}
	if p.rx == 0 && p.tx == 0 {
		p.rx, p.tx = v[monitor.NetRx+":lo"], v[monitor.NetTx+":lo"]
	}
	return p, true
}

// fill averages pts into buckets of Step points, at most maxPoints.
func (ts *TargetSource) fill(pts []targetPoint, maxPoints int) {
	n := len(pts)
	ts.Step = max(1, int(math.Ceil(float64(n)/float64(maxPoints))))
	anyCPU, anyProc := false, false
	for _, p := range pts {
		anyCPU, anyProc = anyCPU || p.hasCPU, anyProc || p.hasProc
	}
	for i := 0; i < n; i += ts.Step {
		j := min(i+ts.Step, n)
		var cpu, proc, rx, tx float64
		for _, p := range pts[i:j] {
			cpu, proc, rx, tx = cpu+p.cpu, proc+p.proc, rx+p.rx, tx+p.tx
		}
		k := float64(j - i)
		ts.T = append(ts.T, round(pts[i].t, 1))
		if anyCPU {
			ts.CPU = append(ts.CPU, round(cpu/k, 2))
		}
		if anyProc {
			ts.ProcCores = append(ts.ProcCores, round(proc/k, 3))
		}
		ts.Rx = append(ts.Rx, math.Round(rx/k))
		ts.Tx = append(ts.Tx, math.Round(tx/k))
	}
}
