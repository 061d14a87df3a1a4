package k6stream

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

func httpRegistry(t testing.TB) *metrics.Registry {
	reg := metrics.NewRegistry()
	if _, err := metrics.RegisterHTTP(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

var t0 = time.Date(2026, 11, 30, 17, 0, 0, 123456789, time.UTC)

func httpRecord(i int) reqlog.Record {
	h := &metrics.HTTPSample{
		Sending: 6 * time.Microsecond, Waiting: 480 * time.Microsecond, Receiving: 14 * time.Microsecond,
		Sent: 61, Received: 117, Status: 200, Expected: true, Method: "GET", Proto: "HTTP/1.1",
	}
	r := reqlog.Record{Time: t0.Add(time.Duration(i) * time.Millisecond), Query: "/items?id=1", Latency: -1,
		ResponseTime: 500 * time.Microsecond, OK: true, Rows: 1, HTTP: h}
	if i%10 == 9 {
		h.Status, h.Expected, h.Sent, h.Received = 0, false, 0, 0
		r.OK, r.Err = false, "connect 127.0.0.1:1: connection refused"
	}
	return r
}

// writeRecords streams n HTTP records through a Stream at path.
func writeRecords(t testing.TB, path string, format Format, n int) {
	s, err := Open(path, format, httpRegistry(t), Config{Tags: map[string]string{"testid": "run-1", "env": "ci"}, Origin: "http://127.0.0.1:8080"},
		map[string][]string{metrics.HTTPReqDuration: {"p(95)<200"}})
	if err != nil {
		t.Fatal(err)
	}
	w := s.Writer("http.Request")
	for i := range n {
		w.Write(httpRecord(i))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, path string) io.Reader {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		return z
	}
	return f
}

// TestJSON reads the file as k6's JSON consumers do: every line is a JSON
// object; Metric lines declare each metric before its first Point; Points
// carry time (RFC 3339), value and tags.
func TestJSON(t *testing.T) {
	for _, name := range []string{"out.json", "out.json.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			writeRecords(t, path, JSON, 20)
			declared := map[string]string{}
			points := map[string]int{}
			sc := bufio.NewScanner(open(t, path))
			for sc.Scan() {
				var line struct {
					Type   string `json:"type"`
					Metric string `json:"metric"`
					Data   struct {
						Type       string            `json:"type"`
						Contains   string            `json:"contains"`
						Thresholds []string          `json:"thresholds"`
						Time       time.Time         `json:"time"`
						Value      *float64          `json:"value"`
						Tags       map[string]string `json:"tags"`
					} `json:"data"`
				}
				if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
					t.Fatalf("%v: %s", err, sc.Text())
				}
				switch line.Type {
				case "Metric":
					declared[line.Metric] = line.Data.Type + "/" + line.Data.Contains
				case "Point":
					if _, ok := declared[line.Metric]; !ok {
						t.Fatalf("point of %s before its Metric line", line.Metric)
					}
					if line.Data.Value == nil || line.Data.Time.IsZero() || line.Data.Tags["scenario"] != "http.Request" || line.Data.Tags["testid"] != "run-1" {
						t.Fatalf("bad point %s", sc.Text())
					}
					points[line.Metric]++
					if line.Metric == metrics.HTTPReqDuration && line.Data.Tags["status"] == "200" && *line.Data.Value != 0.5 {
						t.Errorf("http_req_duration = %v ms, want 0.5", *line.Data.Value)
					}
					if line.Metric == metrics.HTTPReqFailed && (line.Data.Tags["expected_response"] == "true") != (*line.Data.Value == 0) {
						t.Errorf("http_req_failed %v with expected_response %s", *line.Data.Value, line.Data.Tags["expected_response"])
					}
				default:
					t.Fatalf("unknown line type %q", line.Type)
				}
			}
			if declared[metrics.HTTPReqDuration] != "trend/time" || declared[metrics.HTTPReqFailed] != "rate/default" ||
				declared[metrics.DataSent] != "counter/data" || declared[metrics.HTTPReqs] != "counter/default" {
				t.Errorf("declared %v", declared)
			}
			for _, m := range []string{metrics.HTTPReqs, metrics.HTTPReqDuration, metrics.HTTPReqWaiting, metrics.HTTPReqFailed, metrics.DataReceived} {
				if points[m] != 20 {
					t.Errorf("%d points of %s, want 20", points[m], m)
				}
			}
		})
	}
}

// TestCSV checks k6's columns and that every line has them all.
func TestCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.csv.gz")
	writeRecords(t, path, CSV, 10)
	rows, err := csv.NewReader(open(t, path)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ",") + "\n"; got != CSVHeader {
		t.Fatalf("header %q", got)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	if len(rows) != 1+10*11 {
		t.Fatalf("%d rows, want %d", len(rows), 1+10*11)
	}
	first, failed := rows[2], rows[len(rows)-1] // http_req_duration of request 0; data_received of request 9
	if first[col["metric_name"]] != "http_req_duration" || first[col["metric_value"]] != "0.500000" || first[col["timestamp"]] != "1796058000" ||
		first[col["status"]] != "200" || first[col["url"]] != "http://127.0.0.1:8080/items?id=1" || first[col["extra_tags"]] != "env=ci&testid=run-1" ||
		first[col["expected_response"]] != "true" || first[col["scenario"]] != "http.Request" {
		t.Errorf("row %q", first)
	}
	if failed[col["error"]] != "connect 127.0.0.1:1: connection refused" || failed[col["expected_response"]] != "false" || failed[col["status"]] != "" {
		t.Errorf("failed row %q", failed)
	}
}

func TestOpenNeverOverwrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	if err := os.WriteFile(path, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, JSON, httpRegistry(t), Config{}, nil); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("Open over an existing file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "precious" {
		t.Fatal("file changed")
	}
}

func TestJSONStringEscapes(t *testing.T) {
	got := string(appendJSONString(nil, "a\"b\\c\n\x01\xffé"))
	var back string
	if err := json.Unmarshal([]byte(got), &back); err != nil || back != "a\"b\\c\n\x01\ufffdé" {
		t.Fatalf("%s → %q, %v", got, back, err)
	}
}

// BenchmarkStream is the cost of one point (11 per HTTP request) streamed
// to a file by 4 VUs, reported as points/s; the target is 100,000 points/s.
func BenchmarkStream(b *testing.B) {
	for _, f := range []Format{JSON, CSV} {
		for _, ext := range []string{"", ".gz"} {
			b.Run(string(f)+ext, func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "out."+string(f)+ext)
				s, err := Open(path, f, httpRegistry(b), Config{Tags: map[string]string{"testid": "bench"}, Origin: "http://127.0.0.1:8080"}, nil)
				if err != nil {
					b.Fatal(err)
				}
				const vus = 4
				ws := make([]reqlog.Writer, vus)
				for i := range ws {
					ws[i] = s.Writer("http.Request")
				}
				rec := httpRecord(0)
				b.ReportAllocs()
				start := time.Now()
				n := 0
				for b.Loop() {
					ws[n%vus].Write(rec)
					n++
				}
				for _, w := range ws {
					w.Close()
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(n*11)/time.Since(start).Seconds(), "points/s")
			})
		}
	}
}
