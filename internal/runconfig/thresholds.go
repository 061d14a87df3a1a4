package runconfig

import (
	"encoding/json"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/stampede-bench/stampede/threshold"
)

// Thresholds are the thresholds of a --config file, either a list of
// specs ("responseTime: p(95)<200") or k6's map form:
//
//	thresholds:
//	  http_req_duration: ["p(95)<200", {threshold: "p(99)<500", abortOnFail: true, delayAbortEval: 10s}]
//	  "http_req_duration{expected_response:true}": "p(90)<100, p(95)<150"
//	  checks: rate>0.99
//
// Specs holds every threshold as a spec; K6 the map form's parsed
// thresholds (with abortOnFail), which a k6 script run evaluates live.
type Thresholds struct {
	Specs []string
	K6    []threshold.Threshold
}

// UnmarshalYAML accepts a sequence of specs or a k6 threshold map.
func (c *Thresholds) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.SequenceNode:
		return n.Decode(&c.Specs)
	case yaml.MappingNode:
		var m map[string]any
		if err := n.Decode(&m); err != nil {
			return err
		}
		raw := map[string]json.RawMessage{}
		for k, v := range m {
			b, err := json.Marshal(v)
			if err != nil {
				return fmt.Errorf("threshold %q: %v", k, err)
			}
			raw[k] = b
		}
		ts, err := threshold.ParseK6Map(raw)
		if err != nil {
			return err
		}
		c.K6 = ts
		for _, t := range ts {
			c.Specs = append(c.Specs, t.String())
		}
		return nil
	}
	return fmt.Errorf("line %d: thresholds must be a list of specs or a map of metric: expressions (k6's form)", n.Line)
}
