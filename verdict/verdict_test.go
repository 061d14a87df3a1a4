package verdict

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// TestDecide has one case per rule of the package comment, each next to
// the case just inside its limit, so that moving a limit (1% to 50%, 5% to
// 50%) or dropping a rule fails a case.
func TestDecide(t *testing.T) {
	rate := func(c Counters) Counters { // an arrival-rate scenario, 10 s
		c.ScheduledOver = 10 * time.Second
		return c
	}
	cases := []struct {
		name   string
		c      Counters
		status Status
		rules  []Rule
		text   string // in the first reason
	}{
		{"passed", Counters{Ops: 1000, Failed: 10, What: "requests"}, Passed, nil, ""},
		{"no operation measured", Counters{What: "iterations"}, Failed, []Rule{RuleNoSuccess}, "no iterations completed"},
		{"every operation failed", Counters{Ops: 2664, Failed: 2664, What: "requests", Top: metrics.ErrorCount{Msg: "HTTP 404 Not Found", N: 2664}},
			Failed, []Rule{RuleNoSuccess}, "all 2664 requests failed"},
		{"wrong answers", Counters{Ops: 100, What: "requests", Wrong: 3}, Failed, []Rule{RuleWrongAnswer}, "3 wrong answers"},
		{"failed operations above 1%", Counters{Ops: 1000, Failed: 11, What: "requests"}, Degraded, []Rule{RuleFailedOps}, "1.10% of 1000 requests failed"},
		{"dropped above 1% of the schedule", rate(Counters{Ops: 1000, Scheduled: 1000, Started: 989, Dropped: 11}),
			Degraded, []Rule{RuleDropped}, "11 dropped iterations (1.10% of the 1000 scheduled)"},
		{"dropped at 1% of the schedule", rate(Counters{Ops: 1000, Scheduled: 1000, Started: 990, Dropped: 10}), Passed, nil, ""},
		{"rate missed by more than 5%", rate(Counters{Ops: 940, Scheduled: 1000, Started: 940}),
			Degraded, []Rule{RuleRateMissed}, "rate missed: 94.00/s of the 100/s asked (94.00%)"},
		{"rate reached within 5%", rate(Counters{Ops: 960, Scheduled: 1000, Started: 960}), Passed, nil, ""},
		{"kafka.Produce --rate 20000 at 6680/s", Counters{Ops: 66800, What: "requests", Scheduled: 200000, ScheduledOver: 10 * time.Second, Started: 66800, Dropped: 132968},
			Degraded, []Rule{RuleRateMissed, RuleDropped}, "rate missed: 6680/s of the 20000/s asked (33.40%)"},
		{"target unreachable: few errors, VUs backing off", Counters{Ops: 8645, Failed: 58, What: "requests",
			Unreachable: metrics.UnreachableNote + " VUs spent 77% of their time waiting"}, Degraded, []Rule{RuleUnreachable}, "target unreachable: VUs spent 77%"},
		{"iterations ran into the graceful stop", Counters{Ops: 500, What: "requests", Cut: 1}, Degraded, []Rule{RuleGraceful}, "1 iterations ran into the end of the graceful stop"},
		{"IC9: nothing but cut iterations", Counters{What: "iterations", Cut: 10, Started: 10}, Failed, []Rule{RuleNoSuccess, RuleGraceful}, "no iterations completed"},
		{"failed before degraded", Counters{Ops: 100, Failed: 2, What: "requests", Wrong: 1}, Failed, []Rule{RuleWrongAnswer, RuleFailedOps}, "1 wrong answers"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := Decide(tc.c)
			if v.Status != tc.status {
				t.Errorf("status %s, want %s (%+v)", v.Status, tc.status, v.Reason)
			}
			var rules []Rule
			for _, r := range v.Reason {
				rules = append(rules, r.Rule)
			}
			if strings.Join(ruleStrings(rules), ",") != strings.Join(ruleStrings(tc.rules), ",") {
				t.Errorf("rules %v, want %v", rules, tc.rules)
			}
			if tc.text != "" && !strings.Contains(v.Reason[0].Text, tc.text) {
				t.Errorf("first reason %q, want it to contain %q", v.Reason[0].Text, tc.text)
			}
		})
	}
}

func ruleStrings(rs []Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

// TestCountersOf reads the verdict's counters from a snapshot as the
// outputs write it: requests_failed's passes are the failures, answer
// check failures are wrong answers, cut iterations count as started.
func TestCountersOf(t *testing.T) {
	sc := &metrics.ScenarioSnapshot{
		Name: "go.Go1Step",
		Counters: map[string]int64{metrics.Requests: 100, metrics.Iterations: 100, metrics.Errors: 7,
			metrics.DroppedIterations: 4},
		Rates: map[string]*metrics.Rate{
			metrics.RequestsFailed:                    {Passes: 7, Fails: 93},
			metrics.CheckMetric(AnswerCheck).Name:     {Passes: 5, Fails: 2},
			metrics.CheckMetric("status is 200").Name: {Passes: 1, Fails: 9},
		},
		Errors:    map[string]int64{"a": 5, "b": 2},
		Scheduled: 110, ScheduledOver: time.Second, Cut: 3,
	}
	c := CountersOf(sc)
	want := Counters{Ops: 100, Failed: 7, What: "requests", Wrong: 2, Scheduled: 110, ScheduledOver: time.Second,
		Started: 103, Dropped: 4, Cut: 3, Top: metrics.ErrorCount{Msg: "a", N: 5}}
	if c != want {
		t.Errorf("CountersOf = %+v\nwant %+v", c, want)
	}
	// No request: the iterations are the operations, errors their failures.
	sc = &metrics.ScenarioSnapshot{Counters: map[string]int64{metrics.Iterations: 10, metrics.Errors: 10}}
	if c := CountersOf(sc); c.Ops != 10 || c.Failed != 10 || c.What != "iterations" {
		t.Errorf("CountersOf without requests = %+v", c)
	}
}

// TestOf: the run's status is its worst scenario's, and FailLine names
// each failed scenario with its top error.
func TestOf(t *testing.T) {
	snap := &metrics.Snapshot{Scenarios: []*metrics.ScenarioSnapshot{
		{Name: "ok", Counters: map[string]int64{metrics.Requests: 10}, Rates: map[string]*metrics.Rate{metrics.RequestsFailed: {Fails: 10}}},
		{Name: "http.Request", Counters: map[string]int64{metrics.Requests: 5, metrics.Errors: 5},
			Rates: map[string]*metrics.Rate{metrics.RequestsFailed: {Passes: 5}}, Errors: map[string]int64{"HTTP 404 Not Found": 5}},
	}}
	r := Of(snap)
	if r.Status != Failed || !r.Failed() {
		t.Fatalf("run status %s, want failed", r.Status)
	}
	if s := r.Scenario("ok"); s.Status != Passed {
		t.Errorf("ok: %s", s.Status)
	}
	want := "run failed: http.Request: no successful operation: all 5 requests failed; top error (5×): HTTP 404 Not Found"
	if got := r.FailLine(); got != want {
		t.Errorf("FailLine = %q\nwant %q", got, want)
	}
	if got := r.Scenario("http.Request").Summary(); got != "failed: no successful operation" {
		t.Errorf("Summary = %q", got)
	}
}
