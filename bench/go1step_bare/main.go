// Command go1step_bare is the peer of `stampede run go.Go1Step` on a
// SQLite target in bench/go1step_ab.sh: a bare database/sql loop with the
// same SQL (ldbc sqlDialect.GoStep(1)), the same DSN and pragmas
// (sqlite.DSN), one connection and prepared statement per VU, the person
// ids of the data set's khop_person.csv taken round-robin from a shared
// counter, and (with -timeout > 0, the default as in stampede run) each
// query under its own context.WithTimeout of a cancellable run context.
// It prints the number of queries and errors.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// go1Step is the SQL stampede's go.Go1Step sends to SQL targets.
const go1Step = "WITH s0(id) AS (SELECT CAST($1 AS BIGINT)), s1(id) AS (SELECT k.person2id AS id FROM s0 f CROSS JOIN person_knows_person k WHERE k.person1id = f.id" +
	" UNION SELECT k.person1id FROM s0 f CROSS JOIN person_knows_person k WHERE k.person2id = f.id) SELECT id FROM s1"

func main() {
	dbPath := flag.String("db", "", "SQLite database file (loaded LDBC data set)")
	data := flag.String("data", "", "LDBC data directory (for params/khop_person.csv)")
	vus := flag.Int("vus", 50, "concurrent loops, one connection each")
	dur := flag.Duration("d", 10*time.Second, "how long to run")
	timeout := flag.Duration("timeout", 60*time.Second, "per-query timeout (0: none, and a context that cannot end)")
	flag.Parse()
	if err := run(*dbPath, *data, *vus, *dur, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "go1step_bare:", err)
		os.Exit(1)
	}
}

func run(dbPath, data string, vus int, dur, timeout time.Duration) error {
	f, err := os.Open(filepath.Join(data, filepath.FromSlash(ldbcfile.KHopPersonPath)))
	if err != nil {
		return err
	}
	var ids []int64
	err = ldbcfile.Reader{}.ReadKHopPersons(f, func(id int64) error { ids = append(ids, id); return nil })
	f.Close()
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return fmt.Errorf("no person ids in %s", data)
	}
	db, err := sql.Open("sqlite", sqlite.DSN(dbPath, false))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(vus)
	db.SetMaxIdleConns(vus)
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var next, queries, errs atomic.Int64
	end := time.Now().Add(dur)
	var wg sync.WaitGroup
	for range vus {
		conn, err := db.Conn(runCtx)
		if err != nil {
			return err
		}
		defer conn.Close()
		st, err := conn.PrepareContext(runCtx, go1Step)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				id := ids[(next.Add(1)-1)%int64(len(ids))]
				ctx, stop := context.Background(), context.CancelFunc(func() {})
				if timeout > 0 {
					ctx, stop = context.WithTimeout(runCtx, timeout)
				}
				rows, err := st.QueryContext(ctx, id)
				if err == nil {
					for rows.Next() {
					}
					err = rows.Err()
					rows.Close()
				}
				stop()
				if err != nil {
					errs.Add(1)
				}
				queries.Add(1)
			}
		}()
	}
	wg.Wait()
	fmt.Printf("queries %d errors %d\n", queries.Load(), errs.Load())
	return nil
}
