package k6js

import (
	"encoding/json"

	"github.com/stampede-bench/stampede/threshold"
)

// ThresholdsOf parses a script's options.thresholds (k6's map form).
func ThresholdsOf(m map[string]json.RawMessage) ([]threshold.Threshold, error) {
	if len(m) == 0 {
		return nil, nil
	}
	return threshold.ParseK6Map(m)
}
