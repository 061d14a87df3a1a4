package loader

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
)

// PersonGraphOnly leaves the forum and message tables out and says so in
// the load record; a full load of the same data set brings them in.
func TestPersonGraphOnly(t *testing.T) {
	dir := t.TempDir()
	if _, err := datagen.Generate(t.Context(), datagen.Config{SF: 0.002, Out: dir}); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "g.db")
	count := func(table string) (n int64, ok bool) {
		c, err := sql.Open("sqlite", sqlite.DSN(db, false))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return n, c.QueryRow("SELECT count(*) FROM "+table).Scan(&n) == nil
	}
	for _, tc := range []struct {
		name         string
		personsOnly  bool
		wantActivity bool
	}{
		{"person graph only", true, false},
		{"whole network", false, true},
	} {
		st, err := Load(t.Context(), Config{Target: "sqlite://" + db, Data: dir, Drop: true, PersonGraphOnly: tc.personsOnly})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m, err := Inspect(t.Context(), "sqlite://"+db, nil)
		if err != nil || m == nil {
			t.Fatalf("%s: Inspect = %v, %v", tc.name, m, err)
		}
		if st.Meta.Activity != tc.wantActivity || m.Activity != tc.wantActivity {
			t.Errorf("%s: activity loaded %v, recorded %v, want %v", tc.name, st.Meta.Activity, m.Activity, tc.wantActivity)
		}
		posts, ok := count("post")
		if tc.wantActivity != (ok && posts > 0) {
			t.Errorf("%s: post table: %d rows (exists %v), want activity %v", tc.name, posts, ok, tc.wantActivity)
		}
		if persons, _ := count("person"); persons != m.Persons || persons == 0 {
			t.Errorf("%s: %d persons, record says %d", tc.name, persons, m.Persons)
		}
	}
}
