package httpdrv

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/testhttp"
)

// TestPrepare: a prepared request goes on the wire as the same bytes as
// one rendered per request, is refused at Prepare when it would be
// refused at send, and is rendered afresh by another driver.
func TestPrepare(t *testing.T) {
	d := openDriver(t, "http://127.0.0.1:1/", "ua")
	other := openDriver(t, "http://127.0.0.1:1/", "other")
	tests := []struct {
		name    string
		op      driver.Op
		wantErr bool
	}{
		{"GET without an extension", driver.Op{Query: "/a?b=c"}, false},
		{"POST with headers and body", driver.Op{Query: "/p", Body: []byte("xyz"), Ext: &Ext{Method: "POST", Headers: []string{"X-A: 1"}}}, false},
		{"a header with a line break", driver.Op{Query: "/", Ext: &Ext{Headers: []string{"X-A: 1\r\nX-B: 2"}}}, true},
		{"a path with a space", driver.Op{Query: "/a b"}, true},
		{"not an HTTP extension", driver.Op{Query: "/", Ext: 42}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			op := tc.op
			var want []byte
			werr := error(nil)
			ext, _ := op.Ext.(*Ext)
			if werr = checkOp(ext, op.Query); werr == nil {
				want = appendRequest(nil, d.host, d.ua, &op)
			}
			err := d.Prepare(&op)
			if (err != nil) != tc.wantErr || (werr != nil) != tc.wantErr {
				t.Fatalf("Prepare = %v, checkOp = %v, want error %v", err, werr, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			var buf []byte
			got, err := d.render(&buf, extOf(&op), &op)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("render after Prepare = %q, %v; want %q", got, err, want)
			}
			if _, ok := op.Ext.(*Ext); ok && len(buf) != 0 {
				t.Error("a prepared request was rendered again")
			}
			got, err = other.render(&buf, extOf(&op), &op)
			if err != nil || !bytes.Contains(got, []byte("User-Agent: other\r\n")) {
				t.Errorf("another driver sent %q, %v: want its own rendering", got, err)
			}
		})
	}
}

func openDriver(t *testing.T, target, ua string) *Driver {
	t.Helper()
	u, _ := url.Parse(target)
	d, err := Open(context.Background(), u, driver.Options{UserAgent: ua, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return d.(*Driver)
}

func extOf(op *driver.Op) *Ext { e, _ := op.Ext.(*Ext); return e }

// TestLazyConn: a lazy connection dials at its first request, which
// reports the dial as its connecting and blocked time; the requests after
// it reuse the connection.
func TestLazyConn(t *testing.T) {
	target, conns := testhttp.CountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	c := openDriver(t, target, "").LazyConn()
	defer c.Close()
	time.Sleep(20 * time.Millisecond)
	if n := conns.Load(); n != 0 {
		t.Fatalf("%d connections before the first request, want 0", n)
	}
	for i := range 3 {
		if res := c.Do(context.Background(), &driver.Op{Query: "/"}); res.Err != nil {
			t.Fatal(res.Err)
		}
		tm := c.(Timer).LastTimings()
		if first := i == 0; first != (tm.Connecting > 0) || tm.Blocked != tm.Connecting {
			t.Errorf("request %d: connecting %v blocked %v", i, tm.Connecting, tm.Blocked)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections for 3 requests, want 1", n)
	}
}
