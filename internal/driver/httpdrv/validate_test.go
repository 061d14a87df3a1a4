package httpdrv

import (
	"strings"
	"testing"
)

func TestChecks(t *testing.T) {
	tests := []struct {
		name  string
		check func() error
		want  string // "" means valid
	}{
		{"GET", func() error { return CheckMethod("GET") }, ""},
		{"PROPFIND", func() error { return CheckMethod("PROPFIND") }, ""},
		{"method with a space", func() error { return CheckMethod("GE T") }, `' ' is not allowed in a method`},
		{"method with CR LF", func() error { return CheckMethod("GET\r\nX: 1") }, "not allowed in a method"},
		{"empty method", func() error { return CheckMethod("") }, "method is empty"},
		{"header", func() error { return CheckHeader("X-A: a b") }, ""},
		{"header with tab in value", func() error { return CheckHeader("X-A: a\tb") }, ""},
		{"header injection", func() error { return CheckHeader("X-A: a\r\nX-Injected: 1") }, "line break"},
		{"header LF only", func() error { return CheckHeader("X-A: a\nX-Injected: 1") }, "line break"},
		{"header NUL", func() error { return CheckHeader("X-A: a\x00") }, "NUL"},
		{"empty name", func() error { return CheckHeader(": novalue") }, "the name is empty"},
		{"name with a space", func() error { return CheckHeader("X A: 1") }, "header name"},
		{"name with CR", func() error { return CheckHeader("X\rA: 1") }, "header name"},
		{"no colon", func() error { return CheckHeader("X-A") }, "want 'Name: value'"},
		{"path", func() error { return CheckTarget("/a?b=c%20d") }, ""},
		{"path splitting", func() error { return CheckTarget("/a\r\nX-Evil: 1\r\n\r\nGET /b") }, "not allowed in a request target"},
		{"path with a space", func() error { return CheckTarget("/a b") }, "percent-encode"},
		{"path with DEL", func() error { return CheckTarget("/a\x7f") }, "not allowed"},
		{"status 200", func() error { return CheckStatus(200) }, ""},
		{"status 100", func() error { return CheckStatus(100) }, ""},
		{"status 599", func() error { return CheckStatus(599) }, ""},
		{"status 999", func() error { return CheckStatus(999) }, "100 to 599"},
		{"status 99", func() error { return CheckStatus(99) }, "100 to 599"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.check()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// FuzzCheckHeader: a header the check accepts renders as exactly one
// header line.
func FuzzCheckHeader(f *testing.F) {
	for _, s := range []string{"X-A: 1", "X-A: a\r\nX-B: 2", ": v", "A:\n", "Host: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if CheckHeader(h) != nil {
			return
		}
		if strings.ContainsAny(h, "\r\n") {
			t.Fatalf("accepted a header with a line break: %q", h)
		}
	})
}
