package httpdrv

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver"
)

// TestFirstDialTimed: the connection Conn dialled is the first request's
// connecting and blocked time (k6 times a VU's first dial in its first
// request); the requests after it on the kept-alive connection have none.
func TestFirstDialTimed(t *testing.T) {
	c := open(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	tm := c.(Timer)
	for i := range 3 {
		if res := c.Do(context.Background(), &driver.Op{Query: "/"}); res.Err != nil {
			t.Fatal(res.Err)
		}
		got := tm.LastTimings()
		if first := i == 0; first != (got.Connecting > 0) || got.Blocked != got.Connecting {
			t.Errorf("request %d: connecting %v blocked %v", i, got.Connecting, got.Blocked)
		}
	}
}
