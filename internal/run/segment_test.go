package run

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/plan"
)

func TestParseStartAt(t *testing.T) {
	now := time.Date(2025, 1, 2, 15, 4, 5, 0, time.UTC)
	tests := []struct {
		in      string
		want    time.Time
		wantErr bool
	}{
		{in: "2025-01-02T15:05:00Z", want: time.Date(2025, 1, 2, 15, 5, 0, 0, time.UTC)},
		{in: "2025-01-02T16:05:00.5+01:00", want: time.Date(2025, 1, 2, 15, 5, 0, 5e8, time.UTC)},
		{in: "now", want: now},
		{in: "now+30s", want: now.Add(30 * time.Second)},
		{in: " now+1m30s ", want: now.Add(90 * time.Second)},
		{in: "now-5s", wantErr: true},
		{in: "now+soon", wantErr: true},
		{in: "tomorrow", wantErr: true},
		{in: "2025-01-02 15:05", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseStartAt(tt.in, now)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseStartAt(%q) = %v, want an error", tt.in, got)
				}
				return
			}
			if err != nil || !got.Equal(tt.want) {
				t.Fatalf("ParseStartAt(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func segmentPlanFor(configs map[string]engine.Config, names ...string) Plan {
	var p Plan
	for _, n := range names {
		p.Scenarios = append(p.Scenarios, Scenario{Name: n, Config: configs[n]})
	}
	return p
}

func TestWithSegment(t *testing.T) {
	cvu := engine.Config{Executor: engine.ConstantVUs, VUs: 3, Duration: 10 * time.Second}.Defaults()
	shared := engine.Config{Executor: engine.SharedIterations, VUs: 2, Iterations: 100}.Defaults()
	whole := segmentPlanFor(map[string]engine.Config{"a": cvu, "b": shared}, "a", "b")
	p, err := whole.WithSegment(executor.Segment{Index: 2, Count: 4})
	if err != nil {
		t.Fatal(err)
	}
	if p.segmentName() != "2/4" {
		t.Errorf("segment %q", p.segmentName())
	}
	if c := p.Scenarios[0].Config; c.VUs != 1 || c.Executor != engine.ConstantVUs { // 3 VUs over 4: 1,1,1,0
		t.Errorf("a = %+v", c)
	}
	if c := p.Scenarios[1].Config; c.Iterations != 25 || c.VUs != 1 {
		t.Errorf("b = %+v, want 25 iterations on 1 VU", c)
	}
	if c := whole.Scenarios[0].Config; c.VUs != 3 || whole.segmentName() != "" {
		t.Errorf("WithSegment changed the plan it was called on: %+v", whole)
	}

	idle, err := segmentPlanFor(map[string]engine.Config{"a": cvu}, "a").WithSegment(executor.Segment{Index: 4, Count: 4})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(SegmentLines(idle), "\n")
	if !strings.Contains(lines, "no share in this segment") || !strings.Contains(lines, "idles 10s") {
		t.Errorf("segment plan does not say the scenario idles:\n%s", lines)
	}
}

func TestCheckStartAt(t *testing.T) {
	now := time.Now()
	if err := CheckStartAt(now.Add(-time.Second), "now-ish", now); err != nil {
		t.Errorf("a second ago: %v", err)
	}
	err := CheckStartAt(time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC), "2001-01-01T00:00:00Z", now)
	if !usage.Is(err) || !strings.Contains(err.Error(), "in the past") {
		t.Errorf("2001: %v", err)
	}
}

func TestWaitStartAt(t *testing.T) {
	deps := Deps{Deps: plan.Deps{Info: &bytes.Buffer{}}}
	// No start time: the clock starts now.
	if err := waitStartAt(context.Background(), deps, time.Time{}); err != nil {
		t.Fatalf("no start-at: %v", err)
	}
	// A time just passed still counts.
	if err := waitStartAt(context.Background(), deps, time.Now().Add(-time.Second)); err != nil {
		t.Fatalf("just passed: %v", err)
	}
	// Long passed (target preparation took too long): usage error.
	if err := waitStartAt(context.Background(), deps, time.Now().Add(-time.Minute)); !usage.Is(err) || !strings.Contains(err.Error(), "passed") {
		t.Fatalf("long passed: %v", err)
	}
	// Waiting ends at the time, or at Ctrl+C.
	soon := time.Now().Add(150 * time.Millisecond)
	if err := waitStartAt(context.Background(), deps, soon); err != nil || time.Now().Before(soon) {
		t.Fatalf("wait: %v (now %v)", err, time.Now())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := waitStartAt(ctx, deps, time.Now().Add(time.Hour))
	var ie *InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("interrupted wait: %v", err)
	}
}
