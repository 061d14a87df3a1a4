package sweep

import (
	"strings"
	"testing"
)

// TestLayoutVerdict: a node sweep whose load had fewer streams (or
// leaders) than nodes says the setup limited the curve; fewer VUs than
// nodes is said too; a spread layout leaves the verdict alone.
//
// Mutation caught: dropping layoutVerdict from Analyze leaves "the target
// limits scaling" for a one-stream sweep, the setup the issue reported.
func TestLayoutVerdict(t *testing.T) {
	mk := func(nodes, parts, leaders int, vus, msgs float64) Point {
		return Point{Dimension: DimNodes, Scenario: "nats.Publish", Nodes: nodes, Load: float64(nodes), Throughput: msgs / 500, MsgRate: msgs,
			VUs: vus, Concurrency: vus, Closed: true, GeneratorCPU: 0.2, Partitions: parts, LeaderNodes: leaders}
	}
	// kfake: the embedded Kafka stand-in, whatever its layout.
	kfake := func(nodes, parts, leaders int, vus, msgs float64) Point {
		p := mk(nodes, parts, leaders, vus, msgs)
		p.Scenario, p.StandIn, p.InProcess = "kafka.Produce", true, true
		return p
	}
	for _, tc := range []struct {
		name   string
		points []Point
		side   string
		has    []string
		hasNot []string
	}{
		{"one stream on 1,3,5 nodes", []Point{mk(1, 1, 1, 50, 16000), mk(3, 1, 1, 50, 14000), mk(5, 1, 1, 50, 13000)},
			SideUnknown, []string{"the setup limits the curve", "3 node(s): 1 stream(s)/partition(s)", "5 node(s): 1 stream(s)/partition(s)"}, nil},
		{"streams follow nodes but leaders bunch", []Point{mk(1, 1, 1, 50, 16000), mk(3, 3, 2, 50, 14000)},
			SideUnknown, []string{"3 node(s): 2 lead the load"}, nil},
		{"spread layout: the target's verdict stays", []Point{mk(1, 1, 1, 50, 16000), mk(3, 3, 3, 50, 14000), mk(5, 5, 5, 50, 13000)},
			SideTarget, []string{"the target limits scaling"}, []string{"setup limits", "fewer VUs"}},
		{"fewer VUs than nodes", []Point{mk(1, 1, 1, 2, 16000), mk(3, 3, 3, 2, 14000)},
			SideTarget, []string{"fewer VUs than nodes (3 node(s): 2 VU(s))"}, []string{"setup limits"}},
		{"fewer partitions and fewer VUs", []Point{mk(1, 1, 1, 2, 16000), mk(5, 3, 3, 2, 14000)},
			SideUnknown, []string{"5 node(s): 3 stream(s)/partition(s)", "fewer VUs than nodes (5 node(s): 2 VU(s))"}, nil},
		{"kfake, leaders spread: the stand-in limits the curve", []Point{kfake(1, 1, 1, 8, 46000), kfake(3, 3, 3, 8, 49000), kfake(5, 5, 5, 8, 52000)},
			SideUnknown, []string{"limited by the stand-in"}, []string{"setup limits", "fewer VUs", "the target limits scaling"}},
		{"kfake with one partition: the setup and the stand-in", []Point{kfake(1, 1, 1, 8, 46000), kfake(3, 1, 1, 8, 46000)},
			SideUnknown, []string{"the setup limits the curve", "3 node(s): 1 stream(s)/partition(s)", "limited by the stand-in"}, nil},
		{"one node only: nothing to limit", []Point{mk(1, 1, 1, 1, 16000)},
			SideNone, nil, []string{"setup limits", "fewer VUs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Analyze(tc.points, Rule{}).Curves[0].Verdict
			if v.Side != tc.side {
				t.Errorf("side %s, want %s: %s", v.Side, tc.side, v.Reason)
			}
			for _, h := range tc.has {
				if !strings.Contains(v.Reason, h) {
					t.Errorf("reason lacks %q: %s", h, v.Reason)
				}
			}
			for _, h := range tc.hasNot {
				if strings.Contains(v.Reason, h) {
					t.Errorf("reason has %q: %s", h, v.Reason)
				}
			}
		})
	}
}
