package httpdrv

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"testing"
	"time"
)

// pieces reads data in pieces whose sizes cycle through sizes (1 to 64).
type pieces struct {
	data  []byte
	sizes []byte
	i     int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(p.sizes) > 0 {
		n = 1 + int(p.sizes[p.i%len(p.sizes)])%64
		p.i++
	}
	n = copy(b, p.data[:min(n, len(p.data))])
	p.data = p.data[n:]
	return n, nil
}

type outcome struct {
	status  int
	keep    bool
	err     bool
	headers []string
	body    string
}

// readAll reads responses from r until an error, at most max.
func readAll(r *reader, capture bool, max int) []outcome {
	var out []outcome
	for range max {
		var tm Timings
		var c *Capture
		if capture {
			c = &Capture{MaxBody: 1 << 10}
		}
		status, keep, err := r.response(&tm, time.Now(), c)
		o := outcome{status: status, keep: keep, err: err != nil}
		if c != nil && err == nil {
			o.headers, o.body = slices.Clone(c.Headers), string(c.Body)
		}
		out = append(out, o)
		if err != nil {
			break
		}
	}
	return out
}

// FuzzParserPieces: the responses read from a stream are the same however
// the stream arrives, whole or in pieces of 1 to 64 bytes (what the
// parser must survive when a response spans reads): status, connection
// state, errors, captured headers and body.
func FuzzParserPieces(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 201 C\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n3\r\nabc\r\n0\r\nT: 1\r\n\r\nHTTP/1.1 204 N\r\n\r\n",
		"HTTP/1.0 200 OK\r\n\r\nuntil close",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\nConnection: close\r\n\r\nok",
		"HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n" + string(bytes.Repeat([]byte("x"), 2000)),
		"HTTP/1.1 200 OK\r\nX: " + string(bytes.Repeat([]byte("v"), 3000)) + "\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 2x0 OK\r\n\r\n",
	} {
		f.Add([]byte(s), []byte{0, 7, 63, 2}, false)
		f.Add([]byte(s), []byte{}, true)
	}
	f.Fuzz(func(t *testing.T, data, sizes []byte, capture bool) {
		want := readAll(newReader(bytes.NewReader(data)), capture, 20)
		got := readAll(newReader(&pieces{data: data, sizes: sizes}), capture, 20)
		if len(got) != len(want) {
			t.Fatalf("%d responses in pieces, %d whole, from %q", len(got), len(want), data)
		}
		for i := range want {
			w, g := want[i], got[i]
			if w.status != g.status || w.keep != g.keep || w.err != g.err || w.body != g.body || !slices.Equal(w.headers, g.headers) {
				t.Fatalf("response %d: in pieces %+v, whole %+v, from %q", i, g, w, data)
			}
		}
	})
}

// TestParserErrors: what each broken response gives, whole and byte by
// byte.
func TestParserErrors(t *testing.T) {
	for _, tc := range []struct {
		name, wire string
		want       error
	}{
		{"nothing", "", io.EOF},
		{"cut in the headers", "HTTP/1.1 200 OK\r\nContent-Len", io.ErrUnexpectedEOF},
		{"cut in the body", "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc", io.ErrUnexpectedEOF},
		{"cut in a chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nabc", io.ErrUnexpectedEOF},
		{"not HTTP/1", "HTTP/2 200\r\n\r\n", errMalformed},
		{"header without a colon", "HTTP/1.1 200 OK\r\nbad\r\n\r\n", errMalformed},
		{"bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", errMalformed},
		{"body over the capture's limit", "HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n" + string(bytes.Repeat([]byte("x"), 2000)), ErrBodyTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, src := range []io.Reader{bytes.NewReader([]byte(tc.wire)), &pieces{data: []byte(tc.wire)}} {
				var tm Timings
				_, _, err := newReader(src).response(&tm, time.Now(), &Capture{MaxBody: 1 << 10})
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want %v", err, tc.want)
				}
			}
		})
	}
}

// BenchmarkParserFeed parses a typical small response (net/http's, as
// bench/httptarget answers) fed whole, as the event loop reads it.
func BenchmarkParserFeed(b *testing.B) {
	resp := []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: Sun, 06 Dec 2026 22:57:36 GMT\r\nContent-Length: 2\r\n\r\nok")
	var p parser
	b.ReportAllocs()
	b.SetBytes(int64(len(resp)))
	for b.Loop() {
		p.reset(nil)
		if n, done, err := p.feed(resp); err != nil || !done || n != len(resp) {
			b.Fatalf("feed = %d, %v, %v", n, done, err)
		}
	}
}
