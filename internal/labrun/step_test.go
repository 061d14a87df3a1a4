package labrun

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/lab"
)

func TestPairs(t *testing.T) {
	for _, tc := range []struct {
		name           string
		nodes, clients int
		want           []Pair
	}{
		{"two clients per node", 2, 4, []Pair{{0, 0, 0}, {1, 1, 1}, {2, 2, 0}, {3, 3, 1}}},
		{"one client serves every node, one process each", 3, 1, []Pair{{0, 0, 0}, {1, 0, 1}, {2, 0, 2}}},
		{"one to one", 2, 2, []Pair{{0, 0, 0}, {1, 1, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{Nodes: tc.nodes, Clients: tc.clients}
			if got := c.Pairs(); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSeries(t *testing.T) {
	for _, tc := range []struct {
		name    string
		plan    Plan
		names   []string
		xs      [][]float64
		skipped int
		wantErr bool
	}{
		{"nodes", Plan{Preset: PresetNodes, Nodes: []int{1, 2, 3}}, []string{"high-throughput, 2 clients per node"}, [][]float64{{1, 2, 3}}, 0, false},
		{"high-reliability skips clusters under 3", Plan{Preset: PresetNodes, Nodes: []int{1, 3, 4}, Profiles: []string{HighReliability}}, nil, [][]float64{{3, 4}}, 1, false},
		{"budgets doubles the curve", Plan{Preset: PresetBudgets, Nodes: []int{1, 2}, CPUBoundCPU: 0.04}, nil, [][]float64{{1, 2}, {1, 2}}, 0, false},
		{"clients default 1..2N", Plan{Preset: PresetClients, Nodes: []int{2}}, nil, [][]float64{{1, 2, 3, 4}}, 0, false},
		{"topics per node", Plan{Preset: PresetTopics, Nodes: []int{2}, Topics: []int{1, 4}}, nil, [][]float64{{2, 8}}, 0, false},
		{"unknown preset", Plan{Preset: "sideways", Nodes: []int{1}}, nil, nil, 0, true},
		{"too many generators", Plan{Preset: PresetNodes, Nodes: []int{15}, ClientsPerNode: 5}, nil, nil, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ss, err := tc.plan.Series()
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v", err)
			}
			if err != nil {
				return
			}
			var xs [][]float64
			skipped := 0
			for i, s := range ss {
				xs = append(xs, s.X)
				skipped += len(s.Skipped)
				if tc.names != nil && s.Name != tc.names[i] {
					t.Errorf("name %q", s.Name)
				}
			}
			if !reflect.DeepEqual(xs, tc.xs) || skipped != tc.skipped {
				t.Fatalf("xs %v skipped %d; want %v, %d", xs, skipped, tc.xs, tc.skipped)
			}
		})
	}
	ss, _ := (&Plan{Preset: PresetBudgets, Nodes: []int{1}, CPUBoundCPU: 0.04, Base: Config{NodeCPU: 0.25}}).Series()
	if ss[0].Steps[0].NodeCPU != 0.25 || ss[1].Steps[0].NodeCPU != 0.04 {
		t.Errorf("budgets: node CPU %v then %v", ss[0].Steps[0].NodeCPU, ss[1].Steps[0].NodeCPU)
	}
}

func TestVerdict(t *testing.T) {
	node := func(in, cpu float64) HostFigures {
		return HostFigures{Name: "n1", Role: RoleNode, LinkIn: in, CPUUtil: cpu}
	}
	client := func(out, cpu float64) HostFigures {
		return HostFigures{Name: "c1", Role: RoleClient, LinkOut: out, CPUUtil: cpu}
	}
	for _, tc := range []struct {
		name  string
		hosts []HostFigures
		busy  float64
		want  string
	}{
		{"node link", []HostFigures{node(0.99, 0.5), client(0.5, 0.2)}, 0.5, BoundNodeLink},
		{"node CPU", []HostFigures{node(0.4, 0.97), client(0.2, 0.2)}, 0.5, BoundNodeCPU},
		{"client link", []HostFigures{node(0.3, 0.3), client(1.0, 0.4)}, 0.5, BoundClientLink},
		{"client CPU", []HostFigures{node(0.3, 0.3), client(0.3, 0.95)}, 0.5, BoundClientCPU},
		{"the machine", []HostFigures{node(0.5, 0.5), client(0.5, 0.5)}, 0.97, BoundHost},
		{"nothing", []HostFigures{node(0.5, 0.5), client(0.5, 0.5)}, 0.3, BoundNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &Step{Hosts: tc.hosts, HostBusy: tc.busy}
			verdict(st)
			if st.Bound != tc.want {
				t.Fatalf("bound %q (%s), want %q", st.Bound, st.Why, tc.want)
			}
			if tc.busy >= HostSaturated && !strings.Contains(strings.Join(st.Notes, " "), "host itself was saturated") {
				t.Errorf("a saturated machine is not noted: %v", st.Notes)
			}
		})
	}
}

func TestLinearFit(t *testing.T) {
	f, ok := LinearFit([]float64{1, 2, 3, 4}, []float64{570, 1140, 1710, 2280})
	if !ok || math.Abs(f.Slope-570) > 1e-9 || math.Abs(f.Intercept) > 1e-9 || f.R2 < 0.999999 {
		t.Fatalf("fit %+v", f)
	}
	f, _ = LinearFit([]float64{1, 2, 3, 4}, []float64{580, 1130, 1150, 1160})
	if f.R2 > 0.9 {
		t.Fatalf("a curve that bends fits with R² %.3f", f.R2)
	}
	if _, ok := LinearFit([]float64{1}, []float64{1}); ok {
		t.Fatal("one point fits")
	}
}

func TestFraming(t *testing.T) {
	// PUB p0.0 <20-char reply> 2048\r\n + 2048 + \r\n
	if got := AppBytes("p0.0", 2048); got != 2086 {
		t.Fatalf("AppBytes = %v", got)
	}
	w := WireBytes("p0.0", 2048)
	if w < 2170 || w > 2190 {
		t.Fatalf("WireBytes = %v", w)
	}
	// 10 Mbit/s carries about 573 such messages a second; R3 a third.
	if got := LinkTPS(10e6, w, 1); got < 570 || got > 576 {
		t.Fatalf("LinkTPS = %v", got)
	}
	if got := LinkTPS(10e6, w, 3); got < 190 || got > 192 {
		t.Fatalf("LinkTPS R3 = %v", got)
	}
}

func TestModelAndCharts(t *testing.T) {
	mk := func(n int, tps float64) *Point {
		st := &Step{Nodes: n, Replicas: 1, TPS: tps, Bound: BoundNodeLink}
		for i := 0; i < n; i++ {
			st.Hosts = append(st.Hosts, HostFigures{Name: "n", Role: RoleNode, TPS: tps / float64(n), LinkIn: 0.99, WireInPerMsg: 2150, CPUPerMsg: 150})
		}
		return &Point{X: float64(n), Step: st}
	}
	s := &Series{Name: "ht", XLabel: "nodes", Points: []*Point{mk(1, 575), mk(2, 1150), mk(3, 1720)}}
	s.fit()
	r := &Result{Preset: PresetNodes, Series: []*Series{s}}
	p := &Plan{Base: Config{NodeLink: lab.Link{Rate: 10e6}, NodeCPU: 0.25, MessageSize: 2048}}
	m := model(r, p)
	if m.WireBytes != 2150 || m.CPUPerMsg != 150 || math.Abs(m.LinkTPS-10e6/8/2150) > 1e-6 || math.Abs(m.CPUTPS-0.25/150e-6) > 1e-6 {
		t.Fatalf("model %+v", m)
	}
	if m.PerNode != m.LinkTPS || math.Abs(m.MatchLink-SeedTPSPerNode*2150*8) > 1e-6 {
		t.Fatalf("model %+v", m)
	}
	r.Model = m
	cs := charts(r)
	if len(cs) != 1 || len(cs[0].Series) != 3 || !strings.HasPrefix(cs[0].Series[2].Label, "model") {
		t.Fatalf("charts %+v", cs)
	}
	var b strings.Builder
	if err := WriteHTML(&b, r); err != nil || !strings.Contains(b.String(), "StampedeChart.chart") {
		t.Fatalf("html: %v", err)
	}
}

func TestReplicaGroupsSpreadLeadersAndReplicas(t *testing.T) {
	const n, r = 5, 3
	member := map[int][]int{} // group -> nodes
	for i := range n {
		gs := groupsOf(i, n, r)
		if len(gs) != r {
			t.Fatalf("node %d in groups %v", i, gs)
		}
		for _, g := range gs {
			member[g] = append(member[g], i)
		}
	}
	for g := range n {
		ms := member[g]
		if len(ms) != r || !contains(ms, g) {
			t.Errorf("group %d = %v: want %d nodes including its leader %d", g, ms, r, g)
		}
	}
	if groupsOf(0, 3, 1) != nil {
		t.Error("R1 needs no groups")
	}
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestPairStreamsAreTheFamilysNames(t *testing.T) {
	c := &Config{StreamsPerPair: 12}
	got := pairStreams(c, Pair{Index: 3})
	if got[0] != "p3-00" || got[11] != "p3-11" || subjectOf(got[9]) != "p3.09" {
		t.Fatalf("got %v", got)
	}
}
