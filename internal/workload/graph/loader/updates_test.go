package loader

import (
	"testing"

	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// A data set generated with update streams loads its bulk part only: every
// table holds exactly the rows of its bulk file (verified counts), and the
// stream operations are neither loaded nor counted.
func TestGeneratedUpdateStreamsLoadBulkOnly(t *testing.T) {
	dir := t.TempDir()
	st, err := datagen.Generate(t.Context(), datagen.Config{SF: 0.005, Out: dir, Seed: 42, Workers: 2, UpdateStreams: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ldbcfile.UpdateStreamFiles() {
		if st.Files[p] == 0 {
			t.Fatalf("%s: no operations", p)
		}
	}
	for name, target := range targets(t) {
		t.Run(name, func(t *testing.T) {
			lst, err := Load(t.Context(), Config{Target: target(t), Data: dir})
			if err != nil {
				t.Fatal(err)
			}
			if lst.Failed != 0 || lst.Meta.Persons != st.Persons || lst.Meta.Knows != st.Knows || !lst.Meta.Activity {
				t.Errorf("load record %+v, failed %d; generated %d persons, %d knows in the bulk files", lst.Meta, lst.Failed, st.Persons, st.Knows)
			}
			var bulk int64
			for rel, n := range st.Files {
				if rel != ldbcfile.UpdateStreamPersonPath && rel != ldbcfile.UpdateStreamForumPath {
					bulk += n
				}
			}
			for _, ts := range lst.Tables {
				if want, ok := st.Files[ts.File]; !ok || ts.Loaded != want {
					t.Errorf("%s: %d rows loaded from %s, the bulk file has %d", ts.Table, ts.Loaded, ts.File, want)
				}
			}
			if lst.Loaded > bulk {
				t.Errorf("%d rows loaded, the bulk files hold %d", lst.Loaded, bulk)
			}
		})
	}
}
