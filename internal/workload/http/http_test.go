package http

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/bounded"
	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/testhttp"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/vu"
)

func writeParams(t *testing.T, text string) *table {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.csv")
	os.WriteFile(path, []byte(text), 0o644)
	tb, err := readTable(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestRender(t *testing.T) {
	params := writeParams(t, "id,name\n42,ann\n7,bo b\n")
	tests := []struct {
		name               string
		path, body, header string
		row                int
		wantPath, wantBody string
		wantHeader         string
	}{
		{"path and body", "/person/{{id}}", `{"name":"{{name}}"}`, "X-Id: {{ id }}", 0, "/person/42", `{"name":"ann"}`, "X-Id: 42"},
		{"next row, escaped", "/person/{{name}}", "", "X-Id: 1", 1, "/person/bo%20b", "", "X-Id: 1"},
		{"rows wrap around", "/person/{{id}}", "", "X-A: b", 2, "/person/42", "", "X-A: b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := compileRequest("post", tc.path, []string{tc.header}, tc.body, params)
			if err != nil {
				t.Fatal(err)
			}
			var buf opBuf
			op := r.render(&buf, tc.row)
			ext := op.Ext.(*httpdrv.Ext)
			if op.Query != tc.wantPath || string(op.Body) != tc.wantBody || ext.Headers[0] != tc.wantHeader || ext.Method != "POST" {
				t.Errorf("got %q %q %q %q", op.Query, op.Body, ext.Headers[0], ext.Method)
			}
		})
	}
}

func TestStaticRequestIsReused(t *testing.T) {
	r, err := compileRequest("GET", "/health", []string{"Accept: text/plain"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	op := r.static()
	if op == nil || op.Query != "/health" || op.Ext.(*httpdrv.Ext).Headers[0] != "Accept: text/plain" {
		t.Fatalf("static op = %+v", op)
	}
	if r2, _ := compileRequest("GET", "/p/{{id}}", nil, "", writeParams(t, "id\n1\n")); r2.static() != nil {
		t.Error("templated request reported static")
	}
}

func TestCompileErrors(t *testing.T) {
	params := writeParams(t, "id\n1\n")
	for _, tc := range []struct {
		name, path, header string
		params             *table
		want               string
	}{
		{"placeholder without params", "/p/{{id}}", "", nil, "needs --params"},
		{"unknown column", "/p/{{nope}}", "", params, "no such column"},
		{"unclosed", "/p/{{id", "", params, "unclosed"},
		{"relative path", "p", "", nil, "must start with /"},
		{"header without colon", "/", "Accept", nil, "want 'Name: value'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var headers []string
			if tc.header != "" {
				headers = []string{tc.header}
			}
			_, err := compileRequest("GET", tc.path, headers, "", tc.params)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestRedactPath(t *testing.T) {
	if got := redactPath("/api?token=abc&q=1"); strings.Contains(got, "abc") || !strings.Contains(got, "q=1") {
		t.Errorf("redactPath = %q", got)
	}
	if got := redactPath("/api?q=1"); got != "/api?q=1" {
		t.Errorf("redactPath changed a harmless path: %q", got)
	}
}

func TestOpen(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	f := New(DefaultOptions())
	env := &workload.Env{Target: srv.URL + "/x", MaxVUs: 1}
	o, err := f.Open(context.Background(), env, []string{"http.Request"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Target != srv.URL+"/x" || o.Scenarios["http.Request"] == nil {
		t.Fatalf("opened %+v", o)
	}
	for _, tc := range []struct{ name, target, want string }{
		{"no target", "", "needs --target"},
		{"wrong scheme", "kafka://127.0.0.1:9092", "needs an http:// or https:// target, not kafka://"},
		{"no scheme", "127.0.0.1:8080", "bad target URL"},
		{"unreachable", "http://127.0.0.1:1/", "unreachable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(DefaultOptions()).Open(context.Background(), &workload.Env{Target: tc.target}, []string{"http.Request"})
			if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want a usage error with %q", err, tc.want)
			}
		})
	}
}

func TestExpandEnv(t *testing.T) {
	vars := map[string]string{"HOST": "api.test", "TOKEN": "s3cret"}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	tests := []struct{ in, want, err string }{
		{"/x/{{__ENV.HOST}}/y", "/x/api.test/y", ""},
		{"Authorization: Bearer {{ __ENV.TOKEN }}", "Authorization: Bearer s3cret", ""},
		{"/users/{{id}}?h={{__ENV.HOST}}", "/users/{{id}}?h=api.test", ""},
		{"/{{__ENV.NOPE}}", "", "NOPE is not set (give it with -e NOPE=VALUE)"},
	}
	for _, tc := range tests {
		got, err := expandEnv(tc.in, lookup)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("expandEnv(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("expandEnv(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestCompileRequestRefusesInjection: values from the environment are
// checked once filled in; values from --params are percent-encoded.
func TestCompileRequestRefusesInjection(t *testing.T) {
	params := &table{header: []string{"v"}, index: map[string]int{"v": 0}, rows: [][]string{{"a\r\nX-Evil: 1"}}}
	tests := []struct {
		name    string
		method  string
		path    string
		headers []string
		want    string
	}{
		{"header from -e with CR LF", "GET", "/", []string{"X-A: a\r\nX-Injected: 1"}, "line break"},
		{"path from -e with CR LF", "GET", "/a\r\nGET /b", nil, "request target"},
		{"lower-case method with a space", "ge t", "/", nil, "method"},
		{"placeholder values are encoded", "GET", "/{{v}}", []string{"X-V: {{v}}"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := compileRequest(tc.method, tc.path, tc.headers, "", params)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				var buf opBuf
				op := r.render(&buf, 0)
				if strings.ContainsAny(op.Query, "\r\n") || strings.ContainsAny(string(buf.headers[0]), "\r\n") {
					t.Errorf("a line break reached the request: %q %q", op.Query, buf.headers[0])
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// endlessCSV is a parameter file that never ends: lines of 1 KiB ("aaa…,b"),
// so that the rows held until the bound stay few.
type endlessCSV struct{ off int }

func (e *endlessCSV) Read(p []byte) (int, error) {
	for i := range p {
		switch e.off % 1024 {
		case 1021:
			p[i] = ','
		case 1022:
			p[i] = 'b'
		case 1023:
			p[i] = '\n'
		default:
			p[i] = 'a'
		}
		e.off++
	}
	return len(p), nil
}

// TestReadTableBounded: a --params file past bounded.ParamsBytes is
// refused; a FIFO fed an endless stream is refused at the bound too.
func TestReadTableBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file past the bound: its size says so before any read.
	if err := f.Truncate(bounded.ParamsBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := readTable(t.Context(), path); !bounded.IsTooLarge(err) {
		t.Fatalf("huge file: %v", err)
	}
	fifo := filepath.Join(t.TempDir(), "endless.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		io.Copy(w, io.LimitReader(&endlessCSV{}, bounded.ParamsBytes+(8<<20)))
	}()
	if _, err := readTable(ctx, fifo); !bounded.IsTooLarge(err) {
		t.Fatalf("endless pipe: %v", err)
	}
	if _, err := readTable(ctx, "/dev/zero"); !bounded.IsTooLarge(err) || !strings.Contains(err.Error(), "a line is larger than 1 MiB") {
		t.Fatalf("endless line: %v", err)
	}
}

// TestVUsConnectOnFirstUse: opening the scenario dials once (the target
// must answer); a new VU holds no connection until its first iteration,
// which dials and reports it as its connecting time, as in k6.
func TestVUsConnectOnFirstUse(t *testing.T) {
	target, conns := testhttp.CountingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	reg := metrics.NewRegistry()
	o, err := New(DefaultOptions()).Open(t.Context(), &workload.Env{Target: target, MaxVUs: 3, Metrics: reg}, []string{"http.Request"})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	sc := o.Scenarios["http.Request"]
	var vus []vu.VU
	for id := range 3 {
		v, err := sc.NewVU(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		vus = append(vus, v)
	}
	time.Sleep(20 * time.Millisecond)
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections after Open and three NewVU, want 1 (Open's check)", n)
	}
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{"http.Request"})
	go agg.Run()
	rec := agg.Recorder(0, 0)
	var it vu.Iter
	it.Init(0, rec, clock, nil)
	it.Begin(t.Context(), clock.Now(), clock.Now(), false)
	if err := vus[0].Iterate(t.Context(), &it); err != nil {
		t.Fatal(err)
	}
	rec.Flush()
	agg.Close()
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections after one iteration, want 2", n)
	}
	if c := agg.Snapshot().Scenario("http.Request").Trends[metrics.HTTPReqConnecting]; c == nil || c.Hist.Max() == 0 {
		t.Error("the first request reports no connecting time")
	}
}
