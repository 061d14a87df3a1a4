package influx

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/output/servertest"
)

func TestProbe(t *testing.T) {
	influx1 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Influxdb-Version", "1.8.10")
		w.WriteHeader(http.StatusNoContent)
	}))
	defer influx1.Close()
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html><body>hello</body></html>"))
	}))
	defer html.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	tests := []struct{ name, url, want string }{
		{"InfluxDB 1.x", influx1.URL + "/k6", ""},
		{"InfluxDB 2 API", influx1.URL + "/api/v2/write?org=o&bucket=b", ""},
		{"an HTML page", html.URL + "/k6", "does not answer as InfluxDB"},
		{"a dead port", dead + "/k6", "unreachable: "},
		{"credentials stay out", strings.Replace(dead, "http://", "http://u:hunter2@", 1) + "/k6", "unreachable"},
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
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestProbeRealInfluxDB: a real InfluxDB 1.x passes the check.
func TestProbeRealInfluxDB(t *testing.T) {
	base := servertest.InfluxDB(t)
	if err := Probe(t.Context(), base+"/k6probe"); err != nil {
		t.Fatal(err)
	}
}
