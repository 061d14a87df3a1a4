package profile

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pprofServer serves net/http/pprof's CPU profile handler, behind basic
// auth when user is not empty.
func pprofServer(t *testing.T, user, pass string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/profile", func(w http.ResponseWriter, r *http.Request) {
		if u, p, _ := r.BasicAuth(); user != "" && (u != user || p != pass) {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		pprof.Profile(w, r)
	})
	mux.HandleFunc("/text/debug/pprof/profile", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>this is not a profile</html>"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestPprofCollector(t *testing.T) {
	srv := pprofServer(t, "bench", "s3cret")
	base := strings.Replace(srv.URL, "http://", "http://bench:s3cret@", 1)
	c, err := NewPprofCollector(base)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(c.String(), "s3cret") || strings.Contains(c.String(), "bench@") {
		t.Errorf("String() = %q shows credentials", c)
	}
	dir := filepath.Join(t.TempDir(), "profiles")
	ctx := context.Background()
	if err := c.Start(ctx, Scope{Scenario: "go.Go1Step", Dir: dir, Duration: 700 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx, Scope{Scenario: "again", Dir: dir}); err == nil {
		t.Error("second Start while recording succeeded")
	}
	burnCPU(time.Second) // the "scenario"; seconds=1 is requested
	files, err := c.Stop(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "go.Go1Step.cpu.pprof")
	if len(files) != 1 || files[0] != want {
		t.Fatalf("files = %v, want [%s]", files, want)
	}
	p, err := readProfile(want)
	if err != nil {
		t.Fatal(err)
	}
	if p.DurationNanos < int64(time.Second)*9/10 {
		t.Errorf("profile covers %v, want about 1s", time.Duration(p.DurationNanos))
	}
	if _, err := c.Stop(ctx); err == nil {
		t.Error("Stop without Start succeeded")
	}
}

func TestPprofCollectorErrors(t *testing.T) {
	srv := pprofServer(t, "bench", "s3cret")
	withUser := func(user, path string) string {
		return strings.Replace(srv.URL, "http://", "http://"+user+"@", 1) + path
	}
	tests := []struct {
		name     string
		url      string
		wantText string
	}{
		{"wrong password", withUser("bench:wrong", ""), "401 Unauthorized: unauthorized"},
		{"not a profile", withUser("bench:wrong", "/text"), "response is not a pprof profile"},
		{"not found", withUser("bench:wrong", "/elsewhere"), "404 Not Found"},
		{"connection refused", "http://bench:wrong@127.0.0.1:1", "connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewPprofCollector(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := c.Start(context.Background(), Scope{Scenario: "s", Dir: dir, Duration: time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			files, err := c.Stop(context.Background())
			if err == nil {
				t.Fatalf("Stop = %v, nil; want an error", files)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.wantText) {
				t.Errorf("err = %q, want it to contain %q", msg, tt.wantText)
			}
			if strings.Contains(msg, "wrong") || strings.Contains(msg, "bench") {
				t.Errorf("err = %q shows credentials", msg)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("failed fetch left files: %v", entries)
			}
		})
	}
}

func TestPprofCollectorStopContext(t *testing.T) {
	hold := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hold:
		}
	}))
	defer srv.Close()
	defer close(hold)
	c, err := NewPprofCollector(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background(), Scope{Scenario: "s", Dir: t.TempDir(), Duration: time.Hour}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Stop(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Stop with a cancelled context: err = %v, want context.Canceled", err)
	}
}

func TestNewPprofCollector(t *testing.T) {
	tests := []struct {
		name, url, want string
	}{
		{"host and port", "http://localhost:6060", "pprof http://localhost:6060/debug/pprof/profile"},
		{"trailing slash", "http://localhost:6060/", "pprof http://localhost:6060/debug/pprof/profile"},
		{"pprof index", "https://db.example:8443/admin/debug/pprof/", "pprof https://db.example:8443/admin/debug/pprof/profile"},
		{"full profile path", "http://h:1/debug/pprof/profile", "pprof http://h:1/debug/pprof/profile"},
		{"credentials hidden", "http://u:pw@h:1", "pprof http://h:1/debug/pprof/profile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewPprofCollector(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}
