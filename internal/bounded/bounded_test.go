package bounded

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/usage"
)

// endless is a reader that never ends: every Read fills p.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.n += int64(len(p))
	return len(p), nil
}

func TestReadAll(t *testing.T) {
	tests := []struct {
		name    string
		in      io.Reader
		limit   int64
		want    string
		tooBig  bool
		maxRead int64 // most bytes the source may be asked for (0: any)
	}{
		{"empty", strings.NewReader(""), 4, "", false, 0},
		{"below the limit", strings.NewReader("abc"), 4, "abc", false, 0},
		{"exactly the limit", strings.NewReader("abcd"), 4, "abcd", false, 0},
		{"one byte past", strings.NewReader("abcde"), 4, "", true, 0},
		{"huge", bytes.NewReader(make([]byte, 8<<20)), 1 << 20, "", true, 0},
		{"endless", &endless{}, 1 << 20, "", true, 1<<20 + 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadAll(t.Context(), tc.in, tc.limit, "in.yaml")
			if tc.tooBig {
				if !IsTooLarge(err) || !usage.Is(err) {
					t.Fatalf("err = %v, want a usage TooLargeError", err)
				}
				if !strings.Contains(err.Error(), "in.yaml is larger than") {
					t.Errorf("message %q", err)
				}
				if e, ok := tc.in.(*endless); ok && tc.maxRead > 0 && e.n > tc.maxRead {
					t.Errorf("read %d bytes of an endless input, want ≤ %d", e.n, tc.maxRead)
				}
				return
			}
			if err != nil || string(b) != tc.want {
				t.Fatalf("ReadAll = %q, %v; want %q", b, err, tc.want)
			}
		})
	}
}

func TestReaderStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	src := &endless{}
	r := Reader(ctx, src, 1<<40, "pipe")
	buf := make([]byte, 4<<20)
	if n, err := r.Read(buf); err != nil || n > chunk {
		t.Fatalf("first read %d, %v: want at most one chunk", n, err)
	}
	cancel()
	if _, err := r.Read(buf); !errors.Is(err, context.Canceled) {
		t.Fatalf("after cancel: %v", err)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	big := filepath.Join(dir, "big")
	os.WriteFile(small, []byte("hello"), 0o644)
	os.WriteFile(big, make([]byte, 2048), 0o644)
	if b, err := ReadFile(t.Context(), small, 1024); err != nil || string(b) != "hello" {
		t.Fatalf("small: %q, %v", b, err)
	}
	if _, err := ReadFile(t.Context(), big, 1024); !IsTooLarge(err) || !strings.Contains(err.Error(), "1 KiB") {
		t.Fatalf("big: %v", err)
	}
	if _, err := ReadFile(t.Context(), filepath.Join(dir, "nope"), 1024); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

// TestReadFileEndlessDevice reads /dev/zero (a device: its size says
// nothing) with a small bound: refused after the bound, not read forever.
func TestReadFileEndlessDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	start := time.Now()
	if _, err := ReadFile(t.Context(), "/dev/zero", 4<<20); !IsTooLarge(err) {
		t.Fatalf("/dev/zero: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
}

// TestReadFileInterruptsBlockedOpen: a FIFO without a writer blocks the
// open; a cancelled context still returns at once.
func TestReadFileInterruptsBlockedOpen(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := ReadFile(ctx, fifo, 1024); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
	// Let the abandoned open end.
	if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
		f.Close()
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{16 << 20: "16 MiB", 1 << 30: "1 GiB", 512: "512 B", 2048: "2 KiB", 1500: "1500 B"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestLines(t *testing.T) {
	if b, err := io.ReadAll(Lines(strings.NewReader("ab\ncd\n"), 2, "p.csv")); err != nil || string(b) != "ab\ncd\n" {
		t.Fatalf("short lines: %q, %v", b, err)
	}
	if _, err := io.ReadAll(Lines(strings.NewReader("abc\n"), 2, "p.csv")); !IsTooLarge(err) || !strings.Contains(err.Error(), "p.csv: a line is larger than 2 B") {
		t.Fatalf("long line: %v", err)
	}
	src := &endless{}
	if _, err := io.ReadAll(Lines(src, 1<<20, "zero")); !IsTooLarge(err) || src.n > 2<<20 {
		t.Fatalf("endless line: %v after %d bytes", err, src.n)
	}
}

func TestDecodeJSON(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	var v map[string]int
	if err := DecodeJSON(t.Context(), write("ok.json", `{"a":1}`), 1024, &v); err != nil || v["a"] != 1 {
		t.Fatalf("ok: %v %v", v, err)
	}
	for name, text := range map[string]string{"cut.json": `{"a":`, "empty.json": ""} {
		if err := DecodeJSON(t.Context(), write(name, text), 1024, &v); err == nil || !strings.Contains(err.Error(), name+": unexpected end of JSON input") {
			t.Errorf("%s: %v", name, err)
		}
	}
	start := time.Now()
	if err := DecodeJSON(t.Context(), "/dev/zero", 1<<30, &v); err == nil || !strings.Contains(err.Error(), `invalid character '\x00'`) {
		t.Errorf("/dev/zero: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("/dev/zero took %s: not refused at its first byte", d)
	}
	if err := DecodeJSON(t.Context(), write("big.json", `{"a":1}`+strings.Repeat(" ", 2048)), 1024, &v); !IsTooLarge(err) {
		t.Errorf("big: %v", err)
	}
}
