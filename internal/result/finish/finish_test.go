package finish_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/outputtest"
	"github.com/stampede-bench/stampede/internal/result/finish"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/threshold"
)

func TestUseColor(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "NO_COLOR" {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name    string
		tty     bool
		noColor bool
		getenv  func(string) string
		want    bool
	}{
		{"terminal", true, false, env(""), true},
		{"terminal, no environment", true, false, nil, true},
		{"not a terminal", false, false, env(""), false},
		{"--no-color", true, true, env(""), false},
		{"NO_COLOR=1", true, false, env("1"), false},
		{"NO_COLOR=0 counts too (any value)", true, false, env("0"), false},
		{"both", true, true, env("1"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := finish.UseColor(tc.tty, tc.noColor, tc.getenv); got != tc.want {
				t.Errorf("UseColor = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDir(t *testing.T) {
	ts, err := threshold.ParseAll([]string{"iterations: count>0", "iterations: count>1e12"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		opts   finish.Options
		mode   finish.Print
		color  bool
		stdout func(txt, js string) string // what stdout must be
		files  []string
		absent []string
	}{
		{"text", finish.Options{Report: true}, finish.PrintText, false,
			func(txt, _ string) string { return txt },
			[]string{resultdir.SnapshotFile, resultdir.SummaryFile, resultdir.ConsoleFile, resultdir.ReportFile}, nil},
		{"json", finish.Options{}, finish.PrintJSON, false,
			func(_, js string) string { return js },
			[]string{resultdir.SnapshotFile, resultdir.SummaryFile, resultdir.ConsoleFile}, []string{resultdir.ReportFile}},
		{"none", finish.Options{Thresholds: ts}, finish.PrintNone, false,
			func(string, string) string { return "" },
			[]string{resultdir.SummaryFile, resultdir.ConsoleFile}, []string{resultdir.ReportFile}},
		{"color", finish.Options{}, finish.PrintText, true, nil, []string{resultdir.ConsoleFile}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			res, err := finish.Dir(dir, outputtest.Snapshot(t), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := res.Show(&out, tc.mode, tc.color); err != nil {
				t.Fatal(err)
			}
			read := func(name string) string {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			for _, f := range tc.files {
				read(f)
			}
			for _, f := range tc.absent {
				if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
					t.Errorf("%s written", f)
				}
			}
			txt, js := read(resultdir.ConsoleFile), read(resultdir.SummaryFile)
			if string(res.Text) != txt || string(res.JSON) != js {
				t.Error("Result holds other summaries than the files")
			}
			if strings.Contains(txt, "\x1b[") {
				t.Error("summary.txt has colors")
			}
			if tc.color {
				if !strings.Contains(out.String(), "\x1b[") || !strings.Contains(out.String(), "OVERVIEW") {
					t.Errorf("no colored summary on stdout:\n%s", out.String())
				}
			} else if got := out.String(); got != tc.stdout(txt, js) {
				t.Errorf("stdout:\n%s", got)
			}
			if len(tc.opts.Thresholds) > 0 {
				if len(res.Thresholds) != 2 || !res.Failed || !strings.Contains(js, `"thresholds"`) {
					t.Errorf("thresholds %+v, failed %v", res.Thresholds, res.Failed)
				}
			} else if res.Failed || res.Thresholds != nil {
				t.Errorf("thresholds without any given: %+v", res)
			}
			var snap map[string]any
			if err := json.Unmarshal([]byte(read(resultdir.SnapshotFile)), &snap); err != nil || snap["scenarios"] == nil {
				t.Errorf("snapshot.json: %v", err)
			}
		})
	}
}

// TestFinishersKeepGoing: a failing --summary-export is reported, yet the
// report is written and the directory finished (console file, stdout);
// the export of a good path is summary.json.
func TestFinishersKeepGoing(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	snap := outputtest.Snapshot(t)
	res, err := finish.Dir(dir, snap, finish.Options{Tags: map[string]string{"team": "db"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Show(&out, finish.PrintText, false)
	reg, err := output.NewRegistry(finish.ReportFactory("test"), finish.SummaryExportFactory())
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "export.json")
	bad := filepath.Join(dir, "missing", "x.json")
	var m output.Manager
	specs := []output.Spec{{Kind: "summary-export", Arg: bad}, {Kind: "report"}, {Kind: "summary-export", Arg: good}}
	if err := m.StartSpecs(reg, specs, output.Params{Dir: dir}, nil); err != nil {
		t.Fatal(err)
	}
	err = m.Finish(context.Background(), output.Finished{Dir: dir, Snapshot: snap, SummaryJSON: res.JSON})
	if err == nil || !strings.HasPrefix(err.Error(), "--summary-export "+bad+": ") || strings.Contains(err.Error(), good) {
		t.Fatalf("error %v", err)
	}
	for _, f := range []string{resultdir.ReportFile, resultdir.ConsoleFile} {
		if _, serr := os.Stat(filepath.Join(dir, f)); serr != nil {
			t.Errorf("no %s after a failed export: %v", f, serr)
		}
	}
	if exp, _ := os.ReadFile(good); !bytes.Equal(exp, res.JSON) {
		t.Errorf("export %q is not summary.json", exp)
	}
	if !strings.Contains(out.String(), "OVERVIEW") {
		t.Error("no summary on stdout after a failed export")
	}
	b, _ := os.ReadFile(filepath.Join(dir, resultdir.SummaryFile))
	if !strings.Contains(string(b), `"team": "db"`) {
		t.Errorf("tags missing from summary.json")
	}
}
