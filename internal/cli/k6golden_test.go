package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updateK6Golden = flag.Bool("update-k6-golden", false, "run the k6 script corpus under real k6 ($K6) and rewrite testdata/k6scripts/golden")

// k6GoldenScripts are the corpus scripts whose summary real k6 made
// (bench/k6_golden.sh); stampede's summary of each must have k6's metric
// names, counts and check results.
var k6GoldenScripts = []string{"http_get_check.js", "http_methods.js", "http_batch.js", "expected_statuses.js", "redirects_cookies.js",
	"custom_metrics.js", "groups.js", "scenarios.js", "shared_array.js", "exception.js",
	"setup_requests.js", "vu_tags.js"}

// k6Summary is the part of a --summary-export file that must agree.
type k6Summary struct {
	RootGroup k6Group                   `json:"root_group"`
	Metrics   map[string]map[string]any `json:"metrics"`
}

type k6Group struct {
	Groups map[string]k6Group `json:"groups"`
	Checks map[string]struct {
		Passes, Fails float64
	} `json:"checks"`
}

// checks flattens the checks of g and its groups by name.
func (g k6Group) checks(out map[string][2]float64) {
	for n, c := range g.Checks {
		v := out[n]
		out[n] = [2]float64{v[0] + c.Passes, v[1] + c.Fails}
	}
	for _, sub := range g.Groups {
		sub.checks(out)
	}
}

// exactFields are the summary fields whose values do not depend on timing.
var exactFields = map[string]bool{"count": true, "passes": true, "fails": true, "value": true}

// k6Differences are the known differences from k6, documented in
// docs/k6-scripts.md, by script and metric (or "checks:NAME").
var k6Differences = map[string]map[string]string{
	"*": {
		"data_sent":     "bytes on the wire differ with the User-Agent (stampede's, not k6's)",
		"data_received": "the echo target returns the request headers (User-Agent)",
	},
	"scenarios.js": {
		"iterations":         "k6's constant-arrival-rate starts rate+1 iterations in a duration of 1 timeUnit (one at its end), stampede's rate",
		"checks":             "the same extra iteration",
		"checks:writer name": "the same extra iteration",
	},
}

func knownDifference(script, key string) bool {
	_, all := k6Differences["*"][key]
	_, one := k6Differences[script][key]
	return all || one
}

// TestK6GoldenSummaries compares stampede's summary of each golden script
// with the one real k6 wrote (testdata/k6scripts/golden/k6-VERSION/):
// every metric k6 reports exists with the same kind of fields, counts,
// rates of passes and check results are equal. Timing-dependent values
// (trend statistics, per-second rates) are not compared.
func TestK6GoldenSummaries(t *testing.T) {
	srv := k6Target(t)
	wd, _ := os.Getwd()
	goldenDirs, _ := filepath.Glob(filepath.Join(wd, "testdata", "k6scripts", "golden", "k6-*"))
	if *updateK6Golden {
		k6 := os.Getenv("K6")
		if k6 == "" {
			t.Fatal("-update-k6-golden needs K6=/path/to/k6")
		}
		ver, err := exec.Command(k6, "version").Output()
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(wd, "testdata", "k6scripts", "golden", "k6-"+strings.Fields(string(ver))[1])
		os.MkdirAll(dir, 0o755)
		for _, s := range k6GoldenScripts {
			out := filepath.Join(dir, strings.TrimSuffix(s, filepath.Ext(s))+".json")
			cmd := exec.Command(k6, "run", "-q", "--no-usage-report", "-e", "BASE="+srv.URL, "-e", "SUMMARY_FILE="+filepath.Join(t.TempDir(), "hs.json"),
				"--summary-export", out, filepath.Join(wd, "testdata", "k6scripts", s))
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("k6 run %s: %v\n%s", s, err, b)
			}
		}
		goldenDirs = []string{dir}
	}
	if len(goldenDirs) == 0 {
		t.Fatal("no golden summaries (run bench/k6_golden.sh)")
	}
	for _, s := range k6GoldenScripts {
		t.Run(s, func(t *testing.T) {
			var k6s k6Summary
			b, err := os.ReadFile(filepath.Join(goldenDirs[len(goldenDirs)-1], strings.TrimSuffix(s, filepath.Ext(s))+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &k6s); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			sum := filepath.Join(dir, "summary.json")
			code, stdout, stderr := runMain(t, t.Context(), "run", filepath.Join(wd, "testdata", "k6scripts", s), "-e", "BASE="+srv.URL,
				"-e", "SUMMARY_FILE="+filepath.Join(dir, "hs.json"), "--out", filepath.Join(dir, "res"), "--summary-export", sum, "--no-report", "--no-csv", "-q")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			var st k6Summary
			b, _ = os.ReadFile(sum)
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatal(err)
			}
			var names []string
			for n := range k6s.Metrics {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				km, sm := k6s.Metrics[n], st.Metrics[n]
				if knownDifference(s, n) {
					continue
				}
				if sm == nil {
					t.Errorf("k6 reports %s, stampede does not", n)
					continue
				}
				for f, kv := range km {
					if f == "thresholds" || !exactFields[f] {
						continue
					}
					if n == "vus" || n == "vus_max" {
						continue // sampled gauges: k6's last sample may differ
					}
					if fmt.Sprint(sm[f]) != fmt.Sprint(kv) {
						t.Errorf("%s.%s: stampede %v, k6 %v", n, f, sm[f], kv)
					}
				}
			}
			kc, sc := map[string][2]float64{}, map[string][2]float64{}
			k6s.RootGroup.checks(kc)
			st.RootGroup.checks(sc)
			for name, k := range kc {
				if knownDifference(s, "checks:"+name) {
					continue
				}
				if sc[name] != k {
					t.Errorf("check %q: stampede %v, k6 %v", name, sc[name], k)
				}
			}
			if len(kc) != len(sc) {
				t.Errorf("checks: stampede %v, k6 %v", sc, kc)
			}
		})
	}
}
