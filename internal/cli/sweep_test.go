package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/resultdir"
	runsweep "github.com/stampede-bench/stampede/internal/run/sweep"
)

func TestPlanSweep(t *testing.T) {
	tests := []struct {
		name      string
		f         sweepFlags
		wantDim   string
		wantDirs  []string
		wantExtra []string // extra args of the last step, before --out
		wantErr   string
	}{
		{name: "vus", f: sweepFlags{vus: "50,100"}, wantDim: "vus",
			wantDirs: []string{"step-01-50", "step-02-100"}, wantExtra: []string{"--vus=100"}},
		{name: "rate keeps one VU value", f: sweepFlags{rate: "1000, 2000", vus: "20"}, wantDim: "rate",
			wantDirs: []string{"step-01-1000", "step-02-2000"}, wantExtra: []string{"--rate=2000", "--vus=20"}},
		{name: "single rate is a rate sweep", f: sweepFlags{rate: "1000"}, wantDim: "rate", wantDirs: []string{"step-01-1000"}, wantExtra: []string{"--rate=1000"}},
		{name: "nodes with a hook", f: sweepFlags{nodes: "1,3,5", beforeStep: "resize {nodes}", vus: "100"}, wantDim: "nodes",
			wantDirs: []string{"step-01-1", "step-02-3", "step-03-5"}, wantExtra: []string{"--vus=100"}},
		{name: "nodes with targets", f: sweepFlags{nodes: "1,3", targets: "postgres://u:pw@db1/x postgres://db3/x"}, wantDim: "nodes",
			wantDirs: []string{"step-01-1", "step-02-3"}, wantExtra: []string{"--target=postgres://db3/x"}},
		{name: "targets", f: sweepFlags{targets: "http://10.0.0.1:8080/a\nhttp://u:secret@10.0.0.2:8080/"}, wantDim: "target",
			wantDirs: []string{"step-01-10.0.0.1_8080", "step-02-10.0.0.2_8080"}, wantExtra: []string{"--target=http://u:secret@10.0.0.2:8080/"}},
		{name: "nothing", f: sweepFlags{}, wantErr: "nothing to sweep"},
		{name: "two dimensions", f: sweepFlags{vus: "1,2", rate: "10,20"}, wantErr: "one dimension at a time"},
		{name: "nodes without hook", f: sweepFlags{nodes: "1,3"}, wantErr: "needs --before-step"},
		{name: "nodes and targets differ", f: sweepFlags{nodes: "1,3", targets: "http://a/"}, wantErr: "one URL per size"},
		{name: "bad value", f: sweepFlags{vus: "50,lots"}, wantErr: `"lots" is not a whole number`},
		{name: "zero", f: sweepFlags{vus: "0,1"}, wantErr: "≥ 1"},
		{name: "bad target", f: sweepFlags{targets: "gopher://x"}, wantErr: "gopher"},
		{name: "multi-broker kafka URLs stay whole", f: sweepFlags{nodes: "3,5", targets: "kafka://a:9092,b:9092,c:9092  kafka://a:9092,b:9092,c:9092,d:9092,e:9092"}, wantDim: "nodes",
			wantDirs: []string{"step-01-3", "step-02-5"}, wantExtra: []string{"--target=kafka://a:9092,b:9092,c:9092,d:9092,e:9092"}},
		{name: "comma-separated URLs are refused", f: sweepFlags{targets: "http://a/,http://b/"}, wantErr: "separate target URLs with spaces"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.f
			f.out = t.TempDir()
			steps, err := planSweep(&f, nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var dirs []string
			for _, s := range steps {
				dirs = append(dirs, filepath.Base(s.Dir))
				if s.Dim != tt.wantDim {
					t.Errorf("dim %s", s.Dim)
				}
			}
			if !reflect.DeepEqual(dirs, tt.wantDirs) {
				t.Errorf("dirs = %v, want %v", dirs, tt.wantDirs)
			}
			last := steps[len(steps)-1]
			var extra []string
			for _, a := range stepArgs(last) {
				if strings.HasPrefix(a, "--out=") {
					break
				}
				extra = append(extra, a)
			}
			if !reflect.DeepEqual(extra, tt.wantExtra) {
				t.Errorf("extra args = %q, want %q", extra, tt.wantExtra)
			}
			if v := last.Info()[sweep.KeyValue]; strings.Contains(v, "secret") {
				t.Errorf("credentials in the sweep info: %s", v)
			}
		})
	}
}

// planSweep lays out the steps of f over scenarios as runSweep does.
func planSweep(f *sweepFlags, scenarios []string) ([]runsweep.Step, error) {
	steps, _, err := runsweep.Plan(runsweep.Dims{VUs: f.vus, Rate: f.rate, Nodes: f.nodes, Targets: f.targets, BeforeStep: f.beforeStep, Out: f.out},
		newCatalog(), scenarios, checkTarget, time.Now())
	return steps, err
}

// stepArgs writes what step st changes in the run flags as the run
// arguments that would say it.
func stepArgs(st runsweep.Step) []string {
	var out []string
	if st.ResizeFlag != "" {
		out = append(out, "--"+st.ResizeFlag+"="+st.Nodes)
	}
	if st.VUs > 0 && st.Dim == sweep.DimVUs {
		out = append(out, fmt.Sprintf("--vus=%d", st.VUs))
	}
	if st.Rate > 0 {
		out = append(out, fmt.Sprintf("--rate=%d", st.Rate))
	}
	if st.VUs > 0 && st.Dim != sweep.DimVUs {
		out = append(out, fmt.Sprintf("--vus=%d", st.VUs))
	}
	if st.Target != "" {
		out = append(out, "--target="+st.Target)
	}
	return append(out, "--out="+st.Dir)
}

// TestSweepVUs runs a two-step VU sweep in-process and re-analyses it.
func TestSweepVUs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sw")
	code, stdout, stderr := runMain(t, context.Background(), "sweep", "builtin.Noop", "--vus", "1,2", "-i", "200",
		"--threshold", "iterations: count>0", "--out", out, "--no-csv", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "builtin.Noop — VU sweep") || !strings.Contains(stdout, "saturation:") {
		t.Errorf("no table on stdout:\n%s", stdout)
	}
	r, err := resultdir.Load(filepath.Join(out, "step-02-2"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{sweep.KeyDimension: "vus", sweep.KeyValue: "2", sweep.KeyStep: "2"}
	if !reflect.DeepEqual(r.Options.Sweep, want) {
		t.Errorf("options sweep = %v, want %v", r.Options.Sweep, want)
	}
	if c := r.Options.Scenarios[0].Config; c.VUs != 2 || c.Iterations != 200 {
		t.Errorf("step config %+v, want 2 VUs × 200 shared iterations", c)
	}
	if !reflect.DeepEqual(r.Options.Thresholds, []string{"iterations: count>0"}) {
		t.Errorf("thresholds not passed through: %v", r.Options.Thresholds)
	}
	if html, err := os.ReadFile(filepath.Join(out, resultdir.ReportFile)); err != nil || !strings.Contains(string(html), `"sweep":{"dimension":"vus","scenarios"`) {
		t.Errorf("report.html with the sweep curves: %v", err)
	}
	var a sweep.Analysis
	b, err := os.ReadFile(filepath.Join(out, runsweep.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &a); err != nil || len(a.Curves) != 1 || len(a.Curves[0].Points) != 2 {
		t.Fatalf("sweep.json: %v %+v", err, a)
	}
	if p := a.Curves[0].Points[1]; p.Iterations != 200 || p.Load != 2 {
		t.Errorf("point %+v", p)
	}
	code, again, stderr := runMain(t, context.Background(), "sweep", "--from", out)
	if code != 0 || !strings.HasSuffix(stdout, again) || !strings.Contains(again, "VU sweep") {
		t.Errorf("--from: exit %d %s\n%s\nwant\n%s", code, stderr, again, stdout)
	}
}

// TestSweepFailingHook: the hook fails before the third step; the sweep
// exits 1 with one line, keeps and analyses the two steps done.
func TestSweepFailingHook(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sw")
	code, stdout, stderr := runMain(t, context.Background(), "sweep", "builtin.Noop", "--nodes", "1,2,3",
		"--before-step", "echo resize {nodes}; test {nodes} -lt 3", "-i", "50", "-u", "1", "--out", out, "--no-csv", "--no-report", "-q")
	if code != ExitRunError {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "stampede: sweep: --before-step for 3 nodes failed") || !strings.Contains(last, "2 of 3 steps done") {
		t.Errorf("last stderr line = %q", last)
	}
	for _, d := range []string{"step-01-1", "step-02-2"} {
		if !resultdir.IsResult(filepath.Join(out, d)) {
			t.Errorf("%s not kept", d)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "step-03-3")); !os.IsNotExist(err) {
		t.Errorf("step 3 ran: %v", err)
	}
	if !strings.Contains(stdout, "cluster-size sweep") || !strings.Contains(stdout, "it/s/node") {
		t.Errorf("completed steps not analysed:\n%s", stdout)
	}
	// Running into the same directory again is refused before any step.
	code, _, stderr = runMain(t, context.Background(), "sweep", "builtin.Noop", "--nodes", "1", "--before-step", "true", "-i", "5", "--out", out, "-q")
	if code != ExitUsage || !strings.Contains(stderr, "already holds a run") {
		t.Errorf("rerun: exit %d %s", code, stderr)
	}
}

func TestSweepBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"sweep", "builtin.Noop"},
		{"sweep", "builtin.Noop", "--vus", "1,2", "--segment", "1/2"},
		{"sweep", "go.Go9Step", "--vus", "1,2", "--out", filepath.Join(t.TempDir(), "x")},
		{"sweep", "--from", t.TempDir()},
	} {
		code, _, stderr := runMain(t, context.Background(), append(args, "-q")...)
		if code != ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
}
