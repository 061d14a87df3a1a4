package outputs_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/outputs"
)

// TestBuiltinNames: every name --out accepted before the registry
// existed is known, with the same checks; anything else is unknown.
func TestBuiltinNames(t *testing.T) {
	r := outputs.New()
	for _, tc := range []struct {
		name, arg string
		canonical string
		err       string // "" = valid; "unknown" = ErrUnknown
	}{
		{"influxdb", "http://127.0.0.1:8086/k6", "influxdb", ""},
		{"influxdb", "ftp://x/db", "influxdb", "want http:// or https://"},
		{"influxdb", "", "influxdb", "needs a URL"},
		{"prometheus-rw", "http://127.0.0.1:9090/api/v1/write", "prometheus-rw", ""},
		{"experimental-prometheus-rw", "http://127.0.0.1:9090/api/v1/write", "prometheus-rw", ""},
		{"prometheus-rw", "not a url", "prometheus-rw", "want an http(s) URL"},
		{"json", "out.json.gz", "json", ""},
		{"csv", "out.csv", "csv", ""},
		{"prometheus", "127.0.0.1:9464", "prometheus", ""}, // --prometheus, not --out (CLI false)
		{"kafka", "x", "", "unknown"},
		{"dir", "x", "", "unknown"}, // a result directory is not an output
	} {
		t.Run(tc.name+"="+tc.arg, func(t *testing.T) {
			f, ok := r.Lookup(tc.name)
			if ok != (tc.canonical != "") || f.Name != tc.canonical {
				t.Errorf("Lookup = %q, %v; want %q", f.Name, ok, tc.canonical)
			}
			err := r.Check(tc.name, tc.arg)
			switch {
			case tc.err == "":
				if err != nil {
					t.Errorf("Check: %v", err)
				}
			case tc.err == "unknown":
				if !errors.Is(err, output.ErrUnknown) {
					t.Errorf("Check: %v, want unknown", err)
				}
			case err == nil || !strings.Contains(err.Error(), tc.err) || errors.Is(err, output.ErrUnknown):
				t.Errorf("Check: %v, want %q", err, tc.err)
			}
		})
	}
	want := "influxdb=URL, prometheus-rw=URL, json=FILE, csv=FILE"
	if got := strings.Join(r.Usages(), ", "); got != want {
		t.Errorf("Usages = %q, want %q", got, want)
	}
	if p, _ := r.Lookup(outputs.Prometheus); p.Name != "prometheus" || p.CLI() || p.Check("9464") != nil || p.Check("x:y") == nil {
		t.Errorf("Prometheus factory %q checks ports wrongly", p.Name)
	}
	for _, n := range []string{outputs.Requests, outputs.Series, outputs.Report, outputs.SummaryExport, outputs.Prometheus} {
		if f, ok := r.Lookup(n); !ok || f.CLI() {
			t.Errorf("%s: registered %v, nameable by --out %v", n, ok, f.CLI())
		}
	}
}
