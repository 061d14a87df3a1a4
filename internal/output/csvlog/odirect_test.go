package csvlog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stampede-bench/stampede/internal/reqlog"
)

// fakeDirect is a directSink that checks what O_DIRECT demands of every
// write made while it is on: aligned memory, offset and length.
type fakeDirect struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	on      bool
	refuse  bool // direct writes fail with EINVAL, as on a file system without O_DIRECT
	direct  int  // direct writes
	toggles int
	bad     []string
	// buffered are the lengths of the writes made with O_DIRECT off.
	buffered []int
}

func (f *fakeDirect) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.on {
		if f.refuse {
			return 0, fmt.Errorf("write: %w", syscall.EINVAL)
		}
		f.direct++
		if uintptr(unsafe.Pointer(unsafe.SliceData(p)))%directAlign != 0 || len(p)%directAlign != 0 || f.buf.Len()%directAlign != 0 {
			f.bad = append(f.bad, fmt.Sprintf("direct write of %d bytes at %d", len(p), f.buf.Len()))
		}
	} else {
		f.buffered = append(f.buffered, len(p))
	}
	return f.buf.Write(p)
}

func (f *fakeDirect) SetDirect(on bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.on = on
	f.toggles++
	return nil
}

// logRows writes n rows from each of vus writers, the query numbering
// them, and returns what a Log over an ordinary writer makes of the same.
func logRows(t *testing.T, l *Log, vus, n int) {
	t.Helper()
	var wg sync.WaitGroup
	for v := range vus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := l.Writer("s")
			for i := range n {
				w.Write(reqlog.Record{Time: t0, Query: fmt.Sprintf("v%d-%d", v, i), Latency: -1, ResponseTime: time.Duration(i) * time.Microsecond, OK: true})
				if i%5000 == 4999 {
					time.Sleep(time.Millisecond) // let ticks write tails in between
				}
			}
			w.Close()
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// smallStage stages 16 KiB for the test: full buffers between ticks,
// however slowly the test runs (-race).
func smallStage(t *testing.T) {
	n := directSize
	directSize = 16 << 10
	t.Cleanup(func() { directSize = n })
}

// checkRows: every row once, complete, each VU's in order.
func checkRows(t *testing.T, out []byte, vus, n int) {
	t.Helper()
	lines := strings.Split(string(out), "\n")
	if lines[0] != strings.TrimSuffix(Header, "\n") || lines[len(lines)-1] != "" {
		t.Fatalf("header %q, last line %q", lines[0], lines[len(lines)-1])
	}
	next := make([]int, vus)
	for _, ln := range lines[1 : len(lines)-1] {
		var v, i int
		f := strings.Split(ln, ",")
		if len(f) != 9 {
			t.Fatalf("row %q: %d fields", ln, len(f))
		}
		if _, err := fmt.Sscanf(f[1], "v%d-%d", &v, &i); err != nil || i != next[v] || f[3] != fmt.Sprint(i) {
			t.Fatalf("row %q: want v%d-%d", ln, v, next[v])
		}
		next[v]++
	}
	for v, got := range next {
		if got != n {
			t.Errorf("VU %d: %d rows, want %d", v, got, n)
		}
	}
}

// TestDirectSinkRows: over a directSink, rows are complete and in order,
// and every write made with O_DIRECT on is aligned.
func TestDirectSinkRows(t *testing.T) {
	smallStage(t)
	const vus, n = 4, 60000
	f := &fakeDirect{on: true}
	l := New(f, Options{})
	logRows(t, l, vus, n)
	checkRows(t, f.buf.Bytes(), vus, n)
	if len(f.bad) > 0 {
		t.Errorf("unaligned direct writes: %v", f.bad)
	}
	if f.direct == 0 {
		t.Error("no direct write")
	}
	if l.Rows() != vus*n || l.Written() != int64(f.buf.Len()) {
		t.Errorf("Rows %d, Written %d of %d bytes", l.Rows(), l.Written(), f.buf.Len())
	}
}

// TestDirectSinkTailThenBusy: a tick writes the tail without O_DIRECT;
// the next full buffer writes up to an aligned offset and turns it back
// on. Rows stay complete and in order throughout.
func TestDirectSinkTailThenBusy(t *testing.T) {
	smallStage(t)
	f := &fakeDirect{on: true}
	l := New(f, Options{})
	w := l.Writer("s")
	const n = 100000
	for i := range n {
		w.Write(reqlog.Record{Time: t0, Query: fmt.Sprintf("v0-%d", i), Latency: -1, ResponseTime: time.Duration(i) * time.Microsecond, OK: true})
		if i == 99 {
			w.(*Writer).Flush() // into the shared buffer, written at the next tick
			time.Sleep(3 * flushEvery)
			f.mu.Lock()
			off := !f.on
			f.mu.Unlock()
			if !off {
				t.Error("O_DIRECT still on after a tick wrote a tail")
			}
		}
	}
	w.Close()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	checkRows(t, f.buf.Bytes(), 1, n)
	if len(f.bad) > 0 {
		t.Errorf("unaligned direct writes: %v", f.bad)
	}
	if f.direct == 0 || f.toggles < 2 {
		t.Errorf("%d direct writes, O_DIRECT turned off and on %d times", f.direct, f.toggles)
	}
}

// TestTickWritesAlignedPartDirect: writing all that is staged (a tick,
// Close) writes its aligned part with O_DIRECT and only what does not
// fill a block without it, also when an earlier tick left the file's
// offset unaligned.
func TestTickWritesAlignedPartDirect(t *testing.T) {
	tests := []struct {
		name     string
		puts     []int // bytes staged before each tick
		direct   int   // direct writes
		buffered []int // lengths of the writes without O_DIRECT
	}{
		{"one tick", []int{3*directAlign + 100}, 1, []int{100}},
		{"aligned", []int{2 * directAlign}, 1, nil},
		{"a tail, then more", []int{100, 3*directAlign + 50}, 1, []int{100, directAlign - 100, 150}},
		{"tails only", []int{100, 200, 300}, 0, []int{100, 200, 300}},
		{"a tail, then the rest of its block", []int{100, directAlign - 100}, 0, []int{100, directAlign - 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeDirect{on: true}
			s := newStager(&Log{}, f, heapStage(directSize))
			var want []byte
			for i, n := range tc.puts {
				b := bytes.Repeat([]byte{'a' + byte(i)}, n)
				want = append(want, b...)
				s.put(chunk{b: b, n: 1})
				s.flush(true)
			}
			if f.direct != tc.direct || fmt.Sprint(f.buffered) != fmt.Sprint(tc.buffered) || len(f.bad) > 0 {
				t.Errorf("%d direct writes (bad: %v), buffered writes %v; want %d and %v", f.direct, f.bad, f.buffered, tc.direct, tc.buffered)
			}
			if !bytes.Equal(f.buf.Bytes(), want) || s.off != int64(len(want)) || len(s.buf) != s.head {
				t.Errorf("wrote %d bytes of %d, offset %d, %d still staged", f.buf.Len(), len(want), s.off, len(s.buf)-s.head)
			}
		})
	}
}

// TestDirectSinkRefused: a destination that refuses O_DIRECT writes
// (EINVAL) gets every row without it.
func TestDirectSinkRefused(t *testing.T) {
	const vus, n = 2, 50000
	f := &fakeDirect{on: true, refuse: true}
	l := New(f, Options{})
	logRows(t, l, vus, n)
	checkRows(t, f.buf.Bytes(), vus, n)
	if f.on {
		t.Error("O_DIRECT still on")
	}
}

// directFailer cuts its writes short after ok bytes, with err.
type directFailer struct {
	fakeDirect
	ok  int
	err error
}

func (f *directFailer) Write(p []byte) (int, error) {
	if room := f.ok - f.buf.Len(); len(p) > room {
		n, _ := f.fakeDirect.Write(p[:max(room, 0)]) // cut short, as on a full disk
		return n, f.err
	}
	return f.fakeDirect.Write(p)
}

// TestDirectSinkWriteError: after a failed write, Written ends on a
// complete row and every row is either written or counted lost.
func TestDirectSinkWriteError(t *testing.T) {
	disk := errors.New("no space left on device")
	f := &directFailer{ok: directSize + directSize/2, err: disk}
	f.on = true
	l := New(f, Options{})
	w := l.Writer("s")
	n := 3 * directSize / 20 // rows of ≥ 20 bytes: three buffers, the second one fails
	for i := range n {
		w.Write(reqlog.Record{Time: t0, Query: fmt.Sprintf("q%d", i), Latency: -1, OK: true})
	}
	w.Close()
	if err := l.Close(); !errors.Is(err, disk) {
		t.Fatalf("Close = %v, want %v", err, disk)
	}
	if l.Rows()+l.Lost() != int64(n) || l.Lost() == 0 {
		t.Errorf("Rows %d + Lost %d, want %d with some lost", l.Rows(), l.Lost(), n)
	}
	if l.Written() <= int64(directSize) {
		t.Errorf("Written %d: the rows of the write cut short are not counted", l.Written())
	}
	kept := f.buf.Bytes()[:l.Written()]
	if len(kept) == 0 || kept[len(kept)-1] != '\n' || int64(bytes.Count(kept, []byte("\n"))) != l.Rows()+1 {
		t.Errorf("Written %d: %d lines for %d rows", l.Written(), bytes.Count(kept, []byte("\n")), l.Rows())
	}
}

// TestFileDirect: the request CSV file is written the same with O_DIRECT
// (where the file system has it) as through an ordinary writer.
func TestFileDirect(t *testing.T) {
	const vus, n = 3, 40000
	path := filepath.Join(t.TempDir(), "requests.csv")
	f := NewFile(path, Options{})
	if err := f.Start(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for v := range vus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := f.Writer("s")
			for i := range n {
				w.Write(reqlog.Record{Time: t0, Query: fmt.Sprintf("v%d-%d", v, i), Latency: -1, ResponseTime: time.Duration(i) * time.Microsecond, OK: true})
			}
			w.Close()
		}()
	}
	wg.Wait()
	if err := f.Stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, b, vus, n)
}
