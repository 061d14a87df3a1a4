package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
	"github.com/stampede-bench/stampede/internal/workload/k6js"
)

// TestK6NebulaGraphBenchScripts runs NebulaGraph-Bench-style k6 scripts
// (k6/x/nebulagraph, both API forms), the insert one after the seed's
// `sed -i 's/batchSize = 100/batchSize = 300/'`, against the in-test
// stand-in graphd loaded with a tiny LDBC graph, and checks requests,
// checks and the output CSV in NebulaGraph-Bench's columns.
func TestK6NebulaGraphBenchScripts(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	srv, err := nebulatest.Start(nebulatest.NewStore(), nebulatest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	target := "nebula://root:nebula@" + srv.Addr() + "/sf"
	if code, stdout, stderr := runMain(t, t.Context(), "load", "--target", target, "--data", data, "--partitions", "1", "--replica-factor", "1"); code != ExitOK {
		t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
	}
	dir := t.TempDir()
	persons := filepath.Join(dir, "person.csv")
	var b strings.Builder
	b.WriteString("id|firstName|lastName|gender|birthday|creationDate|locationIP|browserUsed\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "%d|First%d|Last%d|female|1985-01-0%d|2010-03-13T07:09:54|10.0.0.%d|Firefox\n", i, i, i, i, i)
	}
	os.WriteFile(persons, []byte(b.String()), 0o644)
	src, err := os.ReadFile("testdata/k6scripts/nebula/InsertPersonScenario.js")
	if err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(dir, "InsertPersonScenario.js")
	// The seed's edit, as sed does it: the first match on every line.
	// sed -i 's/batchSize = 100/batchSize = 300/'
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		lines[i] = strings.Replace(l, "batchSize = 100", "batchSize = 300", 1)
	}
	os.WriteFile(edited, []byte(strings.Join(lines, "\n")), 0o644)
	wd, _ := os.Getwd()
	for _, tc := range []struct {
		script   string
		vus, its int
		perStmt  int // values per statement (insert) or 0
	}{
		{filepath.Join(wd, "testdata/k6scripts/nebula/Go1Step.js"), 2, 20, 0},
		{filepath.Join(wd, "testdata/k6scripts/nebula/old_form.js"), 2, 10, 0},
		{edited, 2, 4, 300},
	} {
		t.Run(filepath.Base(tc.script), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "output.csv")
			sum := filepath.Join(t.TempDir(), "summary.json")
			code, stdout, stderr := runMain(t, t.Context(), "run", tc.script, "-u", fmt.Sprint(tc.vus), "-i", fmt.Sprint(tc.its),
				"-e", "NEBULA_ADDRESS="+srv.Addr(), "-e", "PERSON_CSV="+persons, "-e", "OUTPUT_CSV="+out,
				"--summary-trend-stats", "avg,min,med,max,p(90),p(95),p(99),count", "--summary-export", sum,
				"--out", filepath.Join(t.TempDir(), "res"), "--no-report", "-q")
			if code != ExitOK {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			var doc struct {
				RootGroup struct {
					Checks map[string]struct{ Passes, Fails int }
				} `json:"root_group"`
				Metrics map[string]map[string]float64 `json:"metrics"`
			}
			raw, _ := os.ReadFile(sum)
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			if got := doc.RootGroup.Checks["IsSucceed"]; got.Passes != tc.its || got.Fails != 0 {
				t.Errorf("IsSucceed %+v, want %d passes", got, tc.its)
			}
			if got := doc.Metrics["requests"]["count"]; got != float64(tc.its) {
				t.Errorf("requests %v, want %d", got, tc.its)
			}
			if got := doc.Metrics["responseTime"]["count"]; got != float64(tc.its) {
				t.Errorf("responseTime has %v samples, want %d (stampede's own, not doubled by the script's add)", got, tc.its)
			}
			if got := doc.Metrics["latency"]["count"]; got != float64(tc.its) {
				t.Errorf("latency has %v samples, want %d", got, tc.its)
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rows, err := csv.NewReader(f).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rows[0], ",") != strings.Join(k6js.NebulaColumns, ",") {
				t.Errorf("output header %v, want %v", rows[0], k6js.NebulaColumns)
			}
			if len(rows)-1 != tc.its {
				t.Errorf("output has %d requests, want %d", len(rows)-1, tc.its)
			}
			for _, r := range rows[1:] {
				if r[4] != "true" || r[2] == "" || r[6] != "" {
					t.Errorf("output row %v: want isSucceed true, a server latency, no error", r)
				}
				if tc.perStmt > 0 && strings.Count(r[1], ":(") != tc.perStmt {
					t.Errorf("insert statement has %d values, want %d (the sed edit)", strings.Count(r[1], ":("), tc.perStmt)
				}
			}
		})
	}
}
