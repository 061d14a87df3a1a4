package k6js

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
)

func TestOptionsScenarios(t *testing.T) {
	d := func(x time.Duration) *time.Duration { return &x }
	n := func(x int64) *int64 { return &x }
	tests := []struct {
		name    string
		opts    string
		ov      Overrides
		want    []string // name executor describe
		wantErr string
	}{
		{name: "k6 default: one iteration of one VU", opts: `{}`, want: []string{"default " + engine.SharedIterations}},
		{name: "vus and duration", opts: `{"vus": 10, "duration": "30s"}`, want: []string{"default " + engine.ConstantVUs}},
		{name: "iterations", opts: `{"vus": 2, "iterations": 10}`, want: []string{"default " + engine.SharedIterations}},
		{name: "stages", opts: `{"stages": [{"duration": "10s", "target": 5}]}`, want: []string{"default " + engine.RampingVUs}},
		{name: "duration in ms", opts: `{"vus": 1, "duration": 1500}`, want: []string{"default " + engine.ConstantVUs}},
		{name: "scenarios keep their order", opts: `{"scenarios": {"b": {"executor": "constant-arrival-rate", "rate": 5, "duration": "1s", "preAllocatedVUs": 2}, "a": {"executor": "per-vu-iterations", "vus": 1, "iterations": 1}}}`,
			want: []string{"b " + engine.ConstantArrivalRate, "a " + engine.PerVUIterations}},
		{name: "flags replace scenarios as in k6", opts: `{"scenarios": {"a": {"executor": "per-vu-iterations"}}}`, ov: Overrides{VUs: n(3), Duration: d(time.Second)},
			want: []string{"default " + engine.ConstantVUs}},
		{name: "all six executors", opts: `{"scenarios": {
			"c": {"executor": "constant-vus", "vus": 1, "duration": "1s"},
			"r": {"executor": "ramping-vus", "startVUs": 0, "stages": [{"duration": "1s", "target": 2}]},
			"p": {"executor": "per-vu-iterations", "vus": 1, "iterations": 2},
			"s": {"executor": "shared-iterations", "vus": 1, "iterations": 2},
			"ca": {"executor": "constant-arrival-rate", "rate": 2, "timeUnit": "1s", "duration": "1s", "preAllocatedVUs": 1, "maxVUs": 2},
			"ra": {"executor": "ramping-arrival-rate", "startRate": 1, "timeUnit": "1s", "preAllocatedVUs": 1, "stages": [{"duration": "1s", "target": 3}]}}}`,
			want: []string{"c " + engine.ConstantVUs, "r " + engine.RampingVUs, "p " + engine.PerVUIterations, "s " + engine.SharedIterations, "ca " + engine.ConstantArrivalRate, "ra " + engine.RampingArrivalRate}},
		{name: "unknown option", opts: `{"hosts": {}}`, wantErr: `option "hosts" is not supported`},
		{name: "unknown scenario option", opts: `{"scenarios": {"a": {"executor": "constant-vus", "gracefulRampDown": "1s"}}}`, wantErr: `option "gracefulRampDown" is not supported`},
		{name: "executor field mismatch", opts: `{"scenarios": {"a": {"executor": "constant-vus", "rate": 1}}}`, wantErr: `has no option "rate"`},
		{name: "missing executor", opts: `{"scenarios": {"a": {"vus": 1}}}`, wantErr: "executor is required"},
		{name: "scenarios with shortcuts", opts: `{"vus": 2, "scenarios": {"a": {"executor": "constant-vus", "vus": 1, "duration": "1s"}}}`, wantErr: "cannot be combined"},
		{name: "bad duration", opts: `{"vus": 1, "duration": "soon"}`, wantErr: "not a duration"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := parseOptions("s.js", []byte(tc.opts))
			var scs []Scenario
			if err == nil {
				scs, err = o.scenarios(tc.ov)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range scs {
				got = append(got, s.Name+" "+s.Config.Executor)
				if err := s.Config.Validate(); err != nil {
					t.Errorf("%s: invalid config: %v", s.Name, err)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCheckNamesScan(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`(0, import_k6.check)(res, {"status is 200": (r) => r.status === 200, ok: (r) => true});`, "ok|status is 200"},
		{`check(res, { 'a, b': (r) => f(r, {x: 1}), "c": 1 })`, "a, b|c"},
		{`check(res, cond)`, ""},
		{`check(f(a, b), { "after nested call": true })`, "after nested call"},
	} {
		got := strings.Join(objectKeysOfSecondArg(tc.src[strings.Index(tc.src, "check")+len("check"):][strings.Index(tc.src[strings.Index(tc.src, "check")+len("check"):], "(")+1:]), "|")
		sorted := strings.Split(got, "|")
		if got != "" {
			for i := range sorted {
				for j := i + 1; j < len(sorted); j++ {
					if sorted[j] < sorted[i] {
						sorted[i], sorted[j] = sorted[j], sorted[i]
					}
				}
			}
			got = strings.Join(sorted, "|")
		}
		if got != tc.want {
			t.Errorf("%s: keys %q, want %q", tc.src, got, tc.want)
		}
	}
}
