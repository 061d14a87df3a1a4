package influx

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

func sampleRecord(t time.Time, i int) reqlog.Record {
	h := &metrics.HTTPSample{Sending: 6 * time.Microsecond, Waiting: 480 * time.Microsecond, Receiving: 14 * time.Microsecond,
		Sent: 61, Received: 117, Status: 200, Expected: true, Method: "GET", Proto: "HTTP/1.1",
		URL: "http://127.0.0.1:8080/items", Name: "http://127.0.0.1:8080/items"}
	r := reqlog.Record{Time: t, Query: "/items", Latency: -1, ResponseTime: 500 * time.Microsecond, OK: true, Rows: 1, HTTP: h}
	if i%10 == 9 {
		h.Status, h.Expected, h.ErrorCode = 500, false, 1500
		r.OK, r.Err = false, "HTTP 500 Internal Server Error"
	}
	return r
}

// sink is an InfluxDB stand-in that counts the lines it is sent.
func sink(t testing.TB, delay time.Duration) (*httptest.Server, *atomic.Int64) {
	var lines atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/query") {
			w.Write([]byte(`{"results":[{}]}`))
			return
		}
		buf := make([]byte, 64<<10)
		for {
			n, err := r.Body.Read(buf)
			lines.Add(int64(bytes.Count(buf[:n], []byte{'\n'})))
			if err != nil {
				break
			}
		}
		time.Sleep(delay)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv, &lines
}

// TestSampleLines: every request becomes k6's eleven HTTP points plus an
// errors point when it failed; iterations and checks become points; the
// per-second lines then leave those measurements out.
func TestSampleLines(t *testing.T) {
	srv, _ := sink(t, 0)
	var body strings.Builder
	var mu sync.Mutex
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/write" {
			w.Write([]byte(`{"results":[{}]}`))
			return
		}
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		body.Write(b)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	reg := metrics.NewRegistry()
	metrics.RegisterHTTP(reg)
	check := reg.MustAdd(metrics.CheckMetric("status is 200"))
	o, err := New(Config{URL: srv.URL + "/k6", Registry: reg, Tags: map[string]string{"testid": "t1"}})
	if err != nil {
		t.Fatal(err)
	}
	w := o.Writer("http.Request")
	now := time.Now()
	for i := range 10 {
		w.Write(sampleRecord(now.Add(time.Duration(i)*time.Millisecond), i))
		w.(reqlog.EventWriter).Iteration(now.Add(time.Duration(i)*time.Millisecond), 2*time.Millisecond, false)
		w.(reqlog.EventWriter).Check(now, check, i%10 != 9)
	}
	w.Close()
	o.Observe(&metrics.Point{Scenario: "http.Request", Time: now, VUs: 1, VUsMax: 2,
		Counts: map[string]int64{"http_reqs": 10, "iterations": 10, "requests": 10, "errors": 1}})
	st := o.Close()
	want := int64(10*11 + 1 + 10*2 + 10 + 3) // per sample: requests, errors, iterations, checks; per second: requests, vus, vus_max
	got := body.String()
	if st.Dropped() != 0 {
		t.Fatalf("stats %+v", st)
	}
	count := func(prefix string) int { return strings.Count("\n"+got, "\n"+prefix) }
	for _, c := range []struct {
		prefix string
		n      int
	}{
		{"http_reqs,", 10}, {"http_req_connecting,", 10}, {"http_req_waiting,", 10}, {"errors,", 1},
		{"iterations,", 10}, {"iteration_duration,", 10}, {"checks,check=status\\ is\\ 200,", 10},
		{"requests,", 1}, {"vus,", 1}, {"vus_max,", 1},
	} {
		if n := count(c.prefix); n != c.n {
			t.Errorf("%d lines %q, want %d in\n%s", n, c.prefix, c.n, got[:min(len(got), 600)])
		}
	}
	if !strings.Contains(got, "http_reqs,error_code=1500,expected_response=false,method=GET,name=http://127.0.0.1:8080/items,proto=HTTP/1.1,scenario=http.Request,status=500,testid=t1 value=1,url=\"http://127.0.0.1:8080/items\" ") {
		t.Errorf("no tagged failed http_reqs line in\n%.2000s", got)
	}
	if st.Lines != want || st.Written != want || int64(strings.Count(got, "\n")) != want {
		t.Errorf("stats %+v, body %d lines, want %d", st, strings.Count(got, "\n"), want)
	}
}

// TestSampleDropsCounted: a stalled InfluxDB never blocks the VUs; what
// did not fit is counted in Stats and its Note.
func TestSampleDropsCounted(t *testing.T) {
	srv, lines := sink(t, 300*time.Millisecond)
	o, err := New(Config{URL: srv.URL + "/k6", CloseTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	w := o.Writer("s")
	now := time.Now()
	start := time.Now()
	const n = 100_000
	for i := range n {
		w.Write(sampleRecord(now.Add(time.Duration(i)*time.Microsecond), i))
	}
	w.Close()
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("writing took %v: the VU was blocked", d)
	}
	st := o.Close()
	if st.Lines != n*11+n/10 {
		t.Errorf("lines %d, want %d", st.Lines, n*11+n/10)
	}
	if st.Dropped() == 0 || st.Written+st.Dropped() != st.Lines || st.Written > lines.Load() {
		t.Errorf("stats %+v, sink saw %d", st, lines.Load())
	}
	if note := st.Note("x"); !strings.Contains(note, "not written") {
		t.Errorf("note %q", note)
	}
}

// BenchmarkSamples measures the per-sample path end to end (encode in
// the VU, hand over, batch, POST to a local sink in the same process):
// points/s produced, written/s accepted by the sink, and the points
// dropped (counted, never blocking the VU) when one writer cannot keep up.
func BenchmarkSamples(b *testing.B) {
	srv, _ := sink(b, 0)
	o, err := New(Config{URL: srv.URL + "/k6", BatchLines: 20000, Tags: map[string]string{"testid": "bench"}})
	if err != nil {
		b.Fatal(err)
	}
	w := o.Writer("http.Request")
	now := time.Now()
	recs := []reqlog.Record{sampleRecord(now, 0), sampleRecord(now, 9)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := recs[i%10/9]
		r.Time = now.Add(time.Duration(i) * time.Microsecond)
		w.Write(r)
	}
	w.Close()
	st := o.Close()
	b.StopTimer()
	b.ReportMetric(float64(st.Lines)/b.Elapsed().Seconds(), "points/s")
	b.ReportMetric(float64(st.Written)/b.Elapsed().Seconds(), "written/s")
	b.ReportMetric(float64(st.Dropped()), "dropped")
}
