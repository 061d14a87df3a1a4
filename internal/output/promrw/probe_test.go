package promrw

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/output/servertest"
)

func TestProbe(t *testing.T) {
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("Content-Encoding") != "snappy" || len(body) != 1 {
			http.Error(w, "bad probe", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	disabled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "remote write receiver needs to be enabled with --web.enable-remote-write-receiver", http.StatusNotFound)
	}))
	defer disabled.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/api/v1/write"
	ln.Close()
	tests := []struct{ name, url, want string }{
		{"a receiver", receiver.URL + "/api/v1/write", ""},
		{"receiver not enabled", disabled.URL + "/api/v1/write", "404 Not Found remote write receiver needs to be enabled"},
		{"a dead port", dead, "connection refused"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Probe(t.Context(), tc.url)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestProbeRealPrometheus: a real Prometheus with its receiver enabled
// takes the empty write.
func TestProbeRealPrometheus(t *testing.T) {
	base := servertest.Prometheus(t)
	if err := Probe(t.Context(), base+"/api/v1/write"); err != nil {
		t.Fatal(err)
	}
}
