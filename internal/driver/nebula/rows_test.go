package nebula_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
)

// DoRows hands over every row's values as Go values: datetimes as UTC
// times, lists as []any, NULL as nil; Do and DoScan still work after it.
func TestDoRows(t *testing.T) {
	c := startCluster(t, 1, nebulatest.Options{})
	drv, err := open(t, "nebula://root:nebula@"+c.Addrs()[0]+"/g", driver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	conn, err := drv.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rd := conn.(*nebula.Conn)
	var got []string
	res := rd.DoRows(t.Context(), &driver.Op{Query: `MATCH (a:Person)-[k:KNOWS]-(b) WHERE id(a) == $1 ` +
		`RETURN id(b) AS b, b.Person.firstName, k.creationDate, [1, "x", NULL], 1.5, id(b) > 2, NULL ORDER BY b`, Args: []any{int64(2)}},
		func(vals []any) error {
			got = append(got, fmt.Sprintf("%#v", vals))
			return nil
		})
	if res.Err != nil || res.Rows != 2 {
		t.Fatalf("%d rows, %v", res.Rows, res.Err)
	}
	at := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, want := range []string{
		fmt.Sprintf("%#v", []any{int64(1), "a", at, []any{int64(1), "x", nil}, 1.5, false, nil}),
		fmt.Sprintf("%#v", []any{int64(3), "c", at, []any{int64(1), "x", nil}, 1.5, true, nil}),
	} {
		if got[i] != want {
			t.Errorf("row %d:\n got %s\nwant %s", i, got[i], want)
		}
	}
	if r := conn.Do(t.Context(), &driver.Op{Query: "GO FROM 1 OVER KNOWS YIELD dst(edge)"}); r.Err != nil || r.Rows != 1 {
		t.Errorf("Do after DoRows: %d rows, %v", r.Rows, r.Err)
	}
	// An error in each stops the rows and is the result's.
	stop := fmt.Errorf("stop")
	n := 0
	res = rd.DoRows(t.Context(), &driver.Op{Query: "GO FROM 2 OVER KNOWS BIDIRECT YIELD dst(edge)"}, func([]any) error { n++; return stop })
	if res.Err != stop || n != 1 {
		t.Errorf("each's error: %v after %d rows", res.Err, n)
	}
}
