package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/usage"
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
			got, err := parseStartAt(tt.in, now)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parseStartAt(%q) = %v, want an error", tt.in, got)
				}
				return
			}
			if err != nil || !got.Equal(tt.want) {
				t.Fatalf("parseStartAt(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func segmentPlanFor(segment, startAt string, configs map[string]engine.Config, names ...string) *runPlan {
	return &runPlan{flags: &runFlags{segment: segment, startAt: startAt}, names: names, configs: configs}
}

func TestApplySegment(t *testing.T) {
	cvu := engine.Config{Executor: engine.ConstantVUs, VUs: 3, Duration: 10 * time.Second}.Defaults()
	shared := engine.Config{Executor: engine.SharedIterations, VUs: 2, Iterations: 100}.Defaults()
	p := segmentPlanFor(" 2/4", "now+1m", map[string]engine.Config{"a": cvu, "b": shared}, "a", "b")
	if err := applySegment(p); err != nil {
		t.Fatal(err)
	}
	if p.flags.segment != "2/4" {
		t.Errorf("segment normalized to %q", p.flags.segment)
	}
	if _, err := time.Parse(time.RFC3339Nano, p.flags.startAt); err != nil {
		t.Errorf("start-at not resolved to an absolute time: %q", p.flags.startAt)
	}
	if c := p.configs["a"]; c.VUs != 1 || c.Executor != engine.ConstantVUs { // 3 VUs over 4: 1,1,1,0
		t.Errorf("a = %+v", c)
	}
	if c := p.configs["b"]; c.Iterations != 25 || c.VUs != 1 {
		t.Errorf("b = %+v, want 25 iterations on 1 VU", c)
	}

	idle := segmentPlanFor("4/4", "", map[string]engine.Config{"a": cvu}, "a")
	if err := applySegment(idle); err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(segmentPlan(idle), "\n")
	if !strings.Contains(lines, "no share in this segment") || !strings.Contains(lines, "idles 10s") {
		t.Errorf("segment plan does not say the scenario idles:\n%s", lines)
	}

	for _, tt := range []struct{ seg, start, want string }{
		{"5/4", "", "between 1 and N"},
		{"0/4", "", "count from 1"},
		{"x", "", "want i/N"},
		{"", "2001-01-01T00:00:00Z", "in the past"},
		{"", "later", "--start-at"},
	} {
		p := segmentPlanFor(tt.seg, tt.start, map[string]engine.Config{"a": cvu}, "a")
		err := applySegment(p)
		if !usage.Is(err) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("applySegment(%q, %q) = %v, want a usage error with %q", tt.seg, tt.start, err, tt.want)
		}
	}
}

func TestWaitStartAt(t *testing.T) {
	env := &Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	// No --start-at: the clock starts now.
	if got, err := waitStartAt(context.Background(), env, segmentPlanFor("", "", nil)); err != nil || !got.IsZero() {
		t.Fatalf("no start-at: %v, %v", got, err)
	}
	// A time just passed still counts and is the clock's zero.
	past := time.Now().Add(-time.Second).Format(time.RFC3339Nano)
	p := segmentPlanFor("", past, nil)
	got, err := waitStartAt(context.Background(), env, p)
	if err != nil || got.Format(time.RFC3339Nano) != past {
		t.Fatalf("just passed: %v, %v", got, err)
	}
	if p.flags.startAt != "" {
		t.Error("a repeated run would wait again")
	}
	// Long passed (target preparation took too long): usage error.
	p = segmentPlanFor("", time.Now().Add(-time.Minute).Format(time.RFC3339Nano), nil)
	if _, err := waitStartAt(context.Background(), env, p); err == nil || !strings.Contains(err.Error(), "passed") {
		t.Fatalf("long passed: %v", err)
	}
	// Waiting ends at the time, or at Ctrl+C.
	soon := time.Now().Add(150 * time.Millisecond)
	if got, err := waitStartAt(context.Background(), env, segmentPlanFor("", soon.Format(time.RFC3339Nano), nil)); err != nil || time.Now().Before(soon) || !got.Equal(soon.Round(0)) {
		t.Fatalf("wait: %v, %v (now %v)", got, err, time.Now())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = waitStartAt(ctx, env, segmentPlanFor("", time.Now().Add(time.Hour).Format(time.RFC3339Nano), nil))
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != ExitInterrupted {
		t.Fatalf("interrupted wait: %v", err)
	}
}

// TestRunSegmentRecorded: a segmented run records its segment in
// options.json and runs its share.
func TestRunSegmentRecorded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	code, _, stderr := runMain(t, context.Background(), "run", "builtin.Noop", "-i", "10", "-u", "2", "--segment", "2/3", "--start-at", "now", "--out", dir, "--no-csv", "--no-report")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Options.Segment != "2/3" {
		t.Errorf("options segment %q", r.Options.Segment)
	}
	// 10 iterations over 3 segments: 4, 3, 3.
	if c := r.Options.Scenarios[0].Config; c.Iterations != 3 || c.VUs != 1 {
		t.Errorf("config %+v", c)
	}
	if got := r.Snapshot.Scenarios[0].Counters["iterations"]; got != 3 {
		t.Errorf("ran %d iterations, want 3", got)
	}
	if !strings.Contains(stderr, "segment 2/3") {
		t.Errorf("stderr does not describe the segment:\n%s", stderr)
	}
}

// TestSegmentRateTotals: an arrival rate split over 3 segments schedules
// the whole plan's iterations within 1%.
func TestSegmentRateTotals(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for 3 s")
	}
	root := t.TempDir()
	const rate, want = 400, 400 // 400 it/s for 1 s
	var total int64
	for i := 1; i <= 3; i++ {
		dir := filepath.Join(root, fmt.Sprint(i))
		code, _, stderr := runMain(t, context.Background(), "run", "builtin.Noop", "--rate", fmt.Sprint(rate), "-d", "1s", "-u", "4",
			"--segment", fmt.Sprintf("%d/3", i), "--out", dir, "--no-csv", "--no-report", "-q")
		if code != 0 {
			t.Fatalf("segment %d: exit %d %s", i, code, stderr)
		}
		r, err := resultdir.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		sc := r.Snapshot.Scenarios[0]
		total += sc.Counters["iterations"] + sc.Counters["dropped_iterations"]
	}
	if d := float64(total-want) / want; d < -0.01 || d > 0.01 {
		t.Errorf("3 segments scheduled %d iterations, the whole plan %d (%.2f%%)", total, want, 100*d)
	}
}
