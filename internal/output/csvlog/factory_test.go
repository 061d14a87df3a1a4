package csvlog_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/csvlog"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// TestFactory: the request CSV of a spec without ARG is DefaultName in the
// result directory; its statement column is nGQL for a NebulaGraph
// target, query otherwise; Created lists the file and the directories
// Start made for it, and nothing for a file that existed.
func TestFactory(t *testing.T) {
	for _, tc := range []struct {
		name, arg, scheme, column string
		made                      []string // relative to the temporary directory
	}{
		{name: "default path", scheme: "", column: "query", made: []string{"res/requests.csv", "res"}},
		{name: "nebula", scheme: "nebula", column: "nGQL", made: []string{"res/requests.csv", "res"}},
		{name: "elsewhere", arg: "a/b/r.csv", scheme: "http", column: "query", made: []string{"a/b/r.csv", "a/b", "a"}},
		{name: "existing file", arg: "keep.csv", column: "query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "keep.csv"), []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			arg := tc.arg
			if arg != "" {
				arg = filepath.Join(root, arg)
			}
			o, err := csvlog.Factory().New(output.Params{Arg: arg, Dir: filepath.Join(root, "res"), TargetScheme: tc.scheme})
			if err != nil {
				t.Fatal(err)
			}
			if err := o.Start(); err != nil {
				t.Fatal(err)
			}
			w := o.(reqlog.Log).Writer("s")
			w.Write(reqlog.Record{Query: "q"})
			w.Close()
			if err := o.Stop(); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, m := range tc.made {
				want = append(want, filepath.Join(root, m))
			}
			if got := o.(output.Creator).Created(); !slices.Equal(got, want) {
				t.Errorf("created %q, want %q", got, want)
			}
			path := arg
			if path == "" {
				path = filepath.Join(root, "res", csvlog.DefaultName)
			}
			b, err := os.ReadFile(path)
			if err != nil || !strings.Contains(strings.SplitN(string(b), "\n", 2)[0], tc.column) {
				t.Errorf("header of %s: %q (%v), want a %s column", path, b, err, tc.column)
			}
		})
	}
}
