package graph

import (
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/golden"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
)

// generatedStandIn generates a small full network and loads it into a
// stand-in graphd cluster with package ngqlload.
func generatedStandIn(t *testing.T) (data, target string) {
	t.Helper()
	data = t.TempDir()
	if _, err := datagen.Generate(t.Context(), datagen.Config{SF: 0.01, Out: data, Seed: 7, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	target, _ = standIn(t, data)
	return data, target
}

// On a stand-in loaded with a generated network: every Interactive nGQL
// statement gives the reference's answer on the first parameter rows;
// every scenario runs through the family and the engine with every
// answer checked and passing; a property changed in the graph fails the
// comparison and the engine's check.
func TestNebulaInteractive(t *testing.T) {
	data, target := generatedStandIn(t)
	ref, err := loadRefGraph(data, 0)
	if err != nil {
		t.Fatal(err)
	}
	net, err := loadRefNet(data, ref)
	if err != nil {
		t.Fatal(err)
	}
	persons, messages, err := loadInteractiveParams(data)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := drivers().ParseTarget(target)
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
	d := ngqlDialect{}
	queries := ngqlInteractiveQueries()
	ask := func(name string, kind interactiveKind, row interactiveRow) [][]string {
		t.Helper()
		q := queries[name]
		stmts, err := renderInteractive(d, q.query, kind, []interactiveRow{row})
		if err != nil {
			t.Fatal(err)
		}
		var got [][]string
		res := c.(rowsDoer).DoRows(t.Context(), &driver.Op{Query: stmts[0]}, func(vals []any) error {
			cells := make([]string, len(vals))
			for k, v := range vals {
				cells[k] = q.cell(k, v)
			}
			got = append(got, cells)
			return nil
		})
		if res.Err != nil {
			t.Fatalf("%s: %v\n%s", name, res.Err, stmts[0])
		}
		if res.Rows != int64(len(got)) {
			t.Fatalf("%s: %d rows counted, %d read", name, res.Rows, len(got))
		}
		return got
	}
	for _, s := range interactiveSpecs() {
		if _, ok := queries[s.name]; !ok {
			t.Errorf("%s has no nGQL", s.name)
			continue
		}
		rows := persons
		if s.kind == onMessage {
			rows = messages
		}
		nonEmpty := 0
		for _, row := range rows[:min(len(rows), 25)] {
			got := ask(s.name, s.kind, row)
			want := s.want(net, row)
			if !equalRows(got, want) {
				t.Errorf("%s(%d): %v\ngot  %v\nwant %v", s.name, row.id, answerDiff(got, want), got, want)
			}
			if len(want) > 0 {
				nonEmpty++
			}
		}
		if nonEmpty == 0 {
			t.Errorf("%s: every answer is empty", s.name)
		}
	}
	// One friendship's date changed in the graph (an upsert of the edge)
	// is noticed by IS3 of either person.
	t.Run("engine", func(t *testing.T) { interactiveThroughEngine(t, data, target, "", 0) })
	// The first parameter person's friendship with a friend gets another
	// date.
	pa := persons[0].id
	v, _ := net.vertex(pa)
	fr := ref.neighbours(v)
	if len(fr) == 0 {
		t.Fatalf("person %d has no friend", pa)
	}
	pb := ref.ids[fr[0]]
	for _, p := range []int64{pa, pb} {
		if !equalRows(ask(IS3, onPerson, interactiveRow{id: p}), net.is3(p)) {
			t.Fatalf("IS3(%d) differs before the change", p)
		}
	}
	stmt := "INSERT EDGE KNOWS(creationDate) VALUES " + knowsEdge(t, c, pa, pb) + `:(datetime("2001-02-03T04:05:06.007"))`
	if res := c.Do(t.Context(), &driver.Op{Query: stmt}); res.Err != nil {
		t.Fatal(res.Err)
	}
	for _, p := range []int64{pa, pb} {
		got, want := ask(IS3, onPerson, interactiveRow{id: p}), net.is3(p)
		if equalRows(got, want) {
			t.Errorf("IS3(%d) matched the reference after the friendship's date changed", p)
		}
		if err := answerDiff(got, want); err == nil || !strings.Contains(err.Error(), "wrong result") {
			t.Errorf("IS3(%d): diff %v", p, err)
		}
	}
	// Through the engine: the first row (round robin) is person pa.
	interactiveThroughEngine(t, data, target, IS3, 1)
}

func itoa(v int64) string { return cellInt(v) }

// knowsEdge is "a->b" or "b->a": the direction the friendship is stored in.
func knowsEdge(t *testing.T, c driver.Conn, a, b int64) string {
	t.Helper()
	for _, e := range []string{itoa(a) + "->" + itoa(b), itoa(b) + "->" + itoa(a)} {
		res := c.Do(t.Context(), &driver.Op{Query: "FETCH PROP ON KNOWS " + e + " YIELD KNOWS.creationDate"})
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if res.Rows == 1 {
			return e
		}
	}
	t.Fatalf("no KNOWS edge between %d and %d", a, b)
	return ""
}

// interactiveThroughEngine runs Interactive scenarios through the family
// and the engine on a nebula:// target with every answer checked: all of
// them passing when only is "", else scenario only, one iteration,
// failing fails times.
func interactiveThroughEngine(t *testing.T, data, target, only string, fails int64) {
	t.Helper()
	env, _ := testEnv(t, target)
	f := newFamily(t, "--data", data, "--check-sample", "1")
	names := []string{IS1, IS2, IS3, IS4, IS5, IS6, IS7, IC1, IC2, IC7, IC8, IC9, IC13}
	vus, iterations := int64(2), int64(10)
	if only != "" {
		names, vus, iterations = []string{only}, 1, 1
	}
	opened, err := f.Open(t.Context(), env, names)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	for _, n := range names {
		snap := run(t, env.Metrics, n, opened.Scenarios[n], vus, iterations)
		ch := snap.Rates[metrics.Checks]
		if ch == nil || ch.Passes != iterations-fails || ch.Fails != fails {
			t.Errorf("%s: checks %+v, want %d passes, %d fails", n, ch, iterations-fails, fails)
		}
		var errs int64
		for msg, e := range snap.Errors {
			if fails == 0 || !strings.HasPrefix(msg, "wrong result") {
				t.Errorf("%s: error %q", n, msg)
			}
			errs += e
		}
		if errs != fails {
			t.Errorf("%s: %d errors, want %d", n, errs, fails)
		}
	}
}

// The nGQL of every Interactive scenario, rendered for one parameter row
// each, is testdata/interactive.ngql: a change to a statement shows in
// review (go test -update rewrites it).
func TestNGQLInteractiveStatements(t *testing.T) {
	var b strings.Builder
	queries := ngqlInteractiveQueries()
	row := interactiveRow{id: 933, name: "Jan", maxMs: 1_300_000_000_000}
	for _, s := range interactiveSpecs() {
		stmts, err := renderInteractive(ngqlDialect{}, queries[s.name].query, s.kind, []interactiveRow{row})
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("-- " + s.name + ": " + s.desc + "\n" + stmts[0] + ";\n\n")
	}
	ic13, _ := ngqlDialect{}.render(ngqlDialect{}.ShortestPath(6), int64(933), int64(4139))
	b.WriteString("-- " + IC13 + "\n" + ic13 + ";\n")
	golden.Check(t, "interactive.ngql", []byte(b.String()))
}
