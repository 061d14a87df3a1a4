package run

import (
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/threshold"
)

func TestCheckThresholdMetrics(t *testing.T) {
	reg := metrics.NewRegistry()
	reg.MustAdd(metrics.Def{Name: "kafka.bytes", Kind: metrics.KindCounter, Unit: metrics.UnitBytes})
	if _, err := metrics.RegisterHTTP(reg); err != nil {
		t.Fatal(err)
	}
	scenarios := []string{"go.Go1Step", "kafka.Produce"}
	tests := []struct {
		name, spec, want string // want "" means valid
	}{
		{"trend percentile", "responseTime: p(95)<200", ""},
		{"custom counter", "kafka.bytes: rate>1000000", ""},
		{"known scenario", "latency{scenario:go.Go1Step}: med<5", ""},
		{"gauge", "vus: value<=400", ""},
		{"k6 http duration", "http_req_duration: p(95)<200", ""},
		{"k6 expected responses", "http_req_duration{expected_response:true}: p(95)<200", ""},
		{"k6 failure rate", "http_req_failed: rate<0.01", ""},
		{"k6 request count", "http_reqs: count>0", ""},
		{"failure rate of every family", "requests_failed: rate<0.01", ""},
		{"unrecorded tag", "http_req_duration{status:200}: p(95)<200", "does not record the submetric http_req_duration{status:200} (tagged submetrics it records: http_req_duration{expected_response:true})"},
		{"unknown metric", "responseTim: p(95)<200", `unknown metric "responseTim" (known: `},
		{"rate of a trend", "responseTime: rate<200", "responseTime is a trend: rate does not apply (use avg, min, max, med, p(N))"},
		{"percentile of a counter", "iterations: p(95)<200", "iterations is a counter: p(95) does not apply (use count, rate)"},
		{"count of a rate", "checks: count>1", "checks is a rate: count does not apply (use rate)"},
		{"avg of a gauge", "vus_max: avg>1", "vus_max is a gauge"},
		{"unknown scenario", "responseTime{scenario:go.Go9Step}: p(95)<200", `unknown scenario "go.Go9Step" (running: go.Go1Step, kafka.Produce)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			th, err := threshold.Parse(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			err = checkThresholdMetrics([]threshold.Threshold{th}, reg, scenarios)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("checkThresholdMetrics(%q) = %v", tc.spec, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("checkThresholdMetrics(%q) = %v, want an error containing %q", tc.spec, err, tc.want)
			}
		})
	}
}
