package sweep

import (
	"strings"
	"testing"
)

func TestNodeSweepWithEmbeddedServers(t *testing.T) {
	mk := func(nodes int, it, msgs, gen, srv float64) Point {
		return Point{Dimension: DimNodes, Scenario: "nats.Publish", Nodes: nodes, Value: string(rune('0' + nodes)), Load: float64(nodes),
			Throughput: it, MsgRate: msgs, VUs: 4, Concurrency: 4, Closed: true, GeneratorCPU: gen, ServerCPU: srv, ServersMeasured: true}
	}
	tests := []struct {
		name       string
		points     []Point
		side, text string
	}{
		{"cores shared and busy: the machine is the limit",
			[]Point{mk(1, 100, 50000, 0.3, 0.4), mk(3, 60, 30000, 0.3, 0.6), mk(5, 40, 20000, 0.3, 0.6)},
			SideTarget, "the machine's cores are the limit"},
		{"servers idle, generator idle: the earlier verdict stays, with the CPU and the caveat",
			[]Point{mk(1, 100, 50000, 0.1, 0.1), mk(3, 100, 50000, 0.1, 0.1)},
			SideTarget, "servers 10%, generator 10%"},
		{"generator did the work: client",
			[]Point{mk(1, 100, 50000, 0.7, 0.2), mk(3, 50, 25000, 0.7, 0.2)},
			SideClient, "generator 70%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Analyze(tt.points, Rule{})
			c := a.Curves[0]
			if c.Verdict.Side != tt.side || !strings.Contains(c.Verdict.Reason, tt.text) || !strings.Contains(c.Verdict.Reason, "not a cluster's capacity") {
				t.Fatalf("verdict %+v, want side %s containing %q and the caveat", c.Verdict, tt.side, tt.text)
			}
			if c.Scaling.PerNode[0] != tt.points[0].MsgRate {
				t.Errorf("per node %v: want msgs/s, not it/s", c.Scaling.PerNode)
			}
			var b strings.Builder
			if err := WriteTable(&b, a); err != nil {
				t.Fatal(err)
			}
			for _, h := range []string{"msgs/s/node", "client:broker", "server CPU", "1:3, 1.3 VU/node"} {
				if len(tt.points) > 1 && !strings.Contains(b.String(), h) {
					t.Errorf("table lacks %q:\n%s", h, b.String())
				}
			}
		})
	}
}
