package graph

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/postgres/pgtest"
	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/testenv"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
	"github.com/stampede-bench/stampede/vu"
)

// drivers are the graph family's: SQLite, PostgreSQL and NebulaGraph.
func drivers() *driver.Registry { return New(DefaultOptions()).drivers }

func testEnv(t *testing.T, target string) (*workload.Env, *bytes.Buffer) {
	log := &bytes.Buffer{}
	return &workload.Env{
		Target: target, DataDir: t.TempDir(), Metrics: metrics.NewRegistry(),
		MaxVUs: 4, Seed: 1, Timeout: 30 * time.Second, Log: log, Stderr: log, Quiet: false,
		Getenv: func(string) string { return "" },
	}, log
}

// newFamily returns a family with flags parsed from args.
func newFamily(t *testing.T, args ...string) *Family {
	t.Helper()
	f := New(DefaultOptions())
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}

// run runs one scenario for iterations iterations on vus VUs and returns
// its snapshot. reg is the registry the scenario's family was opened with.
func run(t *testing.T, reg *metrics.Registry, name string, sc vu.Scenario, vus, iterations int64) *metrics.ScenarioSnapshot {
	t.Helper()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{name})
	go agg.Run()
	cfg := engine.Config{Executor: engine.SharedIterations, VUs: vus, Iterations: iterations}.Defaults()
	if _, err := engine.Run(t.Context(), engine.Plan{Scenarios: []engine.Spec{{Name: name, Scenario: sc, Config: cfg}}}, engine.Deps{Agg: agg, Clock: clock}); err != nil {
		t.Fatal(err)
	}
	agg.Close()
	return agg.Snapshot().Scenarios[0]
}

func TestReference(t *testing.T) {
	dir := t.TempDir()
	ldbctest.Write(t, dir, ldbctest.Tiny)
	g, err := loadRefGraph(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	for person, want := range ldbctest.TinyGoStep {
		for n := 1; n <= 3; n++ {
			if got := g.goStep(person, n); got != want[n-1] {
				t.Errorf("goStep(%d, %d) = %d, want %d", person, n, got, want[n-1])
			}
		}
	}
	for pair, want := range ldbctest.TinyShortest {
		if got := g.shortestPath(pair[0], pair[1], 6); got != want {
			t.Errorf("shortestPath(%v) = %d, want %d", pair, got, want)
		}
	}
	if got := g.shortestPath(1, 5, 2); got != -1 {
		t.Errorf("shortestPath(1, 5) within 2 hops = %d, want -1", got)
	}
	if !g.hasPerson(8) || g.hasPerson(100) {
		t.Error("hasPerson")
	}
}

// loadedTargets loads the tiny graph into each kind of target.
func loadedTargets(t *testing.T, data string) map[string]string {
	out := map[string]string{"sqlite": "sqlite://" + filepath.Join(t.TempDir(), "tiny.db")}
	if os.Getenv(pgtest.EnvVar) != "" || testenv.InCI(os.Getenv) {
		out["postgres"] = pgtest.Schema(t)
	}
	for _, tgt := range out {
		if _, err := loader.Load(t.Context(), loader.Config{Target: tgt, Data: data}); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// The SQL of every scenario gives the hand-checked answers, on both
// databases, independently of the reference.
func TestQueriesAnswer(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	for name, tgt := range loadedTargets(t, data) {
		t.Run(name, func(t *testing.T) {
			u, _ := drivers().ParseTarget(tgt)
			d := dialectFor(u.Scheme)
			drv, err := drivers().Open(t.Context(), u, driver.Options{PoolSize: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer drv.Close()
			c, err := drv.Conn(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for person, want := range ldbctest.TinyGoStep {
				for n := 1; n <= 3; n++ {
					res := c.Do(t.Context(), &driver.Op{Query: d.GoStep(n), Args: []any{person}})
					if res.Err != nil || res.Rows != want[n-1] {
						t.Errorf("Go%dStep(%d) = %d rows, %v; want %d", n, person, res.Rows, res.Err, want[n-1])
					}
				}
			}
			for _, depth := range []int{1, 2, 3, 6, 7} {
				for pair, want := range ldbctest.TinyShortest {
					if want > int64(depth) {
						want = -1
					}
					var got int64
					res := c.(scanner).DoScan(t.Context(), &driver.Op{Query: d.ShortestPath(depth), Args: []any{pair[0], pair[1]}}, &got)
					if res.Err != nil || got != want {
						t.Errorf("depth %d: ShortestPath(%v) = %d, %v; want %d", depth, pair, got, res.Err, want)
					}
				}
			}
			res := c.Do(t.Context(), &driver.Op{Query: d.FetchPerson(), Args: []any{int64(3)}})
			if res.Err != nil || res.Rows != 1 {
				t.Errorf("FetchPerson(3) = %d rows, %v", res.Rows, res.Err)
			}
		})
	}
}

// Every built-in scenario runs through the engine with all checks passing.
func TestScenariosThroughEngine(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	for name, tgt := range loadedTargets(t, data) {
		t.Run(name, func(t *testing.T) {
			env, _ := testEnv(t, tgt)
			f := newFamily(t, "--data", data, "--check-sample", "1", "--batch-size", "2")
			names := []string{Go1Step, Go2Step, Go3Step, FindShortestPath, InsertPerson, FetchTag}
			opened, err := f.Open(t.Context(), env, names)
			if err != nil {
				t.Fatal(err)
			}
			defer opened.Close()
			if !strings.Contains(opened.TargetVersion, "SQLite") && !strings.Contains(opened.TargetVersion, "PostgreSQL") {
				t.Errorf("TargetVersion %q", opened.TargetVersion)
			}
			for _, n := range names {
				snap := run(t, env.Metrics, n, opened.Scenarios[n], 2, 10)
				if len(snap.Errors) > 0 {
					t.Errorf("%s: errors %v", n, snap.Errors)
				}
				ch := snap.Rates[metrics.Checks]
				if ch == nil || ch.Passes != 10 || ch.Fails != 0 {
					t.Errorf("%s: checks %+v, want 10 passes", n, ch)
				}
			}
		})
	}
}

// A target that answers wrongly fails its checks with a counted error.
func TestWrongAnswerFailsCheck(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	path := filepath.Join(t.TempDir(), "tiny.db")
	if _, err := loader.Load(t.Context(), loader.Config{Target: "sqlite://" + path, Data: data}); err != nil {
		t.Fatal(err)
	}
	db, _ := sql.Open("sqlite", sqlite.DSN(path, false))
	// Same counts, other graph: 1-3 becomes 1-8.
	if _, err := db.Exec("UPDATE person_knows_person SET person2id = 8 WHERE person1id = 1 AND person2id = 3"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	env, _ := testEnv(t, "sqlite://"+path)
	f := newFamily(t, "--data", data, "--check-sample", "1")
	opened, err := f.Open(t.Context(), env, []string{Go1Step})
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	snap := run(t, env.Metrics, Go1Step, opened.Scenarios[Go1Step], 1, 3) // persons 1, 6, 8
	// Person 1: {2,8} for {2,3}, the right count with a wrong id; person
	// 8: a friend where the reference has none.
	if ch := snap.Rates[metrics.Checks]; ch == nil || ch.Fails != 2 || ch.Passes != 1 {
		t.Errorf("checks %+v, want 2 fails of 3", ch)
	}
	if n := snap.Errors["wrong result: 2 rows, 1 ids not in the reference, 1 reference ids missing"]; n != 1 {
		t.Errorf("errors %v, want person 1's wrong id", snap.Errors)
	}
	if n := snap.Errors["wrong result: 1 rows, 1 ids not in the reference"]; n != 1 {
		t.Errorf("errors %v, want person 8's unexpected friend", snap.Errors)
	}
}

// With no target the family generates the data set and loads it into an
// embedded SQLite file, and reuses both next time.
func TestEmbeddedDefault(t *testing.T) {
	env, log := testEnv(t, "")
	f := newFamily(t, "--sf", "0.002")
	opened, err := f.Open(t.Context(), env, []string{Go1Step, FindShortestPath})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "generating LDBC SF0.002") || !strings.Contains(log.String(), "loaded ") {
		t.Errorf("log:\n%s", log)
	}
	if !strings.HasPrefix(opened.Target, "sqlite://") || !strings.HasSuffix(opened.Target, "ldbc-sf0.002.db") {
		t.Errorf("target %q", opened.Target)
	}
	for _, n := range []string{Go1Step, FindShortestPath} {
		snap := run(t, env.Metrics, n, opened.Scenarios[n], 2, 20)
		if len(snap.Errors) > 0 || snap.Rates[metrics.Checks] == nil || snap.Rates[metrics.Checks].Fails > 0 {
			t.Errorf("%s: errors %v checks %+v", n, snap.Errors, snap.Rates[metrics.Checks])
		}
	}
	opened.Close()
	log.Reset()
	opened, err = newFamily(t, "--sf", "0.002").Open(t.Context(), env, []string{Go1Step})
	if err != nil {
		t.Fatal(err)
	}
	opened.Close()
	if strings.Contains(log.String(), "generating") || strings.Contains(log.String(), "loading") {
		t.Errorf("second open generated or loaded again:\n%s", log)
	}
}

func TestTemplateParams(t *testing.T) {
	tests := []struct {
		in, want string
		names    []string
	}{
		{"SELECT 1", "SELECT 1", nil},
		{"a = {{x}} AND b = {{ y }} OR a = {{x}}", "a = $1 AND b = $2 OR a = $1", []string{"x", "y"}},
		{"unclosed {{x", "unclosed {{x", nil},
	}
	for _, tc := range tests {
		got, names := templateParams(tc.in)
		if got != tc.want || strings.Join(names, ",") != strings.Join(tc.names, ",") {
			t.Errorf("templateParams(%q) = %q, %v; want %q, %v", tc.in, got, names, tc.want, tc.names)
		}
	}
}

func TestCustomScenario(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	tgt := "sqlite://" + filepath.Join(t.TempDir(), "tiny.db")
	if _, err := loader.Load(t.Context(), loader.Config{Target: tgt, Data: data}); err != nil {
		t.Fatal(err)
	}
	yamlDir := t.TempDir()
	os.WriteFile(filepath.Join(yamlDir, "langs.csv"), []byte("who|lang\n1|en\n2|de\n3|xx\n"), 0o644)
	file := filepath.Join(yamlDir, "s.yaml")
	os.WriteFile(file, []byte(`scenarios:
  - name: custom.SpeaksLanguage
    description: does a person speak a language
    query:
      sql: SELECT personid FROM person_speaks_language WHERE personid = $1 AND language = $2
    params: langs.csv
    columns: [who, lang]
  - name: custom.KHopFriends
    query:
      sql: SELECT person2id FROM person_knows_person WHERE person1id = {{personId}} OR (person1id = {{ personId }} AND 1 = 0)
    params: substitution_parameters/khop_person.csv
    default: true
`), 0o644)
	f := newFamily(t, "--data", data, "--scenario-file", file)
	infos := f.Scenarios()
	last := infos[len(infos)-1]
	if last.Name != "custom.KHopFriends" || !last.Default {
		t.Errorf("scenarios %+v", infos)
	}
	env, _ := testEnv(t, tgt)
	opened, err := f.Open(t.Context(), env, []string{"custom.SpeaksLanguage", "custom.KHopFriends"})
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	snap := run(t, env.Metrics, "custom.SpeaksLanguage", opened.Scenarios["custom.SpeaksLanguage"], 1, 3)
	if rows := snap.Trends[metrics.Rows]; rows == nil || rows.Hist.TotalCount() != 3 || rows.Hist.Max() != 1 || rows.Hist.Min() != 0 {
		t.Errorf("rows trend wrong; errors %v", snap.Errors)
	}
	snap = run(t, env.Metrics, "custom.KHopFriends", opened.Scenarios["custom.KHopFriends"], 1, 3)
	if rows := snap.Trends[metrics.Rows]; rows == nil || rows.Hist.Max() != 2 { // person 1 knows 2 and 3 as person1id
		t.Errorf("KHopFriends rows max %v; errors %v", rows.Hist.Max(), snap.Errors)
	}

	bad := []struct{ name, yaml, want string }{
		{"no name dot", "scenarios:\n  - name: Foo\n    query: {sql: select 1}\n", "family.Name"},
		{"taken", "scenarios:\n  - name: go.Go1Step\n    query: {sql: select 1}\n", "already taken"},
		{"no query", "scenarios:\n  - name: a.B\n", "no query"},
		{"unknown field", "scenarios:\n  - name: a.B\n    qeury: {sql: select 1}\n", "qeury"},
		{"missing column", "scenarios:\n  - name: a.B\n    query: {sql: select 1}\n    params: langs.csv\n    columns: [nope]\n", "no column"},
		{"no sql", "scenarios:\n  - name: a.B\n    query: {cypher: MATCH (n) RETURN n}\n", "no sql query"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(yamlDir, "bad.yaml")
			os.WriteFile(p, []byte(tc.yaml), 0o644)
			f := newFamily(t, "--data", data, "--scenario-file", p)
			var names []string
			for _, s := range f.Scenarios() {
				if s.Name == "a.B" {
					names = append(names, s.Name)
				}
			}
			if len(names) == 0 {
				names = []string{Go1Step}
			}
			_, err := f.Open(t.Context(), env, names)
			if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want usage error with %q", err, tc.want)
			}
		})
	}
}

// Bad options and targets fail Open with usage errors (exit 2 before the
// run) that name the problem and never a password.
func TestOpenErrors(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	empty := "sqlite://" + filepath.Join(t.TempDir(), "empty.db")
	tests := []struct {
		name, target string
		args         []string
		want         string
	}{
		{"bad batch", "", []string{"--batch-size", "0"}, "--batch-size"},
		{"bad order", "", []string{"--param-order", "sorted"}, "--param-order"},
		{"bad depth", "", []string{"--max-depth", "40"}, "--max-depth"},
		{"bad sf", "", []string{"--sf", "0.5"}, "--sf"},
		{"unknown scheme", "mysql://x", nil, "need a sqlite://, postgres:// or nebula:// target, not mysql"},
		{"not graph", "http://127.0.0.1:1/", nil, "need a sqlite://, postgres:// or nebula:// target"},
		{"unloaded", empty, nil, "stampede load"},
		{"unreachable", "postgres://u:hunter2@127.0.0.1:1/db?connect_timeout=2", nil, "127.0.0.1:1"},
		{"data lacks params", "", []string{"--data", "MISSING_PARAMS"}, "no start persons for go.* and fetch.FetchTag: want substitution_parameters/khop_person.csv (stampede gen ldbc) or LDBC's substitution_parameters/interactive_1_param.txt"},
		{"bad date format", "", []string{"--date-format", "unix"}, "--date-format"},
		{"bad max-rejected", "", []string{"--max-rejected", "x"}, "--max-rejected"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, _ := testEnv(t, tc.target)
			args := append([]string{"--data", data}, tc.args...)
			if len(tc.args) > 1 && tc.args[1] == "MISSING_PARAMS" {
				d := t.TempDir()
				ldbctest.Write(t, d, ldbctest.Tiny)
				os.RemoveAll(filepath.Join(d, "substitution_parameters"))
				args = []string{"--data", d}
			}
			_, err := newFamily(t, args...).Open(t.Context(), env, []string{Go1Step})
			if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want usage error with %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "--force") {
				t.Errorf("password or a destructive suggestion in %v", err)
			}
		})
	}
}

// When the server drops the connections during the run, the failed
// operations are counted as errors by message and the VUs reconnect.
func TestServerDiesDuringRun(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	tgt := pgtest.Schema(t) + "&application_name=stampede_dies_test" // only these are killed
	if _, err := loader.Load(t.Context(), loader.Config{Target: tgt, Data: data}); err != nil {
		t.Fatal(err)
	}
	env, _ := testEnv(t, tgt)
	opened, err := newFamily(t, "--data", data).Open(t.Context(), env, []string{Go1Step})
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	admin, err := pgx.Connect(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	go func() {
		for range 3 {
			time.Sleep(300 * time.Millisecond)
			admin.Exec(context.Background(), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = current_user AND pid <> pg_backend_pid() AND application_name = 'stampede_dies_test'")
		}
	}()
	reg := env.Metrics // the registry the family was opened with
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{Go1Step})
	go agg.Run()
	cfg := engine.Config{Executor: engine.ConstantVUs, VUs: 2, Duration: 1500 * time.Millisecond}.Defaults()
	if _, err := engine.Run(t.Context(), engine.Plan{Scenarios: []engine.Spec{{Name: Go1Step, Scenario: opened.Scenarios[Go1Step], Config: cfg}}}, engine.Deps{Agg: agg, Clock: clock}); err != nil {
		t.Fatal(err)
	}
	agg.Close()
	snap := agg.Snapshot().Scenarios[0]
	if snap.Counters[metrics.Errors] == 0 || len(snap.Errors) == 0 {
		t.Fatalf("no errors counted; counters %v", snap.Counters)
	}
	if snap.Counters[metrics.Requests] <= snap.Counters[metrics.Errors]*5 {
		t.Errorf("requests %d vs errors %d: the VUs did not reconnect", snap.Counters[metrics.Requests], snap.Counters[metrics.Errors])
	}
	t.Logf("errors by message: %v", snap.Errors)
}

// A run against a loaded target without --data uses the data set the
// target was loaded from.
func TestTargetRemembersData(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	tgt := "sqlite://" + filepath.Join(t.TempDir(), "tiny.db")
	if _, err := loader.Load(t.Context(), loader.Config{Target: tgt, Data: data}); err != nil {
		t.Fatal(err)
	}
	env, _ := testEnv(t, tgt)
	opened, err := newFamily(t, "--check-sample", "1").Open(t.Context(), env, []string{Go2Step})
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	if !strings.Contains(opened.Notes[0], data) {
		t.Errorf("notes %v, want the loaded data set %s", opened.Notes, data)
	}
	if snap := run(t, env.Metrics, Go2Step, opened.Scenarios[Go2Step], 1, 3); snap.Rates[metrics.Checks].Fails != 0 {
		t.Errorf("checks %+v", snap.Rates[metrics.Checks])
	}
}
