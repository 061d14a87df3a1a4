package ldbc

import (
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/usage"
)

// interactiveState is what the Interactive scenarios of one build share:
// the parameter rows and the reference, each read once.
type interactiveState struct {
	loaded            bool
	persons, messages []interactiveRow
	net               *refNet
}

// buildInteractive makes Interactive scenario name. ref is nil when
// answer checks are off.
func (f *Family) buildInteractive(name string, st *interactiveState, base func(string, int) common, d dialect, dir string, ref *refGraph, pairs [][2]int64) (engine.Scenario, []string, error) {
	sd, ok := d.(sqlDialect)
	if !ok {
		return nil, nil, usage.Errorf("%s runs on SQL targets (sqlite://, postgres://)", name)
	}
	if name == IC13 {
		c := base(name, len(pairs))
		c.labels = pairLabels(name, pairs)
		return &shortestPath{common: c, maxDepth: f.opts.MaxDepth, pairs: pairs}, nil, nil
	}
	var notes []string
	if !st.loaded {
		var err error
		if st.persons, st.messages, err = loadInteractiveParams(dir); err != nil {
			return nil, nil, usage.Errorf("substitution parameters: %v", err)
		}
		if ref != nil {
			if st.net, err = loadRefNet(dir, ref); err != nil {
				return nil, nil, err
			}
			notes = append(notes, "Interactive answers are compared cell by cell with an in-memory reference (message text by hash)")
		}
		st.loaded = true
	}
	var spec interactiveSpec
	for _, s := range interactiveSpecs() {
		if s.name == name {
			spec = s
		}
	}
	rows := st.persons
	if spec.kind == onMessage {
		rows = st.messages
	}
	c := base(name, len(rows))
	c.labels = interactiveLabels(name, spec.kind, rows)
	return &interactiveQuery{common: c, spec: spec, query: spec.sql(sd.postgres), postgres: sd.postgres, rows: rows, net: st.net}, notes, nil
}
