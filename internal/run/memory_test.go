package run

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/plan"
)

func TestCheckMemory(t *testing.T) {
	vus := func(n int64) Scenario {
		return Scenario{Name: "s", Config: engine.Config{Executor: engine.ConstantVUs, VUs: n, Duration: time.Second}}
	}
	const gib = 1 << 30
	csv := []OutputSpec{{Kind: outputs.Requests}, {Kind: outputs.Series}}
	tests := []struct {
		name      string
		plan      Plan
		available int64
		wantErr   string
	}{
		{name: "unknown memory is not checked", plan: Plan{Plan: plan.Plan{Scenarios: []Scenario{vus(1e9)}, Outputs: csv}}, available: 0},
		{name: "fits", plan: Plan{Plan: plan.Plan{Scenarios: []Scenario{vus(1000)}, Outputs: csv}}, available: gib},
		{name: "too many", plan: Plan{Plan: plan.Plan{Scenarios: []Scenario{vus(1_000_000)}, Outputs: csv}}, available: gib,
			wantErr: "1,000,000 VUs need about 6.7 GiB of memory (≈7.0 KiB each) but 1.0 GiB is available: at most 74,898 VUs fit"},
		{name: "without the CSV a VU takes less", plan: Plan{Plan: plan.Plan{Scenarios: []Scenario{vus(1_000_000)}, Outputs: csv[1:]}}, available: gib,
			wantErr: "at most 87,381 VUs fit"},
		{name: "sequential scenarios need the largest", plan: Plan{Plan: plan.Plan{Scenarios: []Scenario{vus(60_000), vus(60_000)}, Outputs: csv}}, available: gib},
		{name: "concurrent scenarios need the sum", plan: Plan{Plan: plan.Plan{Scenarios: []Scenario{vus(60_000), vus(60_000)}, Concurrent: true, Outputs: csv}}, available: gib,
			wantErr: "120,000 VUs need about"},
		{name: "less than the reserve", plan: Plan{Plan: plan.Plan{Scenarios: []Scenario{vus(1)}, Outputs: csv}}, available: 100 << 20,
			wantErr: "at most 0 VUs fit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckMemory(tt.plan, outputs.New(), tt.available)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !usage.Is(err) {
				t.Fatalf("err = %v, want a usage error with %q", err, tt.wantErr)
			}
		})
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}
