package labrun

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/envinfo"
)

// SeedTPSPerNode is the third seed's per-node ceiling: about 49k TPS of
// 2 KB messages per node, high-throughput, with enough clients.
const SeedTPSPerNode = 49000

// Result is a lab run: its series of steps and the model they give.
type Result struct {
	Preset      string              `json:"preset"`
	Command     string              `json:"command,omitempty"`
	Start       time.Time           `json:"start"`
	End         time.Time           `json:"end"`
	Interrupted bool                `json:"interrupted,omitempty"`
	Env         envinfo.Fingerprint `json:"env"`
	Series      []*Series           `json:"series"`
	Model       Model               `json:"model"`
}

// Series is one curve.
type Series struct {
	Name    string   `json:"name"`
	XLabel  string   `json:"x_label"`
	Points  []*Point `json:"points"`
	Skipped []string `json:"skipped,omitempty"`
	// Fit is cluster TPS against x (nil with fewer than two points).
	Fit *Fit `json:"fit,omitempty"`
}

// Point is one step of a series.
type Point struct {
	X    float64 `json:"x"`
	Step *Step   `json:"step,omitempty"`
	Err  string  `json:"error,omitempty"`
}

// Run runs every step of p's series, one after another, and fits each
// series. A failed step is recorded and the run goes on; when ctx ends
// the run stops, and what was measured so far is returned with
// Interrupted set.
func Run(ctx context.Context, p *Plan, scratch string, logf func(string, ...any)) (*Result, error) {
	sps, err := p.Series()
	if err != nil {
		return nil, err
	}
	r := &Result{Preset: p.Preset, Start: time.Now(), Env: envinfo.Collect()}
	for _, sp := range sps {
		s := &Series{Name: sp.Name, XLabel: sp.XLabel, Skipped: sp.Skipped}
		r.Series = append(r.Series, s)
		for i, c := range sp.Steps {
			if ctx.Err() != nil {
				break
			}
			dir, err := os.MkdirTemp(scratch, "step-")
			if err != nil {
				return nil, err
			}
			c.Dir = dir
			c.Log = logf
			logf("step: %s = %g: %s", sp.XLabel, sp.X[i], c.String())
			st, err := RunStep(ctx, c)
			_ = os.RemoveAll(dir)
			pt := &Point{X: sp.X[i], Step: st}
			if err != nil {
				if ctx.Err() != nil {
					break
				}
				pt.Err = err.Error()
				logf("step failed: %v", err)
			} else {
				st.Label = fmt.Sprintf("%s=%g", sp.XLabel, sp.X[i])
				logf("  %.0f msgs/s acked (%s)", st.TPS, st.Why)
			}
			s.Points = append(s.Points, pt)
		}
		s.fit()
	}
	r.End = time.Now()
	r.Interrupted = ctx.Err() != nil
	r.Model = model(r, p)
	if r.measured() == 0 && !r.Interrupted {
		return r, errors.New("lab: no step measured anything")
	}
	return r, nil
}

func (s *Series) fit() {
	var xs, ys []float64
	for _, p := range s.Points {
		if p.Step != nil && p.Err == "" {
			xs, ys = append(xs, p.X), append(ys, p.Step.TPS)
		}
	}
	if f, ok := LinearFit(xs, ys); ok {
		s.Fit = &f
	}
}

// measured counts the steps that measured messages.
func (r *Result) measured() int {
	n := 0
	for _, s := range r.Series {
		for _, p := range s.Points {
			if p.Step != nil && p.Err == "" && p.Step.TPS > 0 {
				n++
			}
		}
	}
	return n
}

// Model is the per-node capacity model the lab measured,
// TPS ≈ min(link rate / (8 × wire bytes per message × copies),
// CPU budget / CPU per message), and what it predicts for the seed's
// fleet.
type Model struct {
	// Profile is the profile the model was measured on, Replicas its
	// replicas.
	Profile  string `json:"profile"`
	Replicas int    `json:"replicas"`
	// WireBytes is the median bytes a link-bound node received per
	// message it led (counters; with R3 that includes the replication it
	// received as a follower), WireModel the framing model's figure for
	// one client publish.
	WireBytes float64 `json:"wire_bytes_per_msg"`
	WireModel float64 `json:"wire_bytes_model"`
	// CPUPerMsg is the median node CPU per acknowledged message (µs),
	// from the cgroups: of CPU-bound steps when there are some
	// (CPUSaturated), else of link-bound ones (an upper bound).
	CPUPerMsg    float64 `json:"cpu_us_per_msg"`
	CPUSaturated bool    `json:"cpu_saturated"`
	// NodeLinkRate (bits/s) and NodeCPU (cores) are the lab's node
	// budgets; LinkTPS, CPUTPS the two terms of the model at them (0:
	// unbounded, an unshaped link or an unlimited CPU); PerNode the
	// smaller bounded one.
	NodeLinkRate float64 `json:"node_link_bps"`
	NodeCPU      float64 `json:"node_cpu_cores"`
	LinkTPS      float64 `json:"link_tps"`
	CPUTPS       float64 `json:"cpu_tps"`
	PerNode      float64 `json:"per_node_tps"`
	// MeasuredPerNode is the slope of the first node-count series' fit.
	MeasuredPerNode float64 `json:"measured_per_node_tps,omitempty"`
	// Fleet predictions with the measured wire bytes: a 1 GbE node (the
	// seed's text says gigabit NICs, 千兆网卡) and a 10 GbE node.
	Link1G  float64 `json:"link_tps_1g"`
	Link10G float64 `json:"link_tps_10g"`
	// MatchLink is the link rate (bits/s) at which the link term gives
	// the seed's 49k TPS; MatchCPU the cores at which the CPU term does
	// at this machine's CPU per message.
	MatchLink float64 `json:"match_link_bps"`
	MatchCPU  float64 `json:"match_cpu_cores"`
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func model(r *Result, p *Plan) Model {
	m := Model{NodeLinkRate: float64(p.Base.NodeLink.Rate), NodeCPU: p.Base.NodeCPU}
	size := p.Base.MessageSize
	if size <= 0 {
		size = 2048
	}
	m.WireModel = WireBytes(subjectOf("p0-0"), size)
	// The model comes from one profile: high-throughput when the run has
	// it (the seed's 49k is), else the run's first.
	var steps []*Step
	for _, s := range r.Series {
		for _, pt := range s.Points {
			if pt.Step != nil && pt.Err == "" {
				steps = append(steps, pt.Step)
			}
		}
	}
	if len(steps) == 0 {
		return m
	}
	m.Profile = steps[0].Profile
	for _, st := range steps {
		if st.Profile == HighThroughput {
			m.Profile = HighThroughput
		}
	}
	var wire, cpuLink, cpuCPU []float64
	for _, st := range steps {
		if st.Profile != m.Profile {
			continue
		}
		m.Replicas = st.Replicas
		for _, h := range st.Hosts {
			if h.Role != RoleNode || h.TPS <= 0 {
				continue
			}
			if h.LinkIn >= Saturated {
				wire = append(wire, h.WireInPerMsg)
			}
			switch {
			case st.Bound == BoundNodeCPU && h.CPUUtil >= Saturated:
				cpuCPU = append(cpuCPU, h.CPUPerMsg)
			case st.Bound == BoundNodeLink && h.CPUPerMsg > 0:
				cpuLink = append(cpuLink, h.CPUPerMsg)
			}
		}
	}
	m.WireBytes = median(wire)
	if m.WireBytes == 0 {
		m.WireBytes = m.WireModel * float64(max(m.Replicas, 1))
	}
	// CPU per message where the CPU was the bound is the cost at
	// saturation; a node with CPU to spare spends more per message
	// (wake-ups, idle polling), so that figure is an upper bound.
	m.CPUPerMsg, m.CPUSaturated = median(cpuCPU), true
	if m.CPUPerMsg == 0 {
		m.CPUPerMsg, m.CPUSaturated = median(cpuLink), false
	}
	if m.NodeLinkRate > 0 {
		m.LinkTPS = LinkTPS(m.NodeLinkRate, m.WireBytes, 1)
	}
	if m.NodeCPU > 0 && m.CPUPerMsg > 0 {
		m.CPUTPS = m.NodeCPU / (m.CPUPerMsg / 1e6)
	}
	m.PerNode = minBounded(m.LinkTPS, m.CPUTPS)
	for _, s := range r.Series {
		if s.XLabel == "nodes" && s.Fit != nil && strings.HasPrefix(s.Name, m.Profile) {
			m.MeasuredPerNode = s.Fit.Slope
			break
		}
	}
	m.Link1G = LinkTPS(1e9, m.WireBytes, 1)
	m.Link10G = LinkTPS(10e9, m.WireBytes, 1)
	m.MatchLink = SeedTPSPerNode * m.WireBytes * 8
	if m.CPUPerMsg > 0 {
		m.MatchCPU = SeedTPSPerNode * m.CPUPerMsg / 1e6
	}
	return m
}

// minBounded is the smaller of a and b, where 0 means unbounded.
func minBounded(a, b float64) float64 {
	switch {
	case a <= 0:
		return b
	case b <= 0:
		return a
	}
	return math.Min(a, b)
}
