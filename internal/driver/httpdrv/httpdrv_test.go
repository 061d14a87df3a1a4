package httpdrv

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
)

func open(t *testing.T, h http.Handler) driver.Conn {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	d, err := Open(context.Background(), u, driver.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestResponses(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") })
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 3; i++ {
			fmt.Fprint(w, strings.Repeat("x", 5000))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	mux.HandleFunc("/fail", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", 503) })
	mux.HandleFunc("/close", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		fmt.Fprint(w, "bye")
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" || r.Header.Get("X-Test") != "1" {
			http.Error(w, "bad", 400)
			return
		}
		b := make([]byte, 3)
		r.Body.Read(b)
		w.Write(b)
	})
	c := open(t, mux)
	tests := []struct {
		name    string
		op      driver.Op
		wantErr string
	}{
		{"content-length", driver.Op{Query: "/ok"}, ""},
		{"chunked", driver.Op{Query: "/chunked"}, ""},
		{"no body", driver.Op{Query: "/empty"}, ""},
		{"server error", driver.Op{Query: "/fail"}, "HTTP 503 Service Unavailable"},
		{"connection close then reconnect", driver.Op{Query: "/close"}, ""},
		{"after close", driver.Op{Query: "/ok"}, ""},
		{"post with headers", driver.Op{Query: "/echo", Body: []byte("abc"), Ext: &Ext{Method: "POST", Headers: []string{"X-Test: 1"}}}, ""},
		{"not found", driver.Op{Query: "/missing"}, "HTTP 404 Not Found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := c.Do(context.Background(), &tc.op)
			got := ""
			if res.Err != nil {
				got = res.Err.Error()
			}
			if got != tc.wantErr {
				t.Errorf("err = %q, want %q", got, tc.wantErr)
			}
			if res.Status < 200 || res.Status > 599 {
				t.Errorf("status = %d", res.Status)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1:1/")
	d, _ := Open(context.Background(), u, driver.Options{})
	if _, err := d.Conn(context.Background()); err == nil || !strings.Contains(err.Error(), "connect 127.0.0.1:1") {
		t.Errorf("err = %v", err)
	}
}

func TestCancelInterruptsRead(t *testing.T) {
	block := make(chan struct{})
	c := open(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer close(block)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	res := c.Do(ctx, &driver.Op{Query: "/"})
	if res.Err == nil || time.Since(start) > time.Second {
		t.Errorf("res = %+v after %v", res, time.Since(start))
	}
}

func BenchmarkAppendRequest(b *testing.B) {
	op := &driver.Op{Query: "/api/v1/items?id=42", Ext: &Ext{Headers: []string{"Accept: application/json"}}}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = appendRequest(buf[:0], "127.0.0.1:8080", DefaultUserAgent, op)
	}
}
