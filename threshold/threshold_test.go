package threshold

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	p := func(n float64) Agg { return Agg{Name: "p", P: n} }
	tests := []struct {
		name string
		spec string
		want Threshold
	}{
		{"seed example", "responseTime: p(95)<200",
			Threshold{Metric: "responseTime", Exprs: []Expr{{"p(95)<200", p(95), Lt, 200}}}},
		{"k6 without space", "responseTime:p(95)<200",
			Threshold{Metric: "responseTime", Exprs: []Expr{{"p(95)<200", p(95), Lt, 200}}}},
		{"design doc form without colon", "responseTime p(95)<200",
			Threshold{Metric: "responseTime", Exprs: []Expr{{"p(95)<200", p(95), Lt, 200}}}},
		{"spaces around the operator", "  latency :  avg  <=  12.5 ",
			Threshold{Metric: "latency", Exprs: []Expr{{"avg  <=  12.5", Agg{Name: "avg"}, Le, 12.5}}}},
		{"fractional percentile", "responseTime: p(99.9) < 1000",
			Threshold{Metric: "responseTime", Exprs: []Expr{{"p(99.9) < 1000", p(99.9), Lt, 1000}}}},
		{"several expressions", "responseTime: p(95)<200; med<50;max<2000",
			Threshold{Metric: "responseTime", Exprs: []Expr{
				{"p(95)<200", p(95), Lt, 200}, {"med<50", Agg{Name: "med"}, Lt, 50}, {"max<2000", Agg{Name: "max"}, Lt, 2000}}}},
		{"scenario submetric", "responseTime{scenario:go.Go1Step}: p(99)<300",
			Threshold{Metric: "responseTime", Scenario: "go.Go1Step", Exprs: []Expr{{"p(99)<300", p(99), Lt, 300}}}},
		{"k6 tagged submetric", "http_req_duration{expected_response:true}: p(95)<200",
			Threshold{Metric: "http_req_duration{expected_response:true}", Exprs: []Expr{{"p(95)<200", p(95), Lt, 200}}}},
		{"tagged submetric of one scenario", "http_req_duration{expected_response:true,scenario:http.Request}: p(95)<200",
			Threshold{Metric: "http_req_duration{expected_response:true}", Scenario: "http.Request", Exprs: []Expr{{"p(95)<200", p(95), Lt, 200}}}},
		{"scenario submetric with spaces and quotes", `responseTime{ scenario: "kafka.Produce" } p(99)<300`,
			Threshold{Metric: "responseTime", Scenario: "kafka.Produce", Exprs: []Expr{{"p(99)<300", p(99), Lt, 300}}}},
		{"checks rate", "checks: rate>0.99",
			Threshold{Metric: "checks", Exprs: []Expr{{"rate>0.99", Agg{Name: "rate"}, Gt, 0.99}}}},
		{"counter", "dropped_iterations: count==0",
			Threshold{Metric: "dropped_iterations", Exprs: []Expr{{"count==0", Agg{Name: "count"}, Eq, 0}}}},
		{"k6 triple equals", "errors: count===0",
			Threshold{Metric: "errors", Exprs: []Expr{{"count===0", Agg{Name: "count"}, Eq, 0}}}},
		{"gauge not equal", "vus_max: value!=0",
			Threshold{Metric: "vus_max", Exprs: []Expr{{"value!=0", Agg{Name: "value"}, Ne, 0}}}},
		{"greater or equal, negative and exponent", "rows: min>=-1e3",
			Threshold{Metric: "rows", Exprs: []Expr{{"min>=-1e3", Agg{Name: "min"}, Ge, -1000}}}},
		{"empty expressions skipped", "iterations: rate>100;;",
			Threshold{Metric: "iterations", Exprs: []Expr{{"rate>100", Agg{Name: "rate"}, Gt, 100}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Parse(%q) =\n %+v\nwant\n %+v", tc.spec, got, tc.want)
			}
			// String round-trips.
			again, err := Parse(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Errorf("Parse(%q) = %+v, %v; want the same threshold", got.String(), again, err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, spec, want string
	}{
		{"empty", "", "missing metric name"},
		{"no metric", "p(95)<200", "missing metric name"},
		{"no metric after colon", ": p(95)<200", "missing metric name"},
		{"no expression", "responseTime:", "no expression"},
		{"only separators", "responseTime: ; ;", "no expression"},
		{"no operator", "responseTime: p(95) 200", "no comparison"},
		{"bad operator", "responseTime: p(95)=<200", `unknown comparison "=<"`},
		{"single equals", "responseTime: p(95)=200", `unknown comparison "="`},
		{"unknown aggregation", "responseTime: p95<200", `unknown aggregation "p95"`},
		{"percentile over 100", "responseTime: p(101)<200", "bad percentile"},
		{"percentile zero", "responseTime: p(0)<200", "bad percentile"},
		{"percentile not a number", "responseTime: p(x)<200", "bad percentile"},
		{"missing aggregation", "responseTime: <200", "missing aggregation"},
		{"value with unit", "responseTime: p(95)<200ms", "is not a number (time trends take ms"},
		{"value missing", "responseTime: p(95)<", "is not a number"},
		{"value NaN", "responseTime: avg<NaN", "is not a number"},
		{"tag without value", "responseTime{scenario}: p(95)<200", "want {TAG:VALUE}"},
		{"empty scenario", "responseTime{scenario:}: p(95)<200", "want {TAG:VALUE}"},
		{"two scenarios", "responseTime{scenario:a,scenario:b}: p(95)<200", "two scenario tags"},
		{"unclosed brace", "responseTime{scenario:a: p(95)<200", "unclosed"},
		{"junk after the name", "responseTime(1): p(95)<200", `unexpected "("`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.spec)
			if err == nil {
				t.Fatalf("Parse(%q) succeeded", tc.spec)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("Parse(%q) error %q, want one line containing %q", tc.spec, msg, tc.want)
			}
		})
	}
}

func TestParseAllMergesRepeatedMetrics(t *testing.T) {
	ts, err := ParseAll([]string{
		"responseTime: p(95)<200",
		"checks: rate>0.99",
		"responseTime: p(99)<500; p(95)<200",
		"responseTime{scenario:go.Go1Step}: avg<10",
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, th := range ts {
		got = append(got, th.String())
	}
	want := []string{
		"responseTime: p(95)<200; p(99)<500",
		"checks: rate>0.99",
		"responseTime{scenario:go.Go1Step}: avg<10",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseAll = %q, want %q", got, want)
	}
	if _, err := ParseAll([]string{"responseTime: p(95)<200", "bad"}); err == nil {
		t.Error("ParseAll accepted a bad spec")
	}
}

func TestOpHolds(t *testing.T) {
	tests := []struct {
		op   Op
		a, b float64
		want bool
	}{
		{Lt, 1, 2, true}, {Lt, 2, 2, false},
		{Le, 2, 2, true}, {Le, 3, 2, false},
		{Gt, 3, 2, true}, {Gt, 2, 2, false},
		{Ge, 2, 2, true}, {Ge, 1, 2, false},
		{Eq, 2, 2, true}, {Eq, 1, 2, false},
		{Ne, 1, 2, true}, {Ne, 2, 2, false},
		{0, 1, 1, false},
	}
	for _, tc := range tests {
		if got := tc.op.Holds(tc.a, tc.b); got != tc.want {
			t.Errorf("%v %s %v = %v, want %v", tc.a, tc.op, tc.b, got, tc.want)
		}
	}
}
