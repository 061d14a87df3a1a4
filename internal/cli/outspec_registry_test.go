package cli

import (
	"strings"
	"testing"
)

// TestParseOutputSpecRegistry: --out names come from the output registry;
// an unknown name or a bad ARG is a usage error (exit 2) naming the known
// outputs, before anything runs.
func TestParseOutputSpecRegistry(t *testing.T) {
	for _, tc := range []struct {
		spec, kind, err string
	}{
		{"results/x", "dir", ""},
		{"dir=results/x", "dir", ""},
		{"influxdb=http://127.0.0.1:8086/k6", "influxdb", ""},
		{"experimental-prometheus-rw=http://127.0.0.1:9090/api/v1/write", "prometheus-rw", ""},
		{"json=out.json.gz", "json", ""},
		{"csv=out.csv", "csv", ""},
		{"kafka=x", "", `unknown output "kafka" in --out kafka=x (known: influxdb=URL, prometheus-rw=URL, json=FILE, csv=FILE, or a directory)`},
		{"influxdb=", "", "--out influxdb= needs a URL"},
		{"influxdb=ftp://h/db", "", "--out influxdb: "},
		{"prometheus-rw=nope", "", "--out prometheus-rw: "},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			o, err := parseOutputSpec(nil, tc.spec)
			if tc.err == "" {
				if err != nil || o.Kind != tc.kind {
					t.Errorf("= %+v, %v; want kind %s", o, err, tc.kind)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) || exitCode(err) != ExitUsage {
				t.Errorf("error %v (%T), want a usage error with %q", err, err, tc.err)
			}
		})
	}
}
