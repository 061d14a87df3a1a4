package graph

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// execSQL runs a statement on a loaded target (SQLite file or PostgreSQL
// schema) behind the family's back.
func execSQL(t *testing.T, tgt, q string) int64 {
	t.Helper()
	if path, ok := strings.CutPrefix(tgt, "sqlite://"); ok {
		db, err := sql.Open("sqlite", sqlite.DSN(path, false))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		res, err := db.Exec(q)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := res.RowsAffected()
		return n
	}
	c, err := pgx.Connect(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(t.Context())
	tag, err := c.Exec(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	return tag.RowsAffected()
}

// queryInt returns the one integer a query answers.
func queryInt(t *testing.T, tgt, q string) int64 {
	t.Helper()
	var n int64
	if path, ok := strings.CutPrefix(tgt, "sqlite://"); ok {
		db, _ := sql.Open("sqlite", sqlite.DSN(path, false))
		defer db.Close()
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	c, err := pgx.Connect(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(t.Context())
	if err := c.QueryRow(t.Context(), q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// run checks the target's graph before measuring: a target that lost
// rows, or is empty, stops Open with a run error (exit 1, not a usage
// error) carrying both sets of numbers; with checks on the numbers come
// from the reference, with checks off from the load record.
func TestRunChecksTargetCounts(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	for name, tgt := range loadedTargets(t, data) {
		t.Run(name, func(t *testing.T) {
			env, _ := testEnv(t, tgt)
			opened, err := newFamily(t, "--data", data).Open(t.Context(), env, []string{Go1Step})
			if err != nil {
				t.Fatal(err)
			}
			opened.Close()
			if !strings.Contains(strings.Join(opened.Notes, "\n"), "target graph checked before measuring: 8 persons, 6 knows") {
				t.Errorf("notes %q", opened.Notes)
			}
			execSQL(t, tgt, "DELETE FROM person_knows_person WHERE person1id = 6")
			for _, check := range []string{"1", "0"} {
				_, err = newFamily(t, "--data", data, "--check-sample", check).Open(t.Context(), env, []string{Go1Step})
				if err == nil || usage.Is(err) ||
					!strings.Contains(err.Error(), "target 8 persons, 5 knows") || !strings.Contains(err.Error(), "8 persons, 6 knows") {
					t.Errorf("check-sample %s: err = %v, want a run error with both counts", check, err)
				}
			}
			execSQL(t, tgt, "DELETE FROM person_knows_person")
			_, err = newFamily(t, "--data", data).Open(t.Context(), env, []string{Go1Step})
			if err == nil || usage.Is(err) || !strings.Contains(err.Error(), "graph is empty (8 persons, 0 knows)") {
				t.Errorf("empty graph: err = %v", err)
			}
		})
	}
}

// Data with epoch-millisecond dates loads and runs (the issue's "load
// rejects everything and succeeds, run measures an empty graph"), and bad
// rows stop the embedded run before measuring unless --max-rejected allows
// them, in which case the summary says how many rows are not in the graph.
func TestEmbeddedRunRejectsBadRows(t *testing.T) {
	millis := t.TempDir()
	ldbctest.WriteFiles(t, millis, ldbctest.Official("CsvBasic", true))
	env, _ := testEnv(t, "")
	opened, err := newFamily(t, "--data", millis).Open(t.Context(), env, []string{Go2Step})
	if err != nil {
		t.Fatal(err)
	}
	snap := run(t, env.Metrics, Go2Step, opened.Scenarios[Go2Step], 1, 4)
	opened.Close()
	if snap.Rates[metrics.Checks] == nil || snap.Rates[metrics.Checks].Fails != 0 || len(snap.Errors) > 0 {
		t.Errorf("millis data set: checks %+v errors %v", snap.Rates[metrics.Checks], snap.Errors)
	}

	dirty := t.TempDir()
	ldbctest.Write(t, dirty, ldbctest.With(ldbctest.Tiny, map[string][]string{
		ldbcfile.PersonPath:            {"9|Bad|Date|male|1985-13-02|2011-02-03T04:05:06.789+0000|1.2.3.4|Chrome"},
		ldbcfile.PersonKnowsPersonPath: {"9|1|2012-01-01T00:00:00.000+0000"},
	}))
	env, _ = testEnv(t, "")
	_, err = newFamily(t, "--data", dirty).Open(t.Context(), env, []string{Go2Step})
	if !errors.Is(err, loader.ErrRejected) || !usage.Is(err) || !strings.Contains(err.Error(), "2 of 19 rows are not valid") {
		t.Fatalf("dirty data set: err = %v", err)
	}
	opened, err = newFamily(t, "--data", dirty, "--max-rejected", "2").Open(t.Context(), env, []string{Go2Step})
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	if notes := strings.Join(opened.Notes, "\n"); !strings.Contains(notes, "2 person/knows rows that are not in the graph") {
		t.Errorf("notes:\n%s", notes)
	}
}

// Every official layout, either date format, runs every built-in scenario
// with LDBC's own substitution parameters on both targets, all checks
// passing, and says which parameters it used.
func TestOfficialLayoutsRun(t *testing.T) {
	names := []string{Go1Step, Go2Step, Go3Step, FindShortestPath, InsertPerson, FetchTag}
	for _, layout := range ldbctest.OfficialLayouts {
		for _, millis := range []bool{false, true} {
			if millis != (layout == "CsvComposite" || layout == "CsvCompositeMergeForeign") && layout != "CsvBasic" {
				continue // each layout with one date format, CsvBasic with both
			}
			data := t.TempDir()
			ldbctest.WriteFiles(t, data, ldbctest.Official(layout, millis))
			for name, tgt := range loadedTargets(t, data) {
				t.Run(layout+"/"+name, func(t *testing.T) {
					env, _ := testEnv(t, tgt)
					opened, err := newFamily(t, "--data", data, "--check-sample", "1", "--batch-size", "2").Open(t.Context(), env, names)
					if err != nil {
						t.Fatal(err)
					}
					defer opened.Close()
					notes := strings.Join(opened.Notes, "\n")
					for _, sn := range opened.ScenarioNotes { // parameters: under their scenarios
						notes += "\n" + strings.Join(sn, "\n")
					}
					if sn := opened.ScenarioNotes[Go1Step]; len(sn) != 1 || !strings.HasPrefix(sn[0], "parameters of go.*") {
						t.Errorf("go.Go1Step's own notes %q, want its parameters only", sn)
					}
					for _, want := range []string{
						"(" + layout + "): 6 persons, 7 knows",
						"parameters of go.*/fetch.FetchTag: substitution_parameters/interactive_1_param.txt + substitution_parameters/interactive_2_param.txt (3 persons)",
						"parameters of find_path.FindShortestPath: substitution_parameters/interactive_13_param.txt (3 pairs)",
						"parameters of insert.InsertPersonScenario: the first 6 persons of social_network/dynamic/person_0_0.csv as templates",
					} {
						if !strings.Contains(notes, want) {
							t.Errorf("notes lack %q:\n%s", want, notes)
						}
					}
					for _, n := range names {
						snap := run(t, env.Metrics, n, opened.Scenarios[n], 2, 6)
						if ch := snap.Rates[metrics.Checks]; len(snap.Errors) > 0 || ch == nil || ch.Passes != 6 {
							t.Errorf("%s: errors %v checks %+v", n, snap.Errors, ch)
						}
					}
				})
			}
		}
	}
}

// Two consecutive insert runs against one target both add rows, with ids
// above the target's largest, and the check (rows = batch size) passes.
func TestInsertRunsAreRepeatable(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	for name, tgt := range loadedTargets(t, data) {
		t.Run(name, func(t *testing.T) {
			for round := 1; round <= 2; round++ {
				env, _ := testEnv(t, tgt)
				opened, err := newFamily(t, "--data", data, "--check-sample", "1", "--batch-size", "2").Open(t.Context(), env, []string{InsertPerson})
				if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				sc := opened.Scenarios[InsertPerson]
				snap := run(t, env.Metrics, InsertPerson, sc, 2, 5) // 10 persons a round
				if ch := snap.Rates[metrics.Checks]; len(snap.Errors) > 0 || ch == nil || ch.Passes != 5 {
					t.Errorf("round %d: errors %v checks %+v", round, snap.Errors, ch)
				}
				if got := queryInt(t, tgt, "SELECT count(*) FROM person"); got != 8+10*int64(round) {
					t.Errorf("round %d: %d persons, want %d", round, got, 8+10*round)
				}
				wantIDs := "new person ids 9..18"
				if round == 2 {
					wantIDs = "new person ids 19..28"
				}
				if notes := strings.Join(sc.(*insertPersons).Notes(), "\n"); !strings.Contains(notes, wantIDs) {
					t.Errorf("round %d: notes %q, want %q", round, notes, wantIDs)
				}
				opened.Close()
			}
		})
	}
}

// Ids that would overflow int64 fail the iteration instead of wrapping.
func TestInsertIDOverflow(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	tgt := "sqlite://" + filepath.Join(t.TempDir(), "g.db")
	if _, err := loader.Load(t.Context(), loader.Config{Target: tgt, Data: data}); err != nil {
		t.Fatal(err)
	}
	execSQL(t, tgt, "INSERT INTO person SELECT 9223372036854775800, firstname, lastname, gender, birthday, creationdate, locationip, browserused FROM person WHERE id = 1")
	env, _ := testEnv(t, tgt)
	opened, err := newFamily(t, "--data", data, "--batch-size", "5").Open(t.Context(), env, []string{InsertPerson})
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	snap := run(t, env.Metrics, InsertPerson, opened.Scenarios[InsertPerson], 1, 3)
	if snap.Errors[errIDOverflow.Error()] < 2 {
		t.Errorf("errors %v, want id overflows", snap.Errors)
	}
}
