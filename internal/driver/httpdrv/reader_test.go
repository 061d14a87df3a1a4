package httpdrv

import (
	"bufio"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestReaderLines: header lines longer than the small read buffer are read
// whole (kept whole in a capture), up to MaxLine; a longer one is an error,
// as it was with a buffer of MaxLine bytes.
func TestReaderLines(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hdrLen  int // length of the X-Long header's value
		wantErr error
	}{
		{"fits the small buffer", 100, nil},
		{"longer than the small buffer", 3 * SmallReadBuffer, nil},
		{"MaxLine exactly", MaxLine - len("X-Long: \r\n"), nil},
		{"longer than MaxLine", MaxLine, bufio.ErrBufferFull},
	} {
		t.Run(tc.name, func(t *testing.T) {
			long := "X-Long: " + strings.Repeat("v", tc.hdrLen)
			wire := "HTTP/1.1 200 OK\r\n" + long + "\r\nContent-Length: 2\r\n\r\nok" +
				"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"
			for _, capture := range []*Capture{nil, {}} {
				r := newReader(strings.NewReader(wire))
				var tm Timings
				status, keep, err := r.response(&tm, time.Now(), capture)
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("capture %v: error %v, want %v", capture != nil, err, tc.wantErr)
				}
				if tc.wantErr != nil {
					continue
				}
				if status != 200 || !keep {
					t.Fatalf("status %d keep %v", status, keep)
				}
				if capture != nil && (len(capture.Headers) != 2 || capture.Headers[0] != long || string(capture.Body) != "ok") {
					t.Fatalf("captured %d headers (first %d bytes), body %q", len(capture.Headers), len(capture.Headers[0]), capture.Body)
				}
				if status, _, err := r.response(&tm, time.Now(), capture); err != nil || status != 201 {
					t.Fatalf("next response: %d, %v", status, err)
				}
			}
		})
	}
}

// TestReaderGrows: the read buffer starts small and becomes large after a
// response larger than the small buffer, once it is empty.
func TestReaderGrows(t *testing.T) {
	r := newReader(strings.NewReader(""))
	if got := len(r.buf); got != SmallReadBuffer {
		t.Fatalf("initial buffer %d bytes, want %d", got, SmallReadBuffer)
	}
	r.grow(SmallReadBuffer)
	if got := len(r.buf); got != SmallReadBuffer {
		t.Fatalf("after a response of %d bytes: buffer %d, want %d", SmallReadBuffer, got, SmallReadBuffer)
	}
	r.grow(SmallReadBuffer + 1)
	if got := len(r.buf); got != LargeReadBuffer {
		t.Fatalf("after a larger response: buffer %d, want %d", got, LargeReadBuffer)
	}
}
