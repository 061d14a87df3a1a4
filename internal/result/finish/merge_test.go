package finish_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/result/finish"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
	"github.com/stampede-bench/stampede/plan"
)

// noopRun runs builtin.Noop into dir with the given tag and threshold.
func noopRun(t *testing.T, dir string, tags map[string]string, thresholds ...string) {
	t.Helper()
	ts, err := run.ParseThresholds(thresholds)
	if err != nil {
		t.Fatal(err)
	}
	_, err = run.Execute(context.Background(), run.Plan{Plan: plan.Plan{
		Scenarios: []run.Scenario{{Name: "builtin.Noop", Family: builtin.New(builtin.DefaultOptions()),
			Config: engine.Config{Executor: engine.SharedIterations, VUs: 1, Iterations: 30}.Defaults()}},
		Out: dir, Tags: tags, Thresholds: ts, Outputs: []run.OutputSpec{{Kind: outputs.Series}},
	}}, run.Deps{Deps: plan.Deps{Outputs: outputs.New()}})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMergeAndFinish(t *testing.T) {
	parts := t.TempDir()
	noopRun(t, filepath.Join(parts, "a"), map[string]string{"env": "ci", "host": "a"}, "iterations: count>0")
	noopRun(t, filepath.Join(parts, "b"), map[string]string{"env": "ci", "host": "b"}, "iterations: count>0")
	out := filepath.Join(t.TempDir(), "merged")
	res, err := finish.Merge([]string{parts}, out, finish.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(parts, "a"), filepath.Join(parts, "b")}; !reflect.DeepEqual(res.Parts, want) {
		t.Errorf("parts %v, want %v", res.Parts, want)
	}

	fin, err := finish.Merged(res, nil, finish.Options{Report: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(fin.Thresholds) != 1 || fin.Thresholds[0].Expr != "count>0" || fin.Failed {
		t.Errorf("the parts' own thresholds were not evaluated: %+v", fin.Thresholds)
	}
	var doc struct {
		Stampede struct {
			Tags map[string]string `json:"tags"`
		} `json:"stampede"`
	}
	b, err := os.ReadFile(filepath.Join(out, resultdir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"env": "ci"}; !reflect.DeepEqual(doc.Stampede.Tags, want) {
		t.Errorf("merged tags %v, want those common to the parts %v", doc.Stampede.Tags, want)
	}
	if _, err := os.Stat(filepath.Join(out, resultdir.ReportFile)); err != nil {
		t.Errorf("no report: %v", err)
	}

	fin, err = finish.Merged(res, []string{"iterations: count>1000"}, finish.Options{})
	if err != nil || !fin.Failed {
		t.Errorf("given thresholds: %+v %v, want a failed threshold", fin, err)
	}
	fin, err = finish.Merged(res, []string{"iterations: nonsense"}, finish.Options{})
	if fin != nil || !usage.Is(err) {
		t.Errorf("bad threshold: %+v %v, want no result and a usage error", fin, err)
	}
}

func TestMergeBadInput(t *testing.T) {
	empty := t.TempDir()
	if _, err := finish.Merge([]string{empty}, filepath.Join(t.TempDir(), "m"), finish.MergeOptions{}); !usage.Is(err) {
		t.Errorf("a directory without runs: %v, want a usage error", err)
	}
}
