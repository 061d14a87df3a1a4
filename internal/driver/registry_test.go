package driver

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

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
