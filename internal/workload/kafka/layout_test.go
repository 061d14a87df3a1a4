package kafka

import (
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/engine"
)

// TestPartitionsFollowTheBrokers: on a --target cluster the load topics
// get one partition per broker unless --partitions is given, their leaders
// spread over the brokers, the notes show the leaders per node and say
// when partitions or VUs, not the cluster, limit a node sweep; the layout
// samples the sweep reads are what the cluster holds.
//
// Mutation caught: without the broker count the high-throughput profile
// writes 1 partition on 3 brokers ("only 1 of 3 nodes lead").
func TestPartitionsFollowTheBrokers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		vus   int
		want  string
		parts int64
	}{
		{"follow", nil, 4, "3 partition(s) on 3 node(s); leaders per node: b0 ", 3},
		{"given", []string{"--partitions", "1"}, 4, "1 partition(s) on 3 node(s); leaders per node: b0 ", 1},
		{"one VU", []string{"--topic-prefix", "onevu"}, 1, "3 partition(s) on 3 node(s); leaders per node: b0 ", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := embedded(t, 3)
			res := runSteps(t, family(t, tc.args...), e.URL(), step{ScenarioProduce, engine.Config{Executor: engine.SharedIterations, VUs: int64(tc.vus), Iterations: 30}})
			notes := strings.Join(res.opened.Notes, "\n")
			if !strings.Contains(notes, tc.want) {
				t.Fatalf("notes lack %q:\n%s", tc.want, notes)
			}
			sc := res.sc(ScenarioProduce)
			if got := int64(sc.Trends[MetricPartitions].Hist.Max()); got != tc.parts {
				t.Errorf("load_partitions %d, want %d", got, tc.parts)
			}
			// The leaders are the broker's placement (kfake: random, Kafka:
			// round-robin); what the notes and leader_nodes say is what the
			// cluster holds.
			md, err := adminFor(t, e).Metadata(t.Context(), "stampede-0", "onevu-0")
			if err != nil {
				t.Fatal(err)
			}
			lead := map[int32]bool{}
			for _, td := range md.Topics {
				for _, p := range td.Partitions {
					lead[p.Leader] = true
				}
			}
			if got := int(sc.Trends[MetricLeaderNodes].Hist.Max()); got != len(lead) {
				t.Errorf("leader_nodes %d, the cluster has %d leaders", got, len(lead))
			}
			limit := strings.Contains(notes, "nodes lead a load partition")
			if limit != (len(lead) < 3) {
				t.Errorf("%d of 3 nodes lead, and the note's limit is said: %t", len(lead), limit)
			}
			// The depth note: VUs × window messages in flight, against the
			// fastest acknowledgement.
			sn := strings.Join(res.opened.Scenarios[ScenarioProduce].(*produceScenario).Notes(), "\n")
			if want := sprintf("latency and in-flight depth: %d messages in flight", tc.vus); !strings.Contains(sn, want) {
				t.Errorf("scenario notes lack %q:\n%s", want, sn)
			}
			if tc.name == "follow" && !strings.Contains(notes, "(one partition per broker in each topic: --partitions overrides)") {
				t.Errorf("the note does not say the partitions followed the brokers:\n%s", notes)
			}
			if tc.name == "one VU" && len(lead) == 3 && !strings.Contains(notes, "1 VU(s) for 3 nodes: the clients, not the cluster, limit") {
				t.Errorf("one VU for 3 nodes is not named as the limit:\n%s", notes)
			}
		})
	}
}

// TestEmbeddedSpreadsLeaders: on the embedded cluster the load topics get
// one partition per broker unless --partitions is given, and stampede
// places their leaders one per broker (kfake picks them at random); the
// notes show the leaders per broker as read back and say that the
// stand-in, not the cluster, limits a curve over --brokers.
//
// Mutation caught: without Embedded.SpreadLeaders kfake's random leaders
// leave a broker without a leader in most runs of "three brokers" (the
// per-broker counts differ from 1, 1, 1).
func TestEmbeddedSpreadsLeaders(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		want    string
		leaders int64
	}{
		{"one broker", []string{"--brokers", "1"}, "1 partition(s) on 1 node(s); leaders per node: b0 1 (partition k of the load led by broker k mod N)", 1},
		{"three brokers", []string{"--brokers", "3"}, "3 partition(s) on 3 node(s); leaders per node: b0 1, b1 1, b2 1 (one partition per broker", 3},
		{"five brokers", []string{"--brokers", "5"}, "5 partition(s) on 5 node(s); leaders per node: b0 1, b1 1, b2 1, b3 1, b4 1 (", 5},
		{"two topics of two partitions", []string{"--brokers", "3", "--topics", "2", "--partitions", "2"}, "4 partition(s) on 3 node(s); leaders per node: b0 2, b1 1, b2 1 (partition k of the load led by broker k mod N)", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runSteps(t, family(t, tc.args...), "", step{ScenarioProduce, engine.Config{Executor: engine.SharedIterations, VUs: 5, Iterations: 20}})
			notes := strings.Join(res.opened.Notes, "\n")
			for _, want := range []string{tc.want, "kfake leaders: kfake picks each partition's leader at random", "limited by the stand-in", "brokers working in parallel"} {
				if !strings.Contains(notes, want) {
					t.Errorf("notes lack %q:\n%s", want, notes)
				}
			}
			if strings.Contains(notes, "nodes lead a load partition") {
				t.Errorf("the notes name a layout limit for a spread layout:\n%s", notes)
			}
			if got := int64(res.sc(ScenarioProduce).Trends[MetricLeaderNodes].Hist.Max()); got != tc.leaders {
				t.Errorf("leader_nodes %d, want %d", got, tc.leaders)
			}
		})
	}
}
