package runconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadConfig feeds arbitrary bytes to the --config decoder (YAML, of
// which JSON is a subset): it never panics, a rejected file gives one line,
// an accepted one lists every scenario once in Order, and every scenario
// that validates (after defaults) plans a duration and a VU count that are
// not negative.
func FuzzLoadConfig(f *testing.F) {
	for _, s := range []string{
		"target: postgres://bench@127.0.0.1/ldbc\nscenarios:\n  go.Go1Step: {executor: constant-vus, vus: 50, duration: 30s}\n  go.Go2Step: {executor: ramping-vus, stages: [{duration: 10s, target: 100}]}\nthresholds: [\"responseTime: p(95)<200\"]\noptions: {batch-size: \"300\"}\n",
		`{"scenarios": {"a": {"executor": "constant-arrival-rate", "rate": 10, "timeUnit": "1s", "duration": "1m", "preAllocatedVUs": 2, "maxVUs": 5}}}`,
		"scenarios:\n  b: {executor: shared-iterations, vus: 4, iterations: 100, maxDuration: 1m}\n  a: {executor: per-vu-iterations}\n",
		"scenarios:\n  r: {executor: ramping-arrival-rate, startRate: 1, stages: [{duration: 5s, target: 50}, {duration: 5s, target: 0}], maxVUs: 3, warmup: 2s}\n",
		"scenarios:\n  r: {executor: ramping-vus, stages: [{duration: 2000000h, target: 1}, {duration: 2000000h, target: 1}]}\n",
		"scenarios: {a: {}, a: {}}\n",
		"scenarios: [a, b]\n",
		"unknown: 1\n",
		"scenarios:\n  a: {duration: -1s}\n",
		"",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fc, err := Load(t.Context(), path)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if len(fc.Order) != len(fc.Scenarios) {
			t.Fatalf("order %q for %d scenarios", fc.Order, len(fc.Scenarios))
		}
		for _, name := range fc.Order {
			c, ok := fc.Scenarios[name]
			if !ok {
				t.Fatalf("order names %q, not a scenario", name)
			}
			c = c.Defaults()
			if c.Validate() != nil {
				continue
			}
			if d := c.TotalDuration(); d < 0 {
				t.Fatalf("%q: valid config %+v runs for %v", name, c, d)
			}
			if n := c.MaxVUsNeeded(); n < 0 {
				t.Fatalf("%q: valid config %+v needs %d VUs", name, c, n)
			}
		}
	})
}
