package graph

import (
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
	"github.com/stampede-bench/stampede/internal/workload/graph/ngqlload"
)

// standIn starts two stand-in graphds, loads data into space "tiny" with
// package ngqlload and returns the target URL.
func standIn(t *testing.T, data string) (string, *nebulatest.Cluster) {
	t.Helper()
	c, err := nebulatest.StartCluster(2, nebulatest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	target := "nebula://root:nebula@" + strings.Join(c.Addrs(), ",") + "/tiny"
	if _, err := ngqlload.Load(t.Context(), ngqlload.Config{Target: target, Data: data, Batch: 3}); err != nil {
		t.Fatal(err)
	}
	return target, c
}

// The nGQL of every scenario gives the hand-checked answers on the
// stand-in, independently of the reference.
func TestNGQLAnswers(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	target, _ := standIn(t, data)
	u, _ := drivers().ParseTarget(target)
	d := dialectFor(u.Scheme).(ngqlDialect)
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
			q, _ := d.render(d.GoStep(n), person)
			res := c.Do(t.Context(), &driver.Op{Query: q})
			if res.Err != nil || res.Rows != want[n-1] {
				t.Errorf("%s = %d rows, %v; want %d", q, res.Rows, res.Err, want[n-1])
			}
		}
	}
	for _, depth := range []int{1, 2, 3, 6} {
		for pair, want := range ldbctest.TinyShortest {
			if want > int64(depth) {
				want = -1
			}
			got := int64(-99)
			q, _ := d.render(d.ShortestPath(depth), pair[0], pair[1])
			res := c.(scanner).DoScan(t.Context(), &driver.Op{Query: q}, &got)
			if res.Rows == 0 {
				got = -1
			}
			if res.Err != nil || got != want {
				t.Errorf("%s = %d, %v; want %d", q, got, res.Err, want)
			}
		}
	}
	q, _ := d.render(d.FetchPerson(), int64(3))
	if res := c.Do(t.Context(), &driver.Op{Query: q}); res.Err != nil || res.Rows != 1 {
		t.Errorf("%s = %d rows, %v", q, res.Rows, res.Err)
	}
}

// Every built-in scenario runs through the engine on a nebula:// target
// with all checks passing, the statements sent are plain nGQL, the
// server latency is recorded, and the run says what the stand-in is.
func TestNebulaScenariosThroughEngine(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	target, cluster := standIn(t, data)
	env, _ := testEnv(t, target)
	f := newFamily(t, "--check-sample", "1", "--batch-size", "2") // no --data: the space's load record names it
	names := []string{Go1Step, Go2Step, Go3Step, FindShortestPath, InsertPerson, FetchTag}
	opened, err := f.Open(t.Context(), env, names)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	if opened.TargetVersion != nebula.StandInVersion || opened.InProcess {
		t.Errorf("TargetVersion %q, in process %v", opened.TargetVersion, opened.InProcess)
	}
	notes := strings.Join(opened.Notes, "\n")
	for _, want := range []string{"never against a real NebulaGraph server", "NOT NebulaGraph"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if strings.Contains(opened.Target, "nebula@") {
		t.Errorf("target shows the password: %s", opened.Target)
	}
	for _, n := range names {
		snap := run(t, env.Metrics, n, opened.Scenarios[n], 2, 10)
		if len(snap.Errors) > 0 {
			t.Errorf("%s: errors %v", n, snap.Errors)
		}
		ch := snap.Rates[metrics.Checks]
		want := int64(10)
		if n == InsertPerson {
			want = 0 // nGQL INSERT reports no row count: nothing to check
		}
		if want > 0 && (ch == nil || ch.Passes != want || ch.Fails != 0) {
			t.Errorf("%s: checks %+v, want %d passes", n, ch, want)
		}
		if lat := snap.Trends[metrics.Latency]; lat == nil || lat.Hist.TotalCount() != 10 {
			t.Errorf("%s: latency trend %+v, want 10 server latencies", n, lat)
		}
	}
	// Both graphds served VUs.
	for i, s := range cluster.Servers {
		if s.Executed.Load() == 0 {
			t.Errorf("graphd %d executed nothing", i)
		}
	}
	// Inserted persons are there, with the shifted ids of later passes.
	m, err := ngqlload.Inspect(t.Context(), target, nil)
	if err != nil || m.Persons != 8 {
		t.Fatalf("%+v %v", m, err)
	}
}
