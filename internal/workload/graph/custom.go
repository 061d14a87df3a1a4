package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/stampede-bench/stampede/internal/bounded"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/vu"
)

// customFile is the YAML format of --scenario-file (see docs/graph.md):
//
//	scenarios:
//	  - name: custom.FriendsBornAfter        # FAMILY.Name, unique
//	    description: friends born after a date
//	    query:
//	      sql: SELECT ... WHERE k.person1id = $1 AND p.birthday > $2
//	    params: my_params.csv               # relative to the YAML file, else to --data
//	    columns: [personId, date]            # param columns bound to $1, $2, ...
//	    separator: "|"                        # default "|"
//	    default: false                        # run by a bare `stampede run`
//
// Instead of $N and columns, the query may name columns in the template
// form of the http family, {{personId}}: each distinct name becomes the
// next $N, bound to that column.
type customFile struct {
	Scenarios []customSpec `yaml:"scenarios"`
}

type customSpec struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Query       map[string]string `yaml:"query"`
	Params      string            `yaml:"params"`
	Columns     []string          `yaml:"columns"`
	Separator   string            `yaml:"separator"`
	Default     bool              `yaml:"default"`

	file string // the YAML file it came from
}

// parseCustomFiles reads every --scenario-file. Names must be FAMILY.Name,
// unique, and not those of built-in scenarios.
func parseCustomFiles(paths []string, builtin []workload.Info) ([]customSpec, error) {
	seen := map[string]bool{}
	for _, b := range builtin {
		seen[b.Name] = true
	}
	var out []customSpec
	for _, path := range paths {
		raw, err := bounded.ReadFile(context.Background(), path, bounded.ConfigBytes)
		if err != nil {
			return nil, fmt.Errorf("scenario file: %w", err)
		}
		var cf customFile
		dec := yaml.NewDecoder(strings.NewReader(string(raw)))
		dec.KnownFields(true)
		if err := dec.Decode(&cf); err != nil {
			return nil, fmt.Errorf("scenario file %s: %w", path, err)
		}
		if len(cf.Scenarios) == 0 {
			return nil, fmt.Errorf("scenario file %s: no scenarios (want a top-level scenarios: list)", path)
		}
		for i, s := range cf.Scenarios {
			s.file = path
			where := fmt.Sprintf("scenario file %s, scenario %d", path, i+1)
			if !strings.Contains(s.Name, ".") || strings.HasPrefix(s.Name, ".") || strings.HasSuffix(s.Name, ".") {
				return nil, fmt.Errorf("%s: name %q must look like family.Name, e.g. custom.FriendsOfFriends", where, s.Name)
			}
			if seen[s.Name] {
				return nil, fmt.Errorf("%s: name %q is already taken", where, s.Name)
			}
			seen[s.Name] = true
			if len(s.Query) == 0 {
				return nil, fmt.Errorf("%s (%s): no query (want query: {sql: ...})", where, s.Name)
			}
			if s.Params == "" && len(s.Columns) > 0 {
				return nil, fmt.Errorf("%s (%s): columns without a params file", where, s.Name)
			}
			if s.Separator == "" {
				s.Separator = string(ldbcfile.Separator)
			}
			if len(s.Separator) != 1 {
				return nil, fmt.Errorf("%s (%s): separator must be one character", where, s.Name)
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// custom is a scenario from a YAML file: one query per iteration with the
// next parameter row.
type custom struct {
	common
	query string
	rows  [][]any
}

// newCustom resolves a custom scenario for dialect d and data set dir.
func newCustom(s customSpec, d dialect, dataDir string) (*custom, error) {
	q, ok := s.Query[d.Name()]
	if !ok {
		return nil, usage.Errorf("custom scenario %s has no %s query for this target (it has: %s)", s.Name, d.Name(), strings.Join(mapKeys(s.Query), ", "))
	}
	columns := s.Columns
	if len(columns) == 0 {
		q, columns = templateParams(q)
	}
	if len(columns) > 0 && s.Params == "" {
		return nil, usage.Errorf("custom scenario %s names columns %v but has no params file", s.Name, columns)
	}
	c := &custom{query: q}
	if s.Params == "" {
		c.rows = [][]any{nil}
		return c, nil
	}
	path := s.Params
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(s.file), s.Params)
		if _, err := os.Stat(path); err != nil {
			path = filepath.Join(dataDir, s.Params)
		}
	}
	rows, err := readParamColumns(path, columns, s.Separator[0])
	if err != nil {
		return nil, usage.Errorf("custom scenario %s: %v", s.Name, err)
	}
	c.rows = rows
	return c, nil
}

// templateParams replaces each {{name}} of q by $N, N numbering the
// distinct names in order of first appearance, and returns the names.
func templateParams(q string) (string, []string) {
	var names []string
	index := map[string]int{}
	var b strings.Builder
	for {
		i := strings.Index(q, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(q[i:], "}}")
		if j < 0 {
			break
		}
		name := strings.TrimSpace(q[i+2 : i+j])
		n, ok := index[name]
		if !ok {
			names = append(names, name)
			n = len(names)
			index[name] = n
		}
		b.WriteString(q[:i])
		b.WriteString("$" + strconv.Itoa(n))
		q = q[i+j+2:]
	}
	b.WriteString(q)
	return b.String(), names
}

// readParamColumns reads the named columns of a separated file with a
// header line. Values that parse as integers bind as integers, others as
// text.
func readParamColumns(path string, columns []string, sep byte) ([][]any, error) {
	raw, err := bounded.ReadFile(context.Background(), path, bounded.ParamsBytes)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n"), "\n")
	if len(lines) < 2 {
		return nil, fmt.Errorf("%s: want a header line and at least one row", path)
	}
	header := strings.Split(lines[0], string(sep))
	pos := make([]int, len(columns))
	for i, c := range columns {
		pos[i] = -1
		for j, h := range header {
			if h == c {
				pos[i] = j
			}
		}
		if pos[i] < 0 {
			return nil, fmt.Errorf("%s: no column %q (header: %s)", path, c, lines[0])
		}
	}
	var rows [][]any
	for n, line := range lines[1:] {
		if line == "" {
			continue
		}
		f := strings.Split(line, string(sep))
		row := make([]any, len(pos))
		for i, p := range pos {
			if p >= len(f) {
				return nil, fmt.Errorf("%s line %d: %d fields, want at least %d", path, n+2, len(f), p+1)
			}
			if v, err := strconv.ParseInt(f[p], 10, 64); err == nil {
				row[i] = v
			} else {
				row[i] = f[p]
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	return rows, nil
}

func mapKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func (s *custom) NewVU(ctx context.Context, id int) (vu.VU, error) {
	b, err := s.newBase(ctx, id, s.query)
	if err != nil {
		return nil, err
	}
	return &customVU{baseVU: b, s: s}, nil
}

type customVU struct {
	*baseVU
	s *custom
}

func (v *customVU) Iterate(ctx context.Context, it *vu.Iter) error {
	v.op.Args = v.s.rows[v.feed.pick()]
	start := it.Now()
	res := v.conn.Do(ctx, &v.op)
	it.RequestAudit(vu.Audit{Label: v.s.name, Op: &v.op}, start, res)
	return nil
}
