package threshold

import (
	"math"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/outputtest"
)

func TestEvaluate(t *testing.T) {
	snap := outputtest.Snapshot(t)
	read, write := snap.Scenario(outputtest.Read), snap.Scenario(outputtest.Write)
	p95 := func(sc *metrics.ScenarioSnapshot) float64 {
		return float64(sc.Trends[metrics.ResponseTime].Hist.ValueAtPercentile(95)) / 1000
	}
	writeErrors := float64(write.Counters[metrics.Errors])

	tests := []struct {
		name      string
		spec      string
		wantValue float64
		wantPass  bool
		wantErr   string
	}{
		{"read p95 in ms passes", "responseTime{scenario:go.Go2Step}: p(95)<200", p95(read), true, ""},
		{"write p95 in ms fails", "responseTime{scenario:insert.InsertPersonScenario}: p(95)<200", p95(write), false, ""},
		{"overall requests", "requests: count==4200", 4200, true, ""},
		{"overall request rate per second of the run", "requests: rate>98", 4200 / 42.5, true, ""},
		{"scenario iteration rate", "iterations{scenario:go.Go2Step}: rate==100", 100, true, ""},
		{"checks of the whole run", "checks: rate>0.99", 1 - (4+writeErrors)/4200, false, ""},
		{"errors of the write scenario", "errors{scenario:insert.InsertPersonScenario}: count<1", writeErrors, false, ""},
		{"no drops", "dropped_iterations: count==0", 0, true, ""},
		{"rows are plain numbers", "rows{scenario:insert.InsertPersonScenario}: min==300", 300, true, ""},
		{"max is exact-ish in ms", "responseTime: max<2000", float64(write.Trends[metrics.ResponseTime].Hist.Max()) / 1000, true, ""},
		{"gauge", "vus_max: value==400", 400, true, ""},
		{"custom counter", "retries: count==40", 40, true, ""},
		{"unknown scenario fails with a reason", "responseTime{scenario:go.Go9Step}: p(95)<200", 0, false, `unknown scenario "go.Go9Step" (ran: go.Go2Step, insert.InsertPersonScenario)`},
		{"no samples passes as in k6", "http_req_duration: p(95)<200", 0, true, ""},
		{"wrong aggregation at evaluation", "checks: count>1", 0, false, "checks is a rate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			th, err := Parse(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			rs := Evaluate(snap, []Threshold{th})
			if len(rs) != 1 {
				t.Fatalf("%d results, want 1", len(rs))
			}
			r := rs[0]
			if r.Metric != th.Key() || r.Expr != th.Exprs[0].Source {
				t.Errorf("result names %q %q, want %q %q", r.Metric, r.Expr, th.Key(), th.Exprs[0].Source)
			}
			if math.Abs(r.Value-tc.wantValue) > 1e-9 {
				t.Errorf("value %v, want %v", r.Value, tc.wantValue)
			}
			if r.Pass != tc.wantPass {
				t.Errorf("pass %v, want %v (%s)", r.Pass, tc.wantPass, r)
			}
			if tc.wantErr == "" && r.Err != nil || tc.wantErr != "" && (r.Err == nil || !strings.Contains(r.Err.Error(), tc.wantErr)) {
				t.Errorf("err %v, want %q", r.Err, tc.wantErr)
			}
			if noData := strings.HasPrefix(tc.name, "no samples"); r.NoData != noData || noData && !strings.Contains(r.String(), "no samples: passes, as in k6") {
				t.Errorf("NoData %v, want %v (%s)", r.NoData, noData, r)
			}
			if Failed(rs) == tc.wantPass {
				t.Errorf("Failed = %v with pass %v", Failed(rs), tc.wantPass)
			}
		})
	}
}

func TestEvaluateKeepsOrderAcrossExpressions(t *testing.T) {
	snap := outputtest.Snapshot(t)
	ts, err := ParseAll([]string{"responseTime: p(95)<200; p(99)<10000", "checks: rate>0.5"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range Evaluate(snap, ts) {
		got = append(got, r.Metric+" "+r.Expr)
	}
	if want := "responseTime p(95)<200|responseTime p(99)<10000|checks rate>0.5"; strings.Join(got, "|") != want {
		t.Errorf("results %q, want %q", strings.Join(got, "|"), want)
	}
}
