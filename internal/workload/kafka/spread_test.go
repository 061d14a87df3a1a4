package kafka

import (
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// TestPerTopicFiguresAreMeasured: a broker that answers the produce
// requests of one topic 5 ms late. With as many VUs as topics each VU
// writes one topic, so the slow topic gets fewer acknowledgements (its
// count is measured, not the total over the topics); with fewer VUs the
// messages visit the topics in turn and the counts are equal by
// construction, which the note says, while the per-topic latency still
// names the slow topic.
//
// Mutation caught: the shared round-robin pick for every VU gives equal
// counts with 4 VUs (the first case), as before the per-VU pick.
func TestPerTopicFiguresAreMeasured(t *testing.T) {
	for _, tc := range []struct {
		name     string
		vus      int
		measured bool
		how      string
	}{
		{"a VU per topic", 4, true, "each VU writes one topic (VU i → topic i mod 2), so the spread is measured"},
		{"one VU for two topics", 1, false, "fewer VUs (1) than topics: the messages visit the topics in turn, so per-topic counts are equal by construction"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := embedded(t, 1)
			// Produce v13 names topics by id: create them first to know it.
			adm := adminFor(t, e)
			if _, err := adm.CreateTopics(t.Context(), 1, 1, nil, "slow-0", "slow-1"); err != nil {
				t.Fatal(err)
			}
			td, err := adm.ListTopics(t.Context(), "slow-1")
			if err != nil {
				t.Fatal(err)
			}
			slowID := td["slow-1"].ID
			e.Cluster.ControlKey(int16(kmsg.Produce), func(req kmsg.Request) (kmsg.Response, error, bool) {
				e.Cluster.KeepControl()
				for _, tp := range req.(*kmsg.ProduceRequest).Topics {
					if tp.Topic == "slow-1" || tp.TopicID == slowID {
						e.Cluster.SleepControl(func() { time.Sleep(5 * time.Millisecond) })
						break
					}
				}
				return nil, nil, false
			})
			res := runSteps(t, family(t, "--topics", "2", "--topic-prefix", "slow"), e.URL(),
				step{ScenarioProduce, engine.Config{Executor: engine.ConstantVUs, VUs: int64(tc.vus), Duration: 1500 * time.Millisecond}})
			p := res.sc(ScenarioProduce)
			fast, slow := p.Counters[msgload.Tagged(MetricMessages, "topic", "slow-0")], p.Counters[msgload.Tagged(MetricMessages, "topic", "slow-1")]
			if slow == 0 {
				t.Fatalf("no message on the slow topic (errors %v)", p.Errors)
			}
			if tc.measured && fast < 3*slow {
				t.Errorf("fast topic %d, slow topic %d messages: want the slow topic's own, far fewer", fast, slow)
			}
			if !tc.measured && (fast-slow > 1 || slow-fast > 1) {
				t.Errorf("fast topic %d, slow topic %d messages: want equal, one VU visits them in turn", fast, slow)
			}
			notes := strings.Join(res.opened.Scenarios[ScenarioProduce].(*produceScenario).Notes(), "\n")
			if !strings.Contains(notes, tc.how) {
				t.Errorf("notes lack %q:\n%s", tc.how, notes)
			}
			// Either way each topic's latency is its own: the slow topic's
			// mean is the highest.
			const lat = "mean publish latency per topic (each from its own acknowledgements): min "
			i := strings.Index(notes, lat)
			if i < 0 || !strings.HasSuffix(strings.SplitN(notes[i:], "\n", 2)[0], "(slow-1)") {
				t.Errorf("the per-topic latency does not name slow-1 the slowest:\n%s", notes)
			}
			t.Log(notes)
		})
	}
}
