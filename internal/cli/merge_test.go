package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/yaml"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

// runSegments runs builtin.Noop as n segments of 101 shared iterations
// into parent/seg-i, with the given extra run flags.
func runSegments(t *testing.T, parent string, n int, extra ...string) {
	t.Helper()
	for i := 1; i <= n; i++ {
		args := append([]string{"run", "builtin.Noop", "-i", "101", "-u", "3", "--segment", fmt.Sprintf("%d/%d", i, n),
			"--out", filepath.Join(parent, fmt.Sprint("seg-", i)), "--no-csv", "--no-report", "-q"}, extra...)
		if code, _, stderr := runMain(t, context.Background(), args...); code != 0 && code != ExitThresholdsFailed {
			t.Fatalf("segment %d: exit %d: %s", i, code, stderr)
		}
	}
}

func TestMergeCommand(t *testing.T) {
	root := t.TempDir()
	parts := filepath.Join(root, "parts")
	runSegments(t, parts, 3, "--threshold", "iterations: count>1000")

	out := filepath.Join(root, "merged")
	// The instances' own threshold (count>1000) fails on the merged 101.
	code, stdout, stderr := runMain(t, context.Background(), "merge", parts, "-o", out)
	if code != ExitThresholdsFailed {
		t.Fatalf("exit %d, want 99: %s", code, stderr)
	}
	if !strings.Contains(stdout, "THRESHOLDS") || !strings.Contains(stderr, "some thresholds have failed on the merged result") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	r, err := resultdir.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Snapshot.Scenarios[0].Counters["iterations"]; got != 101 {
		t.Errorf("merged iterations = %d, want 101", got)
	}
	if r.Options.Segment != "1/3,2/3,3/3" || r.Options.Scenarios[0].Config.Iterations != 101 {
		t.Errorf("options %+v", r.Options)
	}
	for _, f := range []string{resultdir.SummaryFile, resultdir.ConsoleFile, resultdir.SeriesFile, resultdir.ReportFile, "env-3.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// --threshold replaces the instances' thresholds.
	code, _, stderr = runMain(t, context.Background(), "merge", parts, "-o", filepath.Join(root, "m2"), "--threshold", "iterations: count==101", "-q")
	if code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no -o", []string{"merge", parts}, "needs -o"},
		{"existing output", []string{"merge", parts, "-o", out}, "already holds a run"},
		{"not a result", []string{"merge", t.TempDir(), "-o", filepath.Join(root, "m3")}, "holds no result directory"},
		{"bad threshold", []string{"merge", parts, "-o", filepath.Join(root, "m4"), "--threshold", "iterations: ~~"}, "threshold"},
		{"no args", []string{"merge", "-o", filepath.Join(root, "m5")}, "requires at least 1 arg"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runMain(t, context.Background(), tt.args...)
			if code != ExitUsage || !strings.Contains(stderr, tt.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d stderr %q, want 2 and one line with %q", code, stderr, tt.want)
			}
		})
	}
}

// TestK8sWorkerCollectMerge plays a two-pod Indexed Job on this machine:
// manifest, each pod's worker with JOB_COMPLETION_INDEX, collect from the
// logs, merge.
func TestK8sWorkerCollectMerge(t *testing.T) {
	root := t.TempDir()
	manifest := filepath.Join(root, "job.yaml")
	code, _, stderr := runMain(t, context.Background(), "k8s", "manifest", "-n", "2", "--image", "stampede:test", "--start-delay", "1s",
		"-o", manifest, "--", "builtin.Noop", "-i", "11", "-u", "2", "--no-csv")
	if code != 0 {
		t.Fatalf("manifest: exit %d %s", code, stderr)
	}
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(b, &job); err != nil {
		t.Fatal(err)
	}
	args := job.Spec.Template.Spec.Containers[0].Args
	if *job.Spec.Completions != 2 || args[0] != "k8s" || args[1] != "worker" {
		t.Fatalf("job %+v", job.Spec)
	}
	results := filepath.Join(root, "results", "stampede")
	var logs strings.Builder
	for idx := range 2 {
		t.Setenv("JOB_COMPLETION_INDEX", fmt.Sprint(idx))
		wargs := append([]string(nil), args...)
		for i, a := range wargs {
			if a == "/results/stampede" {
				wargs[i] = results
			}
		}
		wargs = append(wargs[:len(wargs):len(wargs)], "-q", "--no-report")
		code, stdout, stderr := runMain(t, context.Background(), wargs...)
		if code != 0 {
			t.Fatalf("worker %d: exit %d %s", idx, code, stderr)
		}
		logs.WriteString(stdout + stderr)
	}
	if !resultdir.IsResult(filepath.Join(results, "1")) {
		t.Fatal("worker 1 wrote no result to DIR/1")
	}
	logFile := filepath.Join(root, "pods.log")
	os.WriteFile(logFile, []byte(logs.String()), 0o644)
	collected := filepath.Join(root, "collected")
	if code, _, stderr := runMain(t, context.Background(), "k8s", "collect", logFile, "-o", collected); code != 0 {
		t.Fatalf("collect: exit %d %s", code, stderr)
	}
	merged := filepath.Join(root, "merged")
	if code, _, stderr := runMain(t, context.Background(), "merge", collected, "-o", merged, "-q"); code != 0 {
		t.Fatalf("merge: exit %d %s", code, stderr)
	}
	r, err := resultdir.Load(merged)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Snapshot.Scenarios[0].Counters["iterations"]; got != 11 || r.Options.Segment != "1/2,2/2" {
		t.Errorf("merged %d iterations, segments %q; want 11 and 1/2,2/2", got, r.Options.Segment)
	}
	// The segments started together: their scenario starts are within
	// a second of the manifest's start time.
	start, _ := time.Parse(time.RFC3339, job.Annotations["stampede.dev/start-at"])
	if d := r.Snapshot.Start.Sub(start); d < 0 || d > time.Second {
		t.Errorf("merged start %v is %v after the common start %v", r.Snapshot.Start, d, start)
	}

	t.Setenv("JOB_COMPLETION_INDEX", "")
	if code, _, stderr := runMain(t, context.Background(), append(args[:len(args):len(args)], "-q")...); code != ExitUsage || !strings.Contains(stderr, "JOB_COMPLETION_INDEX") {
		t.Errorf("worker without index: exit %d %s", code, stderr)
	}
	for _, bad := range [][]string{
		{"k8s", "manifest", "-n", "2", "--", "builtin.Noop"},
		{"k8s", "manifest", "-n", "0", "--image", "x"},
		{"k8s", "manifest", "-n", "2", "--image", "x", "--", "--out", "x"},
		{"k8s", "manifest", "-n", "2", "--image", "x", "--start-at", "2001-01-01T00:00:00Z"},
		{"k8s", "collect", "-o", t.TempDir(), logFile + ".missing"},
	} {
		if code, _, stderr := runMain(t, context.Background(), bad...); code != ExitUsage {
			t.Errorf("%v: exit %d %s, want 2", bad, code, stderr)
		}
	}
}
