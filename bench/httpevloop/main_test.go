//go:build linux

package main

import "testing"

func TestComplete(t *testing.T) {
	const ok2 = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"
	tests := []struct {
		in   string
		size int
		done bool
	}{
		{ok2, len(ok2), true},
		{ok2[:len(ok2)-1], len(ok2), false},           // body cut
		{ok2[:20], 0, false},                          // headers cut
		{"HTTP/1.1 204 No Content\r\n\r\n", 27, true}, // no body
		{"HTTP/1.1 200 OK\r\ncontent-length:10\r\n\r\n0123456789", 48, true},
		{"HTTP/1.1 200 OK\r\nX-Content-Length: 5\r\n\r\n", 40, true}, // not the header
	}
	for _, tt := range tests {
		size, done := complete([]byte(tt.in))
		if done != tt.done || (done && size != tt.size) {
			t.Errorf("complete(%q) = %d, %v; want %d, %v", tt.in, size, done, tt.size, tt.done)
		}
	}
}
