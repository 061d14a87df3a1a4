package redact

import "testing"

func TestURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://bench:s3cret@127.0.0.1:5432/ldbc?sslmode=disable", "postgres://bench:xxxxx@127.0.0.1:5432/ldbc?sslmode=disable"},
		{"kafka://h1:9092,h2:9092?sasl=plain&user=u&password=p4ss", "kafka://h1:9092,h2:9092?password=xxxxx&sasl=xxxxx&user=u"},
		{"http://127.0.0.1:8080/x?token=abc", "http://127.0.0.1:8080/x?token=xxxxx"},
		{"sqlite:///tmp/a.db", "sqlite:///tmp/a.db"},
		{"postgres://user@host/db", "postgres://user@host/db"},
		{"bad://us er:pw@[x", "bad://xxxxx@[x"},
	}
	for _, tc := range tests {
		if got := URL(tc.in); got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
