package httpdrv

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
)

// TestRequestTimeout: a request that outlives the timeout fails with
// "request timeout" no earlier than the timeout and at most the slack
// later; requests on a connection whose deadline was set long ago are
// timed from their own start (the deadline moves with them).
func TestRequestTimeout(t *testing.T) {
	const timeout = 200 * time.Millisecond
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(timeout * 3)
		fmt.Fprint(w, "late")
	})
	mux.HandleFunc("/half", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(timeout / 2)
		fmt.Fprint(w, "ok")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	d, err := Open(context.Background(), u, driver.Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	// Each request takes half the timeout: over four of them the first
	// deadline would long have passed.
	for i := 0; i < 4; i++ {
		if res := c.Do(ctx, &driver.Op{Query: "/half"}); res.Err != nil {
			t.Fatalf("request %d of half the timeout: %v", i, res.Err)
		}
	}
	t0 := time.Now()
	res := c.Do(ctx, &driver.Op{Query: "/slow"})
	took := time.Since(t0)
	if res.Err == nil || res.Err.Error() != "request timeout" {
		t.Fatalf("slow request: %v, want request timeout", res.Err)
	}
	if slack := min(timeout/20, DeadlineSlack); took < timeout || took > timeout+slack+100*time.Millisecond {
		t.Fatalf("timed out after %v, want %v to %v (+ scheduling)", took, timeout, timeout+slack)
	}
	if res := c.Do(ctx, &driver.Op{Query: "/ok"}); res.Err != nil {
		t.Fatalf("after a timeout the connection is reopened: %v", res.Err)
	}
	// A per-request timeout of its own.
	res = c.Do(ctx, &driver.Op{Query: "/half", Ext: &Ext{Timeout: timeout / 4}})
	if res.Err == nil || res.Err.Error() != "request timeout" {
		t.Fatalf("request with its own shorter timeout: %v, want request timeout", res.Err)
	}
}
