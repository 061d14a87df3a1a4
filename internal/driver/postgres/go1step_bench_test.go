//go:build unix

package postgres

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stampede-bench/stampede/internal/cputime"
	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/postgres/pgtest"
)

// go1Step is the SQL of go.Go1Step (ldbc sqlDialect.GoStep(1)).
const go1Step = "WITH s0(id) AS (SELECT CAST($1 AS BIGINT)), s1(id) AS (SELECT k.person2id AS id FROM s0 f CROSS JOIN person_knows_person k WHERE k.person1id = f.id" +
	" UNION SELECT k.person1id FROM s0 f CROSS JOIN person_knows_person k WHERE k.person2id = f.id) SELECT id FROM s1"

// benchPersons is the number of persons of the generated knows graph.
const benchPersons = 2000

// knowsSchema creates an LDBC-shaped person_knows_person table
// (benchPersons persons, about 10 edges out of each, the loader's key and
// index) in a schema of its own and returns its URL.
func knowsSchema(b *testing.B) string {
	b.Helper()
	raw := pgtest.Schema(b)
	c, err := pgx.Connect(b.Context(), raw)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(context.Background())
	for _, q := range []string{
		"create table person_knows_person(person1id bigint not null, person2id bigint not null, creationdate bigint, primary key (person1id, person2id))",
		"create index pkp_person2 on person_knows_person(person2id)",
		"insert into person_knows_person select p, (p * 7 + k * 131 + 1) % 2000, 0 from generate_series(0, 1999) p, generate_series(1, 10) k on conflict do nothing",
		"analyze person_knows_person",
	} {
		if _, err := c.Exec(b.Context(), q); err != nil {
			b.Fatal(err)
		}
	}
	return raw
}

// BenchmarkGo1StepDo is the driver's Do of go.Go1Step's SQL with the CLI's
// default timeout and a cancellable run context (what the engine passes).
// cpu-ns/op is this process's CPU (the client's; the server's is not in
// it). Compare with BenchmarkGo1StepBareTimeout.
func BenchmarkGo1StepDo(b *testing.B) {
	u, _ := url.Parse(knowsSchema(b))
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

// BenchmarkGo1StepBareTimeout is a bare pgx loop of the same SQL and
// configuration (statement cache, the driver's cancel handler), each query
// under its own context.WithTimeout of the run context: the same timeout
// semantics.
func BenchmarkGo1StepBareTimeout(b *testing.B) { benchBare(b, true) }

// BenchmarkGo1StepBare is the bare loop without a timeout or a
// cancellable context (the floor).
func BenchmarkGo1StepBare(b *testing.B) { benchBare(b, false) }

func benchBare(b *testing.B, timeout bool) {
	u, _ := url.Parse(knowsSchema(b))
	cfg, err := Config(u, nil)
	if err != nil {
		b.Fatal(err)
	}
	conn, err := pgx.ConnectConfig(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(context.Background())
	run, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.ReportAllocs()
	cpu := cpuMeter(b)
	i := int64(0)
	for b.Loop() {
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if timeout {
			ctx, cancel = context.WithTimeout(run, time.Minute)
		}
		rows, err := conn.Query(ctx, go1Step, i%benchPersons)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			b.Fatal(err)
		}
		cancel()
		i++
	}
	cpu()
}

func cpuMeter(b *testing.B) func() {
	start := cputime.Process()
	return func() {
		b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	}
}
