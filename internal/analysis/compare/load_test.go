package compare

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/usage"
)

// writeRun writes r as a result directory, as stampede run does.
func writeRun(t *testing.T, dir string, r Run) {
	t.Helper()
	if err := resultdir.Prepare(dir); err != nil {
		t.Fatal(err)
	}
	opts := resultdir.Options{Target: r.Env.Target}
	for _, sc := range r.Snapshot.Scenarios {
		opts.Scenarios = append(opts.Scenarios, resultdir.ScenarioOptions{
			Name: sc.Name, Config: engine.Config{Executor: "constant-vus", VUs: 4, Duration: 10 * time.Second, Warmup: r.Warmup[sc.Name]},
		})
	}
	for name, v := range map[string]any{resultdir.SnapshotFile: r.Snapshot, resultdir.OptionsFile: opts, resultdir.EnvFile: r.Env} {
		if err := resultdir.WriteJSON(dir, name, v); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	b, c := seedLike(t)
	for i, r := range b.Runs {
		writeRun(t, filepath.Join(root, "default", "run-0"+string(rune('1'+i))), r)
	}
	writeRun(t, filepath.Join(root, "single"), c.Runs[0])
	if err := os.MkdirAll(filepath.Join(root, "empty", "notes"), 0o755); err != nil {
		t.Fatal(err)
	}

	parent, err := Load(filepath.Join(root, "default"), "default")
	if err != nil {
		t.Fatal(err)
	}
	if len(parent.Runs) != 5 || !strings.HasSuffix(parent.Runs[4].Dir, "run-05") {
		t.Fatalf("parent of repeated runs: %d runs, last %s", len(parent.Runs), parent.Runs[len(parent.Runs)-1].Dir)
	}
	if w := parent.Runs[0].Warmup["go.Go1Step"]; w != 2*time.Second {
		t.Errorf("warm-up from options.json = %v, want 2s", w)
	}
	single, err := Load(filepath.Join(root, "single"), "single")
	if err != nil {
		t.Fatal(err)
	}
	if len(single.Runs) != 1 || single.Runs[0].Env.CPUModel != machine().CPUModel {
		t.Fatalf("single run: %+v", single.Runs)
	}

	// Loaded runs compare exactly like the runs they were written from.
	loaded, err := Compare(parent, single, Options{})
	if err != nil {
		t.Fatal(err)
	}
	direct, err := Compare(b, Side{Name: "single", Path: single.Path, Runs: c.Runs[:1]}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var lb, db strings.Builder
	if err := loaded.WriteCSV(&lb); err != nil {
		t.Fatal(err)
	}
	if err := direct.WriteCSV(&db); err != nil {
		t.Fatal(err)
	}
	if lb.String() != db.String() {
		t.Errorf("loaded CSV differs from direct:\n%s\nvs\n%s", lb.String(), db.String())
	}

	for _, dir := range []string{filepath.Join(root, "empty"), filepath.Join(root, "nope")} {
		if _, err := Load(dir, "base"); !usage.Is(err) {
			t.Errorf("Load(%s) err = %v, want a usage error", dir, err)
		}
	}
}
