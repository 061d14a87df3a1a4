package driver

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://bench:s3cret@127.0.0.1:5432/ldbc?sslmode=disable", "postgres://bench:xxxxx@127.0.0.1:5432/ldbc?sslmode=disable"},
		{"kafka://h1:9092,h2:9092?sasl=plain&user=u&password=p4ss", "kafka://h1:9092,h2:9092?password=xxxxx&sasl=xxxxx&user=u"},
		{"http://127.0.0.1:8080/x?token=abc", "http://127.0.0.1:8080/x?token=xxxxx"},
		{"sqlite:///tmp/a.db", "sqlite:///tmp/a.db"},
		{"postgres://user@host/db", "postgres://user@host/db"},
		{"bad://us er:pw@[x", "bad://xxxxx@[x"},
	}
	for _, tc := range tests {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseTarget(t *testing.T) {
	r := NewRegistry()
	r.Register(func(context.Context, *url.URL, Options) (Driver, error) { return nil, nil }, "postgres", "postgresql")
	if _, err := r.ParseTarget("postgres://u:pw@h/db"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"localhost:5432", "mysql://u:pw@h/db", "::"} {
		_, err := r.ParseTarget(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
			continue
		}
		if strings.Contains(err.Error(), "pw") {
			t.Errorf("error shows the password: %v", err)
		}
	}
}
