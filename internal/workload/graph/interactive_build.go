package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/vu"
)

// interactiveState is what the Interactive scenarios of one build share:
// the parameter rows and the reference, each read once.
type interactiveState struct {
	loaded            bool
	persons, messages []interactiveRow
	// paramsErr is why the stampede parameter files could not be read.
	paramsErr error
	// ic1 are IC1's rows from LDBC's interactive_1_param.txt, read when
	// the data set has no interactive_person.csv.
	ic1 []interactiveRow
	net *refNet
	// ngqlNoted is set once the nGQL note was made.
	ngqlNoted bool
}

// buildInteractive makes Interactive scenario name. ref is nil when
// answer checks are off.
func (f *Family) buildInteractive(name string, st *interactiveState, base func(string, int) common, d dialect, dir string, ref *refGraph, pairs [][2]int64) (vu.Scenario, []string, error) {
	sd, ok := d.(sqlDialect)
	_, ngql := d.(ngqlDialect)
	if !ok && !ngql {
		return nil, nil, usage.Errorf("%s runs on SQL targets (sqlite://, postgres://) and NebulaGraph (nebula://)", name)
	}
	if name == IC13 {
		c := base(name, len(pairs))
		c.labels = pairLabels(name, pairs)
		return newShortestPath(c, f.opts.MaxDepth, pairs), nil, nil
	}
	if !st.loaded {
		st.persons, st.messages, st.paramsErr = loadInteractiveParams(dir)
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
	switch {
	case st.paramsErr == nil:
	case name == IC1:
		if st.ic1 == nil {
			var err error
			if st.ic1, err = loadIC1Params(dir); err != nil {
				return nil, nil, usage.Errorf("substitution parameters of %s: %v (nor %s: %v)", name, err, ldbcfile.InteractivePersonPath, st.paramsErr)
			}
		}
		rows = st.ic1
	default:
		return nil, nil, usage.Errorf("substitution parameters: %v", st.paramsErr)
	}
	var notes []string
	if ref != nil && st.net == nil {
		// The reference reads the CsvBasic files only.
		if layout, err := ldbcfile.DetectLayout(dir); err == nil && layout != ldbcfile.Layouts[0] {
			return nil, nil, usage.Errorf("%s: answer checks read the CsvBasic layout, and %s is %s: run with --check-sample 0 (or generate the data set in CsvBasic)", name, dir, layout)
		}
		var err error
		if st.net, err = loadRefNet(dir, ref); err != nil {
			return nil, nil, err
		}
		notes = append(notes, "Interactive answers are compared cell by cell with an in-memory reference (message text by hash)")
	}
	c := base(name, len(rows))
	c.labels = interactiveLabels(name, spec.kind, rows)
	if ngql {
		if !st.ngqlNoted {
			st.ngqlNoted = true
			notes = append(notes, "interactive.* on NebulaGraph send openCypher MATCH statements (FIND SHORTEST PATH for IC13), checked only against the stand-in graphd's own MATCH interpreter, never a real NebulaGraph server (docs/graph.md lists the semantics to confirm)")
		}
		q := ngqlInteractiveQueries()[name]
		stmts, err := renderInteractive(d, q.query, spec.kind, rows)
		if err != nil {
			return nil, nil, err
		}
		return &interactiveQuery{common: c, spec: spec, query: q.query, rows: rows, net: st.net, stmts: stmts, ngql: &q}, notes, nil
	}
	return &interactiveQuery{common: c, spec: spec, query: spec.sql(sd.postgres), postgres: sd.postgres, rows: rows, net: st.net}, notes, nil
}

// renderInteractive renders the nGQL statement of every parameter row:
// the vid of its person or message, and its first name or date.
func renderInteractive(d dialect, query string, kind interactiveKind, rows []interactiveRow) ([]string, error) {
	args := make([][]any, len(rows))
	for i, r := range rows {
		args[i] = []any{ngqlParam(kind, r.id)}
		switch kind {
		case onPersonName:
			args[i] = append(args[i], r.name)
		case onPersonDate:
			args[i] = append(args[i], time.UnixMilli(r.maxMs).UTC())
		}
	}
	return renderAll(d, query, args)
}

// ic1ParamHeader is the header of LDBC's interactive_1_param.txt.
const ic1ParamHeader = "personId|firstName"

// loadIC1Params reads LDBC's IC1 substitution parameters
// (interactive_1_param.txt, personId|firstName), for LDBC's own data sets.
func loadIC1Params(dir string) ([]interactiveRow, error) {
	rel := ldbcfile.InteractiveParamPath(1)
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []interactiveRow
	err = ldbcfile.Reader{}.ReadRecords(f, ic1ParamHeader, func(fl [][]byte) error {
		id, err := ldbcfile.ParseID(fl[0])
		rows = append(rows, interactiveRow{id: id, name: string(fl[1])})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s has no rows", rel)
	}
	return rows, nil
}
