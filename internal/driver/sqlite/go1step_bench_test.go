//go:build unix

package sqlite

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/cputime"
	"github.com/stampede-bench/stampede/internal/driver"
)

// go1Step is the SQL of go.Go1Step (ldbc sqlDialect.GoStep(1)).
const go1Step = "WITH s0(id) AS (SELECT CAST($1 AS BIGINT)), s1(id) AS (SELECT k.person2id AS id FROM s0 f CROSS JOIN person_knows_person k WHERE k.person1id = f.id" +
	" UNION SELECT k.person1id FROM s0 f CROSS JOIN person_knows_person k WHERE k.person2id = f.id) SELECT id FROM s1"

// benchPersons is the number of persons of the generated knows graph.
const benchPersons = 2000

// knowsDB generates an LDBC-shaped person_knows_person table (benchPersons
// persons, 10 random edges out of each, the loader's key and index) and
// returns its path.
func knowsDB(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "knows.db")
	raw, err := sql.Open("sqlite", DSN(path, true))
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	for _, q := range []string{
		"create table person_knows_person(person1id bigint not null, person2id bigint not null, creationdate bigint, primary key (person1id, person2id))",
		"create index pkp_person2 on person_knows_person(person2id)",
	} {
		if _, err := raw.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	tx, _ := raw.Begin()
	for p := range benchPersons {
		for range 10 {
			q := r.IntN(benchPersons)
			if q == p {
				continue
			}
			if _, err := tx.Exec("insert or ignore into person_knows_person values (?, ?, 0)", p, q); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkGo1StepDo is the driver's Do of go.Go1Step's SQL with the CLI's
// default timeout and a cancellable run context (what the engine passes).
// Compare with BenchmarkGo1StepBareTimeout.
func BenchmarkGo1StepDo(b *testing.B) {
	path := knowsDB(b)
	u, _ := url.Parse(URL(path))
	d, err := Open(b.Context(), u, driver.Options{PoolSize: 1, Timeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	c, err := d.Conn(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(b.Context())
	defer cancel()
	op := &driver.Op{Query: go1Step, Args: []any{int64(0)}}
	b.ReportAllocs()
	cpu := cpuMeter(b)
	i := int64(0)
	for b.Loop() {
		op.Args[0] = i % benchPersons
		if res := c.Do(ctx, op); res.Err != nil {
			b.Fatal(res.Err)
		}
		i++
	}
	cpu()
}

// BenchmarkGo1StepBareTimeout is a bare database/sql loop of the same SQL,
// DSN (pragmas) and statement preparation, each query under its own
// context.WithTimeout of the run context: the same timeout semantics.
func BenchmarkGo1StepBareTimeout(b *testing.B) { benchBare(b, true) }

// BenchmarkGo1StepBare is the bare loop without a timeout or a
// cancellable context (the floor).
func BenchmarkGo1StepBare(b *testing.B) { benchBare(b, false) }

func benchBare(b *testing.B, timeout bool) {
	path := knowsDB(b)
	db, err := sql.Open("sqlite", dsn(path, false, time.Minute/2))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	st, err := conn.PrepareContext(b.Context(), go1Step)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	run, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.ReportAllocs()
	cpu := cpuMeter(b)
	i := int64(0)
	for b.Loop() {
		ctx, cancel := run, context.CancelFunc(func() {})
		if timeout {
			ctx, cancel = context.WithTimeout(run, time.Minute)
		} else {
			ctx = context.Background()
		}
		rows, err := st.QueryContext(ctx, i%benchPersons)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Err(); err != nil {
			b.Fatal(err)
		}
		rows.Close()
		cancel()
		i++
	}
	cpu()
}

// cpuMeter reads the process's CPU time (user + system, every thread,
// from the kernel's accounting); the function it returns reports the CPU
// since then per iteration as the metric cpu-ns/op: on a loaded machine
// the stable figure, where ns/op (wall time) is not.
func cpuMeter(b *testing.B) func() {
	start := cputime.Process()
	return func() {
		b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	}
}
