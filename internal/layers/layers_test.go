package layers

import (
	"go/build"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/stampede-bench/stampede"

// layer places a group of packages. Path is relative to the module root:
// "internal/driver" is that package only, "internal/driver/..." every
// package below it (not itself), "" the module's root package. A package
// belongs to the longest matching path.
//
// A package may import packages of its own group and of groups of a lower
// rank. Groups of the same rank are peers that know nothing of each other:
// the engine and the outputs both use the request-log records of reqlog,
// and neither imports the other.
type layer struct {
	rank int
	path string
	why  string
}

// Read from the top, a command goes cli → plan → engine → driver →
// metrics → outputs → results → analysis: internal/cli translates flags
// into a plan (internal/run, internal/run/sweep, internal/runconfig), the
// engine drives a target's driver, metrics feed the outputs, the result
// directory is written and analysed. Families sit between the engine and
// the plan and declare what they can do (internal/workload's optional
// interfaces); the command line names none of them.
var layers = []layer{
	// Test support, below everything that tests import it from.
	{-1, "internal/testenv", "skip or fail (CI) when a test's server is missing"},
	{-1, "internal/testcert", "test helper: a self-signed TLS certificate for 127.0.0.1"},
	{-1, "internal/testhttp", "test helper: an HTTP server that counts its connections"},
	// Hiding credentials, below the driver interface, whose errors show a
	// target URL without its password.
	{-1, "internal/redact", "a URL's password, secret query parameters and headers as xxxxx"},

	// Public leaves: the types a Go user names, which the internals use
	// as their own (standard library and HdrHistogram only).
	{-2, "metric", "the measurements: Point, Snapshot, histogram geometry"},
	{-2, "flags", "how a family binds its run flags"},
	{-2, "executor", "k6's executors as configuration: Config, Shortcuts, limits"},
	// The output contract speaks of the measurements.
	{-1, "output", "the contract of a live output: Output, Annotator"},
	// k6 thresholds judge the measurements.
	{-1, "threshold", "k6 thresholds: parse, evaluate against a snapshot"},
	// The verdict reads a scenario's counters.
	{-1, "verdict", "passed / degraded / failed, from a scenario's counters"},
	// The VU contract records into the measurements and the request log.
	{0, "vu", "the VU contract: Scenario, VU, Iter, Recorder, Result"},
	// A family names its flags and opens VUs.
	{1, "family", "the family contract: Family, Opened, what a family declares"},

	// Leaves: standard library only.
	{0, "internal/usage", "the one usage-error type"},
	{0, "internal/version", ""},
	{0, "internal/golden", "test helper"},
	{0, "internal/stats", ""},
	{0, "internal/progress", "progress reports, not drawing"},
	{0, "internal/termio", "is the console a terminal, how wide"},
	{0, "internal/monitor", ""},
	{0, "internal/monitor/...", ""},
	{0, "internal/metrics", "recorders, snapshots, run totals"},
	{0, "internal/fslock", "advisory locks on staging areas"},
	{0, "internal/nospace", "recognises a full disk"},
	{0, "families/msgopt", "the options the kafka and nats families share (the max-rate search)"},
	{0, "internal/cputime", "this process's CPU time (getrusage)"},
	{0, "internal/rawnet", "TCP reads and writes as raw system calls in the poller"},
	{0, "internal/nospace/...", "test helper: a small file system to fill"},

	// Records and clients. A driver's Result is a VU's.
	{1, "internal/driver", "the driver interface"},
	{1, "internal/reqlog", "per-request log records"},
	{1, "internal/bounded", "size-bounded, interruptible input reads"},
	{2, "internal/dotenv", "a .env file behind the environment"},
	{1, "internal/envinfo", ""},
	{1, "internal/secret", "which values are credentials; hiding them in records"},
	{1, "internal/progress/termbar", "draws progress reports"},
	{1, "internal/profile", ""},
	{1, "internal/lab", "network namespaces, tc shaping, cgroup quotas"},
	{1, "internal/workload/graph/ldbcfile", "LDBC file format"},
	{1, "internal/workload/kafka/kafkaconf", "the kafka options' values as franz-go settings and topic configs"},

	{2, "internal/driver/...", "driver implementations"},
	{2, "internal/k8s", "manifests, credential Secrets, results through pod logs"},
	{2, "internal/workload/graph/datagen", ""},
	{2, "internal/workload/graph/ldbctest", "test data"},
	{2, "internal/output", "the Output interface and registry"},
	// A run as a value names its families, executors, outputs and
	// thresholds.
	{2, "plan", "a run as a value: Plan, Deps, Result"},

	// The engine and the outputs are peers.
	{3, "internal/engine", ""},
	{3, "internal/output/...", "live outputs (the web dashboard aside)"},
	{3, "internal/result/summary", "the end-of-test summary: console text, k6's summary JSON"},
	{3, "internal/selfcheck", ""},
	{3, "internal/natscluster", "the embedded NATS cluster"},
	{3, "internal/workload/graph/loader", "a library: no workload, no progress bar"},

	{4, "internal/resultdir", ""},
	{4, "internal/runconfig", "the --config YAML file of run and sweep"},
	{4, "internal/workload", "the Family interface"},
	{4, "internal/workload/graph/ngqlload", ""},
	{4, "internal/workload/msgload", "the messaging core of the kafka and nats families"},

	// The built-in families' options: public leaves of the families'
	// packages, which the families name as their own Options.
	{5, "families/builtin/builtinopt", "the builtin family's Options"},
	{5, "families/graph/graphopt", "the graph family's Options"},
	{5, "families/http/httpopt", "the http family's Options"},
	{5, "families/kafka/kafkaopt", "the kafka family's Options and profiles"},
	{5, "families/nats/natsopt", "the nats family's Options and profiles"},

	{6, "internal/workload/...", "families"},
	{6, "internal/analysis/...", "compare, merge, sweep"},

	{7, "internal/result/report", "the HTML report; renders sweeps too"},
	{7, "internal/plugins", "the built-in families and drivers"},
	{7, "internal/layers", "this test"},

	{8, "internal/result/finish", "finishes a result directory"},
	{8, "internal/output/webdash", "the live web dashboard: the report page over server-sent events"},
	{8, "internal/labrun", "the seed's experiments in a lab fabric"},
	{9, "internal/run", "executes a plan"},
	// A peer of the run: the registry of concrete outputs, which the
	// composition root (cli, the public API) builds and passes to it.
	{9, "internal/output/outputs", "names stampede's outputs"},
	{10, "internal/run/...", "runs of many plans (sweeps); a run's live status line"},
	{11, "internal/cli", "flags, display, exit codes"},
	{12, "", "the public Go API: the core, no built-in family, no command line"},
	{13, "families/...", "one public package per built-in family"},
	{14, "families", "the catalog of the built-in families (Builtins)"},
	{15, "cmdline", "the public command line (Main); defaults to families.Builtins"},
	{16, "cmd/...", ""},
	{16, "examples", "the size test of the example programs"},
	{16, "examples/...", ""},
	{16, "bench/...", ""},
}

// only lists outside packages that only some groups may import.
var only = map[string][]string{
	"github.com/schollz/progressbar/v3": {"internal/cli", "internal/progress/termbar"},
}

// groupOf returns the layer of package rel (relative to the module root).
func groupOf(rel string) (layer, bool) {
	best, found := layer{}, false
	for _, l := range layers {
		p, sub := strings.CutSuffix(l.path, "/...")
		var ok bool
		switch {
		case sub:
			ok = strings.HasPrefix(rel, p+"/")
		default:
			ok = rel == l.path
		}
		if ok && (!found || len(l.path) > len(best.path)) {
			best, found = l, true
		}
	}
	return best, found
}

// packages returns the non-test imports of every package of the module,
// keyed by path relative to the module root.
func packages(t *testing.T) map[string][]string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root %s: %v", root, err)
	}
	out := map[string][]string{}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(p, 0)
		if err != nil {
			return nil // no Go files, or only test files
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		out[rel] = pkg.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportsPointDown fails on an import of a package of a higher rank or
// of a peer group of the same rank, on a package missing from the table,
// and on an outside package imported where it does not belong.
func TestImportsPointDown(t *testing.T) {
	pkgs := packages(t)
	if len(pkgs) < 20 {
		t.Fatalf("found %d packages: is the module root right?", len(pkgs))
	}
	var names []string
	for rel := range pkgs {
		names = append(names, rel)
	}
	sort.Strings(names)
	for _, rel := range names {
		from, ok := groupOf(rel)
		if !ok {
			t.Errorf("package %s has no layer: add it to the table in internal/layers/layers_test.go, below what it imports and above what imports it", "./"+rel)
			continue
		}
		for _, imp := range pkgs[rel] {
			if allowed, ok := only[imp]; ok && !contains(allowed, rel) {
				t.Errorf("%s imports %s, which only %s may import", "./"+rel, imp, strings.Join(allowed, ", "))
			}
			irel, ok := strings.CutPrefix(imp, module)
			if !ok || (irel != "" && irel[0] != '/') {
				continue // standard library or outside module
			}
			irel = strings.TrimPrefix(irel, "/")
			to, ok := groupOf(irel)
			if !ok {
				continue // reported as a package without a layer
			}
			switch {
			case to.path == from.path:
			case to.rank > from.rank:
				t.Errorf("%s (layer %d, %s) imports %s (layer %d, %s): imports must point down", "./"+rel, from.rank, from.path, "./"+irel, to.rank, to.path)
			case to.rank == from.rank:
				t.Errorf("%s (%s) imports its peer %s (%s, same layer %d): move what they share below both", "./"+rel, from.path, "./"+irel, to.path, to.rank)
			}
		}
	}
}

// runOutputs are the only packages under internal/output that the run
// may import: the Output interface, its Manager and registry. Every
// concrete output reaches the run through the registry in Deps.Outputs;
// what finishes a result directory (internal/result/finish) is not an
// output.
var runOutputs = []string{"internal/output"}

// TestCoreLinksNoFamily fails when the public core (the root package)
// imports a built-in family, the drivers' catalog or the command line: a
// program that imports it links only the families it names
// (examples/size_test.go measures that).
func TestCoreLinksNoFamily(t *testing.T) {
	pkgs := packages(t)
	imps, ok := pkgs[""]
	if !ok {
		t.Fatal("no root package")
	}
	for _, imp := range imps {
		irel, ok := strings.CutPrefix(imp, module+"/")
		if !ok {
			continue
		}
		for _, bad := range []string{"internal/plugins", "internal/cli", "internal/workload/", "internal/driver/", "families", "cmdline"} {
			if irel == bad || (strings.HasSuffix(bad, "/") && strings.HasPrefix(irel, bad)) {
				t.Errorf("the root package imports ./%s: the core must not link families, drivers or the command line", irel)
			}
		}
	}
}

// TestRunKnowsNoConcreteOutput fails when internal/run imports a concrete
// output: outputs are registry entries, started and stopped by
// output.Manager. (A sweep, internal/run/sweep, renders its own report
// from finished runs: that is analysis, not an output of a run.)
func TestRunKnowsNoConcreteOutput(t *testing.T) {
	pkgs := packages(t)
	if _, ok := pkgs["internal/run"]; !ok {
		t.Fatal("no internal/run")
	}
	for _, rel := range []string{"internal/run"} {
		for _, imp := range pkgs[rel] {
			irel, ok := strings.CutPrefix(imp, module+"/")
			if ok && (irel == "internal/output" || strings.HasPrefix(irel, "internal/output/")) && !contains(runOutputs, irel) {
				t.Errorf("./%s imports the concrete output ./%s: make it a registry entry (internal/output/outputs) instead", rel, irel)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The table's matching rules, and that the check catches what it is for.
func TestGroupOf(t *testing.T) {
	for _, tc := range []struct {
		rel      string
		wantPath string
		wantOK   bool
	}{
		{"internal/driver", "internal/driver", true},
		{"internal/driver/nebula/graphsvc", "internal/driver/...", true},
		{"internal/workload", "internal/workload", true},
		{"internal/workload/kafka", "internal/workload/...", true},
		{"internal/workload/graph/loader", "internal/workload/graph/loader", true},
		{"internal/output/csvlog", "internal/output/...", true},
		{"internal/result/report", "internal/result/report", true},
		{"internal/result/summary", "internal/result/summary", true},
		{"", "", true},
		{"internal/nosuch", "", false},
	} {
		l, ok := groupOf(tc.rel)
		if ok != tc.wantOK || l.path != tc.wantPath {
			t.Errorf("groupOf(%q) = %q, %v; want %q, %v", tc.rel, l.path, ok, tc.wantPath, tc.wantOK)
		}
	}
	// The imports the layering was fixed for are refused.
	for _, tc := range [][2]string{
		{"threshold", "internal/result/summary"},
		{"internal/output/csvlog", "internal/result/report"},
		{"internal/output/csvlog", "internal/result/summary"},
		{"internal/result/summary", "internal/output/csvlog"},
		{"internal/result/summary", "internal/result/report"},
		{"internal/output/csvlog", "internal/engine"},
		{"internal/engine", "internal/output/csvlog"},
		{"internal/workload/graph/loader", "internal/workload"},
		{"internal/metrics", "internal/engine"},
		{"internal/run", "internal/cli"},
		{"internal/runconfig", "internal/run"},
		{"internal/workload", "internal/plugins"},
		{"internal/workload/kafka", "internal/run/sweep"},
		{"internal/secret", "internal/k8s"},
		{"internal/redact", "internal/driver"},
		{"internal/redact", "internal/secret"},
	} {
		from, _ := groupOf(tc[0])
		to, _ := groupOf(tc[1])
		if to.path != from.path && to.rank < from.rank {
			t.Errorf("%s may import %s, want refused", tc[0], tc[1])
		}
	}
}
