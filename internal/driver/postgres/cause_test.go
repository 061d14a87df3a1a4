package postgres

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestCauseLeadsWithTheServersAnswer(t *testing.T) {
	auth := &pgconn.PgError{Severity: "FATAL", Code: "28P01", Message: `password authentication failed for user "bench"`}
	joined := fmt.Errorf("failed to connect: %w", errors.Join(errors.New("127.0.0.1:5432 (127.0.0.1): tls error: server refused TLS connection"), auth))
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"tls attempt then a wrong password", joined, `FATAL: password authentication failed for user "bench" (SQLSTATE 28P01)`},
		{"no server answer", errors.New("dial tcp 127.0.0.1:1: connection refused"), "dial tcp 127.0.0.1:1: connection refused"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Cause(tc.err)
			if got.Error() != tc.want {
				t.Fatalf("Cause() = %q, want %q", got, tc.want)
			}
			if strings.HasPrefix(got.Error(), "tls error") {
				t.Errorf("leads with the TLS attempt")
			}
			if !errors.Is(got, tc.err) && got != tc.err {
				t.Errorf("the chain is lost")
			}
		})
	}
	var pe *pgconn.PgError
	if !errors.As(Cause(joined), &pe) || pe.Code != "28P01" {
		t.Errorf("errors.As does not find the PgError")
	}
	if Cause(nil) != nil {
		t.Errorf("Cause(nil) != nil")
	}
}
