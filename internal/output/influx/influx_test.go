package influx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	lp "github.com/influxdata/line-protocol/v2/lineprotocol"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		in, write string
		v2        bool
		user      string
		bad       string // part of the error
	}{
		{in: "http://127.0.0.1:8086/k6", write: "http://127.0.0.1:8086/write?db=k6&precision=ns"},
		{in: "http://127.0.0.1:8086/?db=k6&rp=week", write: "http://127.0.0.1:8086/write?db=k6&precision=ns&rp=week"},
		{in: "https://bob:secret@influx:8086/bench", write: "https://influx:8086/write?db=bench&precision=ns", user: "bob"},
		{in: "http://h:8086/api/v2/write?org=o&bucket=b", write: "http://h:8086/api/v2/write?bucket=b&org=o&precision=ns", v2: true},
		{in: "http://h:8086?org=o&bucket=b", write: "http://h:8086/api/v2/write?bucket=b&org=o&precision=ns", v2: true},
		{in: "http://h:8086", bad: "names no database"},
		{in: "http://h:8086/write", bad: "names no database"},
		{in: "http://h:8086/api/v2/write?org=o", bad: "needs ?bucket="},
		{in: "udp://h:8089/k6", bad: "want http://"},
		{in: "h:8086/k6", bad: "want http://"},
		{in: "http:///k6", bad: "no host"},
		{in: "http://h:8086/k6?u=bob&p=x", bad: "not as ?u="},
		{in: "http://h:8086/a/b", bad: "names no database"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			ep, err := ParseURL(tc.in)
			if tc.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("err = %v, want %q", err, tc.bad)
				}
				if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "\n") {
					t.Errorf("error leaks or spans lines: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ep.write != tc.write || ep.v2 != tc.v2 || ep.user != tc.user {
				t.Errorf("got %+v", ep)
			}
			if strings.Contains(ep.display, "secret") {
				t.Errorf("display leaks the password: %s", ep.display)
			}
		})
	}
}

// line is one parsed line-protocol line.
type line struct {
	measurement string
	tags        map[string]string
	fields      map[string]any
	t           time.Time
}

// receiver is an InfluxDB stand-in that parses every write.
type receiver struct {
	mu    sync.Mutex
	lines []line
	reqs  []*http.Request
	// queries are the /query requests (CREATE DATABASE), answered 200.
	queries []string
	status  int
	block   chan struct{}
	srv     *httptest.Server
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{status: http.StatusNoContent}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(func() {
		if r.block != nil {
			select {
			case <-r.block:
			default:
				close(r.block)
			}
		}
		r.srv.Close()
	})
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	if r.block != nil {
		select {
		case <-r.block:
		case <-req.Context().Done():
			return
		}
	}
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.URL.Path == "/query" {
		q, _ := url.ParseQuery(string(body))
		r.queries = append(r.queries, q.Get("q"))
		fmt.Fprint(w, `{"results":[{"statement_id":0}]}`)
		return
	}
	r.reqs = append(r.reqs, req)
	if r.status/100 != 2 {
		w.WriteHeader(r.status)
		fmt.Fprint(w, `{"error":"database is on fire"}`)
		return
	}
	prec := lp.Nanosecond
	if req.URL.Query().Get("precision") == "s" {
		prec = lp.Second
	}
	dec := lp.NewDecoderWithBytes(body)
	for dec.Next() {
		var l line
		m, err := dec.Measurement()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		l.measurement = string(m)
		l.tags, l.fields = map[string]string{}, map[string]any{}
		for {
			k, v, err := dec.NextTag()
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if k == nil {
				break
			}
			l.tags[string(k)] = string(v)
		}
		for {
			k, v, err := dec.NextField()
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if k == nil {
				break
			}
			l.fields[string(k)] = v.Interface()
		}
		if l.t, err = dec.Time(prec, time.Time{}); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.lines = append(r.lines, l)
	}
	w.WriteHeader(r.status)
}

func (r *receiver) find(measurement, scenario string) []line {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []line
	for _, l := range r.lines {
		if l.measurement == measurement && l.tags["scenario"] == scenario {
			out = append(out, l)
		}
	}
	return out
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func testPoint(scenario string, sec int64) *metrics.Point {
	h := metric.NewHistogram()
	for _, v := range []int64{1000, 2000, 3000, 40_000} {
		_ = h.RecordValue(v)
	}
	return &metrics.Point{
		Scenario: scenario, Sec: sec, Time: t0.Add(time.Duration(sec)*time.Second + 300*time.Millisecond),
		Counts: map[string]int64{"iterations": 4, "requests": 4, "errors": 2, "checks": 3, "checks_total": 4, "retries": 7},
		Errors: map[string]int64{"E_TIMEOUT": 1, "bad\nline\\": 1},
		VUs:    10, Hist: h, RT: metric.StatsOf(h),
	}
}

func TestWriteV1(t *testing.T) {
	r := newReceiver(t)
	reg := metrics.NewRegistry()
	reg.MustAdd(metrics.Def{Name: "retries", Kind: metrics.KindCounter})
	o, err := New(Config{URL: r.srv.URL + "/k6", Registry: reg, Tags: map[string]string{"segment": "1/2"}})
	if err != nil {
		t.Fatal(err)
	}
	o.Observe(testPoint("go.Go1Step", 0))
	o.Observe(testPoint("go.Go1Step", 1))
	st := o.Close()
	if st.Dropped() != 0 || st.Written != st.Lines || st.Lines == 0 {
		t.Fatalf("stats %+v", st)
	}
	if st.Note(o.Display()) != "" {
		t.Errorf("note for a clean run: %q", st.Note(o.Display()))
	}
	req := r.reqs[0]
	if req.URL.Path != "/write" || req.URL.Query().Get("db") != "k6" || req.Header.Get("Authorization") != "" {
		t.Errorf("request %s %v", req.URL, req.Header)
	}
	rt := r.find("responseTime", "go.Go1Step")
	if len(rt) != 2 {
		t.Fatalf("%d responseTime lines", len(rt))
	}
	f := rt[0].fields
	if len(r.queries) != 1 || r.queries[0] != `CREATE DATABASE "k6"` {
		t.Errorf("queries %q, want CREATE DATABASE first", r.queries)
	}
	if f["count"] != 4.0 || f["p50"] != 2.0 || f["max"].(float64) < 40 || f["max"].(float64) > 40.1 || rt[0].tags["segment"] != "1/2" {
		t.Errorf("responseTime line %+v", rt[0])
	}
	if !rt[0].t.Equal(t0) || !rt[1].t.Equal(t0.Add(time.Second)) {
		t.Errorf("times %v %v, want whole seconds from %v", rt[0].t, rt[1].t, t0)
	}
	for _, m := range []string{"iterations", "requests", "errors", "retries", "vus"} {
		if ls := r.find(m, "go.Go1Step"); len(ls) != 2 {
			t.Errorf("%s: %d lines", m, len(ls))
		}
	}
	if it := r.find("iterations", "go.Go1Step")[0]; it.fields["value"] != 4.0 { // floats, as k6 writes
		t.Errorf("iterations %+v", it)
	}
	ch := r.find("checks", "go.Go1Step")
	if len(ch) != 2 || ch[0].fields["value"] != 0.75 || ch[0].fields["fails"] != 1.0 {
		t.Errorf("checks %+v", ch)
	}
	if ls := r.find("checks_total", "go.Go1Step"); len(ls) != 0 {
		t.Errorf("checks_total written separately: %+v", ls)
	}
	var msgs []string
	for _, l := range r.find("errors_by_message", "go.Go1Step")[:2] {
		msgs = append(msgs, l.tags["error"])
	}
	sort.Strings(msgs)
	if fmt.Sprint(msgs) != "[E_TIMEOUT bad line]" {
		t.Errorf("error tags %q", msgs)
	}
}

func TestWriteV2Token(t *testing.T) {
	r := newReceiver(t)
	o, err := New(Config{URL: r.srv.URL + "/api/v2/write?org=acme&bucket=perf", Token: "s3cr3t"})
	if err != nil {
		t.Fatal(err)
	}
	o.Observe(testPoint("kafka.Produce", 0))
	st := o.Close()
	if st.Written == 0 || st.Dropped() != 0 {
		t.Fatalf("stats %+v", st)
	}
	req := r.reqs[0]
	q := req.URL.Query()
	if req.URL.Path != "/api/v2/write" || q.Get("org") != "acme" || q.Get("bucket") != "perf" || q.Get("precision") != "ns" {
		t.Errorf("URL %s", req.URL)
	}
	if req.Header.Get("Authorization") != "Token s3cr3t" {
		t.Errorf("Authorization %q", req.Header.Get("Authorization"))
	}
	if strings.Contains(o.Display(), "s3cr3t") {
		t.Error("display shows the token")
	}
}

func TestErrorMessageCap(t *testing.T) {
	r := newReceiver(t)
	o, err := New(Config{URL: r.srv.URL + "/k6", MaxErrorMessages: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := testPoint("s", 0)
	p.Errors = map[string]int64{"a": 1, "b": 2, "c": 3, "d": 4}
	o.Observe(p)
	o.Close()
	got := map[string]any{}
	for _, l := range r.find("errors_by_message", "s") {
		got[l.tags["error"]] = l.fields["value"]
	}
	if fmt.Sprint(got) != "map[a:1 b:2 other:7]" {
		t.Errorf("errors_by_message %v", got)
	}
}

// TestFailingTarget: a target that refuses writes costs lines, counted and
// reported once, and never fails or stalls the run.
func TestFailingTarget(t *testing.T) {
	r := newReceiver(t)
	r.status = http.StatusInternalServerError
	var warn bytes.Buffer
	o, err := New(Config{URL: strings.Replace(r.srv.URL, "http://", "http://bob:pw@", 1) + "/k6", Warn: &warn, FlushInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		o.Observe(testPoint("s", int64(i)))
		time.Sleep(15 * time.Millisecond)
	}
	st := o.Close()
	if st.Failed != st.Lines || st.Written != 0 || st.Errors == 0 {
		t.Fatalf("stats %+v", st)
	}
	if len(r.reqs) != int(2*st.Requests) {
		t.Errorf("%d HTTP requests for %d writes: want one retry each", len(r.reqs), st.Requests)
	}
	note := st.Note(o.Display())
	if !strings.Contains(note, "not written") || !strings.Contains(note, "500") || strings.Contains(note, "pw") {
		t.Errorf("note %q", note)
	}
	if w := warn.String(); strings.Count(w, "\n") != 1 || strings.Contains(w, "pw") || !strings.Contains(w, "database is on fire") {
		t.Errorf("warning %q", w)
	}
	// 4xx is not retried.
	r2 := newReceiver(t)
	r2.status = http.StatusNotFound
	o2, _ := New(Config{URL: r2.srv.URL + "/nodb"})
	o2.Observe(testPoint("s", 0))
	if st := o2.Close(); st.Requests != 1 || len(r2.reqs) != 1 || st.Failed == 0 {
		t.Errorf("404: stats %+v, %d requests", st, len(r2.reqs))
	}
}

func TestUnreachableTarget(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	o, err := New(Config{URL: "http://" + addr + "/k6", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	o.Observe(testPoint("s", 0))
	start := time.Now()
	st := o.Close()
	if st.Failed != st.Lines || st.LastError == "" {
		t.Errorf("stats %+v", st)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Close took %v", el)
	}
}

// TestNeverBlocks: with InfluxDB hanging, Observe returns at once and the
// overflow is counted; Close gives up after CloseTimeout.
func TestNeverBlocks(t *testing.T) {
	r := newReceiver(t)
	r.block = make(chan struct{})
	o, err := New(Config{URL: r.srv.URL + "/k6", QueueSize: 4, BatchLines: 1, CloseTimeout: 200 * time.Millisecond, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	p := testPoint("s", 0)
	start := time.Now()
	for range 1000 {
		o.Observe(p)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("1000 Observe calls took %v", el)
	}
	st := o.Close()
	if st.QueueFull == 0 || st.Dropped() != st.Lines || st.Written != 0 {
		t.Errorf("stats %+v", st)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Close took %v with a hanging target", el)
	}
	if !strings.Contains(st.Note(o.Display()), "queue full") {
		t.Errorf("note %q", st.Note(o.Display()))
	}
}

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "unknown",
		"ok":                       "ok",
		"a\tb\nc":                  "a b c",
		`trailing\`:                "trailing",
		strings.Repeat("é", 100):   strings.Repeat("é", 80) + "…",
		"E_RPC_FAILURE: host down": "E_RPC_FAILURE: host down",
	} {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkObserve(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	o, err := New(Config{URL: srv.URL + "/k6", QueueSize: 1 << 16})
	if err != nil {
		b.Fatal(err)
	}
	p := testPoint("s", 0)
	b.ReportAllocs()
	for b.Loop() {
		o.Observe(p)
	}
	b.StopTimer()
	o.Close()
}

func BenchmarkEncode(b *testing.B) {
	e := newEncoder(map[string]string{"segment": "1/2"}, func(string) metrics.Kind { return metrics.KindCounter }, 50)
	p := testPoint("s", 0)
	it := &item{scenario: p.Scenario, t: p.Time, counts: p.Counts, errors: p.Errors, vus: p.VUs, rt: p.RT}
	b.ReportAllocs()
	for b.Loop() {
		e.add(it)
		e.enc.Reset()
	}
}

// TestGrafanaDashboard checks that the dashboard in deploy/grafana only
// reads measurements and fields this output writes.
func TestGrafanaDashboard(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "deploy", "grafana", "stampede-influxdb.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Query string }
		}
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatal(err)
	}
	// What a point with every kind of count becomes.
	r := newReceiver(t)
	reg := metrics.NewRegistry()
	o, err := New(Config{URL: r.srv.URL + "/k6", Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	p := testPoint("s", 0)
	p.Counts["dropped_iterations"] = 1
	o.Observe(p)
	o.Close()
	fields := map[string]map[string]bool{}
	for _, l := range r.lines {
		if fields[l.measurement] == nil {
			fields[l.measurement] = map[string]bool{}
		}
		for f := range l.fields {
			fields[l.measurement][f] = true
		}
	}
	from := regexp.MustCompile(`FROM "([A-Za-z_]+)"`)
	sel := regexp.MustCompile(`(?:mean|max|sum|last)\("([A-Za-z0-9_]+)"\)`)
	n := 0
	for _, pnl := range dash.Panels {
		for _, tg := range pnl.Targets {
			for _, m := range from.FindAllStringSubmatch(tg.Query, -1) {
				fs, ok := fields[m[1]]
				if !ok {
					t.Errorf("panel %q reads %q, which stampede does not write", pnl.Title, m[1])
					continue
				}
				n++
				inner := tg.Query
				if i := strings.LastIndex(inner, "(SELECT"); i >= 0 {
					inner = inner[i:]
				}
				for _, f := range sel.FindAllStringSubmatch(inner, -1) {
					if !fs[f[1]] {
						t.Errorf("panel %q reads field %q of %s; written: %v", pnl.Title, f[1], m[1], fs)
					}
				}
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d measurements read", n)
	}
}
