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

// An accepted scheme parses and is listed, but no driver opens it.
func TestAccept(t *testing.T) {
	r := NewRegistry()
	r.Register(func(context.Context, *url.URL, Options) (Driver, error) { return nil, nil }, "http")
	r.Accept("Kafka", "http")
	if got := strings.Join(r.Schemes(), ","); got != "http,kafka" {
		t.Errorf("Schemes = %s", got)
	}
	u, err := r.ParseTarget("kafka://u:pw@h:9092")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Open(t.Context(), u, Options{}); err == nil || !strings.Contains(err.Error(), "no driver opens kafka://") {
		t.Errorf("Open(kafka://) = %v", err)
	}
	hu, _ := r.ParseTarget("http://h/")
	if _, err := r.Open(t.Context(), hu, Options{}); err != nil {
		t.Errorf("Accept replaced the http opener: %v", err)
	}
}
