package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// TestRunAndMergeFinishAlike: run and merge finish their result
// directories through one path, so a merge of one run holds the same
// files (apart from the per-instance fingerprints env-N.json, and the
// generator self-check, which belongs to one process), the same console
// summary, and a summary.json with the same keys and tags.
func TestRunAndMergeFinishAlike(t *testing.T) {
	root := t.TempDir()
	run, merged := filepath.Join(root, "run"), filepath.Join(root, "merged")
	code, runOut, stderr := runMain(t, context.Background(), "run", "builtin.Noop", "-i", "50", "-u", "2",
		"--tag", "team=db", "--threshold", "iterations: count>10", "--out", run)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	code, mergeOut, stderr := runMain(t, context.Background(), "merge", run, "-o", merged)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}

	perInstance := regexp.MustCompile(`^env-\d+\.json$`)
	files := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			if n := e.Name(); !perInstance.MatchString(n) && n != selfcheck.File {
				out = append(out, n)
			}
		}
		sort.Strings(out)
		return out
	}
	got, want := files(merged), files(run)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("merge wrote %v\n     run wrote %v", got, want)
	}
	for _, f := range []string{resultdir.SnapshotFile, resultdir.SummaryFile, resultdir.ConsoleFile, resultdir.ReportFile, resultdir.SeriesFile, resultdir.OptionsFile, resultdir.EnvFile} {
		if _, err := os.Stat(filepath.Join(run, f)); err != nil {
			t.Errorf("run: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(merged, "env-1.json")); err != nil {
		t.Errorf("merge: %v", err)
	}

	txt := func(dir string) string {
		b, err := os.ReadFile(filepath.Join(dir, resultdir.ConsoleFile))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if txt(run) != txt(merged) {
		t.Errorf("summary.txt differs:\nrun:\n%s\nmerge:\n%s", txt(run), txt(merged))
	}
	if runOut != mergeOut || runOut != txt(run) {
		t.Errorf("stdout differs:\nrun:\n%s\nmerge:\n%s", runOut, mergeOut)
	}

	type doc struct {
		Metrics  map[string]json.RawMessage `json:"metrics"`
		Stampede map[string]json.RawMessage `json:"stampede"`
	}
	read := func(dir string) doc {
		var d doc
		b, err := os.ReadFile(filepath.Join(dir, resultdir.SummaryFile))
		if err == nil {
			err = json.Unmarshal(b, &d)
		}
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a, m := read(run), read(merged)
	keys := func(v map[string]json.RawMessage) string {
		var ks []string
		for k := range v {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return strings.Join(ks, " ")
	}
	if keys(a.Metrics) != keys(m.Metrics) || keys(a.Stampede) != keys(m.Stampede) {
		t.Errorf("summary.json keys differ:\nrun   %s | %s\nmerge %s | %s", keys(a.Metrics), keys(a.Stampede), keys(m.Metrics), keys(m.Stampede))
	}
	var at, mt map[string]string
	json.Unmarshal(a.Stampede["tags"], &at)
	json.Unmarshal(m.Stampede["tags"], &mt)
	if at["team"] != "db" || len(at) != len(mt) || mt["team"] != "db" || mt["testid"] != at["testid"] {
		t.Errorf("tags: run %v, merge %v", at, mt)
	}
}
