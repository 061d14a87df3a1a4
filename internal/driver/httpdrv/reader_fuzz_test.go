package httpdrv

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzResponse feeds arbitrary bytes to the hand-written response reader:
// it never panics or loops, every response it accepts has a status line
// "HTTP/1.x DDD" whose three digits are the status it reports, and a
// stream of N responses never yields more than N.
func FuzzResponse(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n0\r\nTrailer: x\r\n\r\n",
		"HTTP/1.0 404 Not Found\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\n",
		"HTTP/1.1 500 x\r\nConnection: close\r\n\r\nbody until close",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok",
		"HTTP/1.1 2:0 OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n",
		"HTTP/2 200\r\n\r\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := newReader(bytes.NewReader(data))
		for n := 0; ; n++ {
			if n > len(data)/12 {
				t.Fatalf("%d responses from %d bytes", n, len(data))
			}
			var tm Timings
			status, _, err := r.response(&tm, time.Now(), nil)
			if err != nil {
				return
			}
			if status < 100 || status > 999 || tm.Status != status {
				t.Fatalf("status %d (timings %d) from %q", status, tm.Status, data)
			}
			if !bytes.Contains(data, []byte(" "+strconv.Itoa(status))) {
				t.Fatalf("status %d is not in %q", status, data)
			}
			if n == 0 {
				line, _, _ := bytes.Cut(data, []byte("\n"))
				if len(line) < 12 || line[8] != ' ' || string(line[9:12]) != strconv.Itoa(status) {
					t.Fatalf("status %d from status line %q", status, line)
				}
			}
		}
	})
}

// FuzzResponseWellFormed writes a response with net/http (any status, body,
// chunked or not, keep-alive or not) and checks that the reader reports its
// status and connection state and consumes exactly that response.
func FuzzResponseWellFormed(f *testing.F) {
	f.Add(uint16(200), []byte("hello"), false, false, false)
	f.Add(uint16(404), []byte(strings.Repeat("x", 20000)), true, false, false)
	f.Add(uint16(503), []byte{}, false, true, true)
	f.Add(uint16(204), []byte{}, false, false, false)
	f.Add(uint16(101), []byte{}, false, false, true)
	f.Fuzz(func(t *testing.T, code uint16, body []byte, chunked, close, http10 bool) {
		status := 100 + int(code)%900
		if status == 101 || (status >= 100 && status < 200) || status == 204 || status == 304 {
			body = nil // no body allowed; net/http would drop it
		}
		resp := &http.Response{
			StatusCode: status, ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"X-Test": {"1"}},
			Body:   io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)),
			Close: close,
		}
		if http10 {
			resp.ProtoMinor = 0
		}
		if chunked && body != nil {
			resp.TransferEncoding = []string{"chunked"}
			resp.ContentLength = -1
		}
		var buf bytes.Buffer
		if err := resp.Write(&buf); err != nil {
			t.Skip(err)
		}
		const tail = "HTTP/1.1 299 Next\r\nContent-Length: 0\r\n\r\n"
		wire := buf.String()
		// net/http's own reading of what it wrote is the reference.
		ref, err := http.ReadResponse(bufio.NewReader(strings.NewReader(wire)), nil)
		if err != nil {
			t.Skip(err)
		}
		ref.Body.Close()
		bodyUntilClose := ref.ContentLength < 0 && len(ref.TransferEncoding) == 0 &&
			status >= 200 && status != 204 && status != 304
		if !bodyUntilClose {
			wire += tail
		}
		r := newReader(strings.NewReader(wire))
		var tm Timings
		got, keep, err := r.response(&tm, time.Now(), nil)
		if err != nil || got != status {
			t.Fatalf("status %d, %v; want %d from %q", got, err, status, wire)
		}
		if wantKeep := !ref.Close && !bodyUntilClose; keep != wantKeep {
			t.Fatalf("keep-alive %v, want %v from %q", keep, wantKeep, wire)
		}
		if bodyUntilClose {
			return
		}
		if got, _, err := r.response(&tm, time.Now(), nil); err != nil || got != 299 {
			t.Fatalf("next response: %d, %v; %q was not consumed exactly", got, err, wire)
		}
	})
}
