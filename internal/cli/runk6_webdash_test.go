package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/output/webdash"
)

// The dashboard's settings: flags, k6's --out web-dashboard=PARAMS for
// what no flag gave, port -1 (k6: no server, only the export).
func TestWebDashboardSettings(t *testing.T) {
	defaults := k6Flags{dashboardHost: "127.0.0.1", dashboardPort: 5665, dashboardPeriod: time.Second}
	tests := []struct {
		name    string
		flags   func(k *k6Flags)
		changed []string
		outs    []string
		want    webdash.Settings
		err     string
	}{
		{"off", nil, nil, nil, webdash.Settings{Host: "127.0.0.1", Port: 5665, Period: time.Second}, ""},
		{"flag", func(k *k6Flags) { k.dashboard = true }, nil, nil, webdash.Settings{Serve: true, Host: "127.0.0.1", Port: 5665, Period: time.Second}, ""},
		{"--out web-dashboard", nil, nil, []string{""}, webdash.Settings{Serve: true, Host: "127.0.0.1", Port: 5665, Period: time.Second}, ""},
		{"--out web-dashboard=PARAMS", nil, nil, []string{"port=6000&period=10s&export=r.html&host=0.0.0.0&open=true"},
			webdash.Settings{Serve: true, Host: "0.0.0.0", Port: 6000, Period: 10 * time.Second, Export: "r.html"}, ""},
		{"a flag wins over the spec", func(k *k6Flags) { k.dashboardPort = 7000 }, []string{"web-dashboard-port"}, []string{"port=6000"},
			webdash.Settings{Serve: true, Host: "127.0.0.1", Port: 7000, Period: time.Second}, ""},
		{"port -1: export only", func(k *k6Flags) { k.dashboard, k.dashboardPort, k.dashboardExport = true, -1, "r.html" }, nil, nil,
			webdash.Settings{Host: "127.0.0.1", Period: time.Second, Export: "r.html"}, ""},
		{"unknown parameter", nil, nil, []string{"colour=red"}, webdash.Settings{}, `unknown parameter "colour"`},
		{"bad port in the spec", nil, nil, []string{"port=http"}, webdash.Settings{}, "not a number"},
		{"bad period", func(k *k6Flags) { k.dashboardPeriod = time.Millisecond }, nil, nil, webdash.Settings{}, "at least 100ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := defaults
			if tc.flags != nil {
				tc.flags(&k)
			}
			changed := func(name string) bool {
				for _, c := range tc.changed {
					if c == name {
						return true
					}
				}
				return false
			}
			got, err := k.webDashboard(tc.outs, changed)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}
