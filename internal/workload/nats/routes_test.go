package nats

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestPublisherNodesNote(t *testing.T) {
	type pub struct {
		server  string
		streams []int
	}
	for _, tc := range []struct {
		name    string
		leaders []string
		nodes   int
		pubs    []pub
		want    string // "" : no note
	}{
		{"all on the leaders", []string{"n1", "n2"}, 3, []pub{{"n1", []int{0}}, {"n2", []int{1}}},
			"publisher connections per node: n1 1, n2 1; 100% of the publishes go straight to their stream's leader"},
		{"pinned, one away", []string{"n1", "n2"}, 3, []pub{{"n1", []int{0}}, {"n3", []int{1}}},
			"publisher connections per node: n1 1, n3 1; 50% of the publishes go straight to their stream's leader, 50% are forwarded over a route"},
		{"rotating over streams", []string{"n1", "n2", "n3"}, 3, []pub{{"n1", []int{0, 1, 2}}, {"n2", []int{0, 1, 2}}},
			"33% of the publishes go straight to their stream's leader, 67% are forwarded"},
		{"one node: no routes", []string{"n1"}, 1, []pub{{"n1", []int{0}}}, ""},
		{"--target: the names tell the size", []string{"a"}, 0, []pub{{"b", []int{0}}},
			"publisher connections per node: b 1; 0% of the publishes go straight"},
		{"a leader unknown", []string{"n1", ""}, 3, []pub{{"n1", []int{0, 1}}}, ""},
		{"no publisher", []string{"n1"}, 3, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &publisherNodes{leaders: tc.leaders, nodes: tc.nodes}
			for _, pb := range tc.pubs {
				p.add(pb.server, pb.streams)
			}
			got := p.note()
			if tc.want == "" {
				if got != "" {
					t.Fatalf("note %q, want none", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("note %q\nwant it to contain %q", got, tc.want)
			}
		})
	}
}

// TestPublishNotesWherePublishersLanded: on a 3-node cluster the
// Publish scenario's notes count the publishers' connections per node,
// one per VU.
func TestPublishNotesWherePublishersLanded(t *testing.T) {
	o, env, err := open(t, family(t, "--nats-nodes", "3", "--nats-async-window", "10"), "", 4, ScenarioPublish)
	if err != nil {
		t.Fatal(err)
	}
	runOpened(t, o, env, step{ScenarioPublish, iterations(4, 4)})
	joined := strings.Join(o.Scenarios[ScenarioPublish].(*publishScenario).Notes(), "\n")
	m := regexp.MustCompile(`publisher connections per node: ([^;]+); (\d+)% of the publishes go straight`).FindStringSubmatch(joined)
	if m == nil {
		t.Fatalf("no note on the publishers' nodes:\n%s", joined)
	}
	total := 0
	for _, part := range strings.Split(m[1], ", ") {
		f := strings.Fields(part)
		n, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			t.Fatalf("bad count in %q", m[1])
		}
		total += n
	}
	if total != 4 {
		t.Errorf("%d publisher connections counted, want 4 (one per VU): %s", total, m[0])
	}
}
