package csvlog

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/golden"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

var t0 = time.Date(2021, 8, 5, 7, 17, 2, 0, time.UTC) // 1628147822, as in the seed

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, Options{})
	w := l.Writer("go.Go1Step")
	for _, r := range []reqlog.Record{
		{Time: t0, Query: "GO 1 STEP FROM 6597069771971 OVER KNOWS", Latency: 1022 * time.Microsecond, ResponseTime: 2292 * time.Microsecond, OK: true, Rows: 60},
		{Time: t0.Add(999 * time.Millisecond), Query: "GO 1 STEP FROM 10027 OVER KNOWS", Latency: 2212*time.Microsecond + 900*time.Nanosecond, ResponseTime: 3016 * time.Microsecond, OK: true, Rows: 83},
		{Time: t0.Add(time.Second), Query: "no server latency", Latency: -1, ResponseTime: 815 * time.Microsecond, OK: true, Rows: 0},
		{Time: t0.Add(2 * time.Second), Query: `INSERT VERTEX Person(firstName) VALUES 1:("Jan"), 2:("Ana")`, Latency: 206162 * time.Microsecond, ResponseTime: 239297 * time.Microsecond, OK: false, Err: `error: E_CONSENSUS_ERROR(-16). "`},
		{Time: t0.Add(3 * time.Second), Query: "MATCH (n)\nRETURN n", Latency: -1, ResponseTime: 10 * time.Second, OK: false, Err: "read tcp 10.0.0.1:9669: i/o timeout, retrying"},
		{Time: t0.Add(4 * time.Second), Query: "", Latency: 0, ResponseTime: 0, OK: true},
		{Time: t0.Add(5 * time.Second), Query: "find_path.FindShortestPath 933->1129", Latency: -1, ResponseTime: 512 * time.Microsecond, OK: true, Rows: 1,
			Op: &driver.Op{Query: "SELECT path_length($1, $2, 'x')", Args: []any{int64(933), int64(1129)}}, Answer: -1, HasAnswer: true},
		{Time: t0.Add(6 * time.Second), Query: "insert ids=9..10", Latency: -1, ResponseTime: 900 * time.Microsecond, OK: true, Rows: 2,
			Op: &driver.Op{Query: "INSERT INTO person (id, name) VALUES ($1, $2), ($3, $4)", Args: []any{int64(9), "O'Hara", int64(10), "Ann"}}},
	} {
		w.Write(r)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "requests.golden.csv", buf.Bytes())

	// The golden file must read back with encoding/csv, field for field.
	recs, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(recs[0], ","), strings.TrimSuffix(Header, "\n"); got != want {
		t.Errorf("header %q, want %q", got, want)
	}
	if got := recs[4][1]; got != `INSERT VERTEX Person(firstName) VALUES 1:("Jan"), 2:("Ana")` {
		t.Errorf("quoted query read back as %q", got)
	}
	if got := recs[5][1]; got != "MATCH (n)\nRETURN n" {
		t.Errorf("multi-line query read back as %q", got)
	}
	if got := strings.Join(recs[7], "|"); got != "1628147827|SELECT path_length(933, 1129, 'x')||512|true|1|find_path.FindShortestPath 933->1129|-1|" {
		t.Errorf("statement as sent read back as %q", got)
	}
	if got := recs[8][1]; got != "INSERT INTO person (id, name) VALUES (9, 'O''Hara'), (10, 'Ann')" {
		t.Errorf("insert read back as %q", got)
	}
	if l.Rows() != 8 || l.Lost() != 0 {
		t.Errorf("Rows, Lost = %d, %d; want 8, 0", l.Rows(), l.Lost())
	}
}

func TestAppendField(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "GO 1 STEP", "GO 1 STEP"},
		{"empty", "", ""},
		{"comma", "a,b", `"a,b"`},
		{"quote", `say "hi"`, `"say ""hi"""`},
		{"only quote", `"`, `""""`},
		{"newline", "a\nb", "\"a\nb\""},
		{"carriage return", "a\rb", "\"a\rb\""},
		{"leading space kept", " x", " x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(appendField(nil, tc.in)); got != tc.want {
				t.Errorf("appendField(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestConcurrentWriters checks that many VUs writing at once, with small
// buffers and a short queue (so that they block), produce exactly every row.
func TestConcurrentWriters(t *testing.T) {
	const vus, perVU = 32, 2000
	var buf bytes.Buffer
	l := New(&buf, Options{BufferSize: 512, Queue: 2})
	var wg sync.WaitGroup
	for v := range vus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := l.Writer("s")
			for i := range perVU {
				w.Write(reqlog.Record{
					Time: t0, Query: "q" + strconv.Itoa(v), Latency: -1,
					ResponseTime: time.Duration(i) * time.Microsecond, OK: i%7 != 0, Rows: int64(v),
					Err: map[bool]string{true: "", false: "boom, with comma"}[i%7 != 0],
				})
			}
			if err := w.Close(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+vus*perVU {
		t.Fatalf("%d lines, want %d", len(recs), 1+vus*perVU)
	}
	// Each VU's rows stay in order (its buffers are handed over in order).
	next := make([]int, vus)
	for _, r := range recs[1:] {
		v, _ := strconv.Atoi(r[5])
		rt, _ := strconv.Atoi(r[3])
		if rt != next[v] {
			t.Fatalf("VU %d: row with responseTime %d, want %d", v, rt, next[v])
		}
		next[v]++
	}
	if l.Rows() != vus*perVU {
		t.Errorf("Rows = %d, want %d", l.Rows(), vus*perVU)
	}
}

// TestCloseFlushesOpenWriters: rows of VUs whose writers were never closed
// are written by Log.Close, and a second Close is harmless.
func TestCloseFlushesOpenWriters(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, Options{BufferSize: 1024})
	const n = 10_000
	for v := range 5 {
		w := l.Writer("s")
		for range n / 5 {
			w.Write(reqlog.Record{Time: t0, Query: "q" + strconv.Itoa(v), Latency: -1, OK: true})
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(buf.Bytes(), []byte("\n")); got != n+1 {
		t.Errorf("%d lines, want %d", got, n+1)
	}
}

type failWriter struct {
	ok  int // writes that succeed
	err error
}

func (f *failWriter) Write(p []byte) (int, error) {
	if f.ok > 0 {
		f.ok--
		return len(p), nil
	}
	return 0, f.err
}

func TestWriteErrorPropagates(t *testing.T) {
	disk := errors.New("no space left on device")
	tests := []struct {
		name     string
		ok       int
		wantRows int64
	}{
		{"header fails", 0, 0},
		{"fails after the first buffer", 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New(&failWriter{ok: tc.ok, err: disk}, Options{BufferSize: 256, Queue: 1})
			w := l.Writer("s")
			const n = 10000 // several writes of gathered chunks (coalesceSize)
			for range n {
				w.Write(reqlog.Record{Time: t0, Query: "GO 1 STEP", Latency: -1, OK: true})
			}
			// The VU does not block forever on a dead destination.
			w.Close()
			err := l.Close()
			if !errors.Is(err, disk) {
				t.Fatalf("Close = %v, want %v", err, disk)
			}
			if l.Rows()+l.Lost() != n {
				t.Errorf("Rows %d + Lost %d != %d: rows unaccounted for", l.Rows(), l.Lost(), n)
			}
			if l.Lost() == 0 || !strings.Contains(err.Error(), strconv.FormatInt(l.Lost(), 10)+" rows not written") {
				t.Errorf("error %q does not count the %d lost rows", err, l.Lost())
			}
			if l.Err() == nil {
				t.Error("Err() = nil after a failed write")
			}
		})
	}
}

func TestWriteAfterCloseIsCounted(t *testing.T) {
	l := New(io.Discard, Options{})
	w := l.Writer("s")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	w.Write(reqlog.Record{Time: t0, Latency: -1})
	w.Close()
	if l.Lost() != 1 {
		t.Errorf("Lost = %d, want 1", l.Lost())
	}
	if err := l.Close(); err == nil {
		t.Error("Close after a late write returned nil")
	}
}

// BenchmarkWrite is the per-record cost seen by a VU: encoding into its
// buffer plus its share of handing buffers to the writer goroutine.
func BenchmarkWrite(b *testing.B) {
	l := New(io.Discard, Options{})
	w := l.Writer("go.Go1Step")
	r := reqlog.Record{
		Time: t0, Query: "GO 1 STEP FROM 6597069771971 OVER KNOWS",
		Latency: 1022 * time.Microsecond, ResponseTime: 2292 * time.Microsecond, OK: true, Rows: 60,
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(AppendRecord(nil, &r))))
	for b.Loop() {
		w.Write(r)
	}
	w.Close()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWriteParallel is BenchmarkWrite with one writer per goroutine
// sharing one log, as VUs do.
func BenchmarkWriteParallel(b *testing.B) {
	l := New(io.Discard, Options{})
	r := reqlog.Record{
		Time: t0, Query: "GO 1 STEP FROM 6597069771971 OVER KNOWS",
		Latency: 1022 * time.Microsecond, ResponseTime: 2292 * time.Microsecond, OK: true, Rows: 60,
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		w := l.Writer("go.Go1Step")
		for pb.Next() {
			w.Write(r)
		}
		w.Close()
	})
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWriteFile includes the writer goroutine writing to a real file,
// the path of a run with --csv.
func BenchmarkWriteFile(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "requests.csv"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	l := New(f, Options{})
	w := l.Writer("go.Go1Step")
	r := reqlog.Record{
		Time: t0, Query: "GO 1 STEP FROM 6597069771971 OVER KNOWS",
		Latency: 1022 * time.Microsecond, ResponseTime: 2292 * time.Microsecond, OK: true, Rows: 60,
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Write(r)
	}
	w.Close()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkEncode is the encoding alone, without the hand-over.
func BenchmarkEncode(b *testing.B) {
	var e encoder
	r := reqlog.Record{
		Time: t0, Query: "GO 1 STEP FROM 6597069771971 OVER KNOWS",
		Latency: 1022 * time.Microsecond, ResponseTime: 2292 * time.Microsecond, OK: true, Rows: 60,
	}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = e.append(buf[:0], &r)
	}
}

// TestEncoderCacheMatchesAppendRecord: one VU's encoder, with its cached
// timestamp and quoting decisions, writes every record as a fresh
// AppendRecord does, whatever the sequence of texts (substrings of one
// string share its bytes).
func TestEncoderCacheMatchesAppendRecord(t *testing.T) {
	base := `ab,"c` + "\n" + `d`
	texts := []string{"noop", "noop", "", base, base[:2], base[:3], base[:2], base, "x\"y", "", "noop"}
	var e encoder
	for i, q := range texts {
		for _, er := range []string{"", texts[(i+3)%len(texts)]} {
			r := reqlog.Record{Time: t0.Add(time.Duration(i) * 700 * time.Millisecond), Query: q, Latency: -1, ResponseTime: time.Duration(i) * time.Microsecond, OK: er == "", Err: er}
			if got, want := string(e.append(nil, &r)), string(AppendRecord(nil, &r)); got != want {
				t.Errorf("record %d (query %q, error %q): cached %q, fresh %q", i, q, er, got, want)
			}
		}
	}
}
