package k6js

import "testing"

// FuzzParseOptions: any options JSON is parsed or refused with an error,
// never a panic, and accepted options make valid executors or an error.
func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{`{}`, `{"vus": 10, "duration": "30s"}`, `{"stages": [{"duration": "1s", "target": 2}]}`,
		`{"scenarios": {"a": {"executor": "constant-arrival-rate", "rate": 5, "duration": "1s", "preAllocatedVUs": 1}}}`,
		`{"thresholds": {"checks": ["rate>0.9"]}}`, `{"iterations": -1}`, `{"duration": 1e300}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		o, err := parseOptions("s.js", []byte(raw))
		if err != nil {
			return
		}
		scs, err := o.scenarios(Overrides{})
		if err != nil {
			return
		}
		for _, s := range scs {
			if err := s.Config.Validate(); err != nil {
				t.Fatalf("%s: accepted an invalid executor: %v", raw, err)
			}
		}
		ThresholdsOf(o.Thresholds)
	})
}
