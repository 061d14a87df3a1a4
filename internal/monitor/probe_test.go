package monitor

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProbe(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("# TYPE node_cpu_seconds_total counter\nnode_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 12.5\n"))
	})
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<!doctype html><html><body>hello</body></html>\n"))
	})
	mux.HandleFunc("/other", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("# TYPE go_goroutines gauge\ngo_goroutines 7\n"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + dead.Addr().String() + "/metrics"
	dead.Close()
	tests := []struct {
		name, source, want string
	}{
		{"node_exporter page", "node=" + srv.URL + "/metrics", ""},
		{"named metric", "app=" + srv.URL + "/other#go_goroutines", ""},
		{"an HTML page", "node=" + srv.URL + "/html", "serves no metric the monitor reads"},
		{"another exporter's page", "node=" + srv.URL + "/other", "serves no metric the monitor reads"},
		{"404", "node=" + srv.URL + "/nope", "HTTP 404"},
		{"a dead port", "node=" + deadURL, "connection refused"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			specs, err := ParseSpecs([]string{tc.source})
			if err != nil {
				t.Fatal(err)
			}
			err = Probe(t.Context(), specs, nil)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "--monitor ") {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestScanEndlessLine: a monitor.jsonl of one line past the bound is
// refused, not read into memory.
func TestScanEndlessLine(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(maxLine + 1) // sparse: NUL bytes, no newline
	f.Close()
	err = Scan(dir, func(*Sample) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "longer than 64 MiB") {
		t.Fatalf("err = %v", err)
	}
}
