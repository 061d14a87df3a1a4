package datagen

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/golden"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

func generate(t testing.TB, cfg Config) Stats {
	t.Helper()
	if cfg.Out == "" {
		cfg.Out = t.TempDir()
	}
	st, err := Generate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestGolden pins the format of every file: header and first rows of a tiny
// data set. Run with -update after an intended change.
func TestGolden(t *testing.T) {
	dir := t.TempDir()
	st := generate(t, Config{SF: 0.002, Out: dir, Seed: 42, Workers: 2})
	var b strings.Builder
	files := append(ldbcfile.Files(), ldbcfile.ActivityFiles()...)
	for _, f := range append(files, ldbcfile.InteractiveParamFiles()...) {
		fmt.Fprintf(&b, "== %s (%d rows)\n", f.Path, st.Files[f.Path])
		data, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		b.WriteString(strings.Join(lines[:min(len(lines), 26)], ""))
	}
	golden.Check(t, "golden_sf0.002_seed42.txt", []byte(b.String()))
}

// TestDeterministicAcrossWorkers generates SF1 (several blocks and chunks)
// with different worker counts and compares every byte.
func TestDeterministicAcrossWorkers(t *testing.T) {
	var ref map[string]string
	for _, workers := range []int{1, 3} {
		dir := t.TempDir()
		generate(t, Config{SF: 1, Out: dir, Seed: 42, Workers: workers})
		sums := hashTree(t, dir)
		if ref == nil {
			ref = sums
			continue
		}
		if len(sums) != len(ref) {
			t.Fatalf("workers=%d: %d files, want %d", workers, len(sums), len(ref))
		}
		for path, sum := range ref {
			if sums[path] != sum {
				t.Errorf("workers=%d: %s differs from workers=1", workers, path)
			}
		}
	}
	other := hashTree(t, func() string {
		d := t.TempDir()
		generate(t, Config{SF: 1, Out: d, Seed: 43, Workers: 2})
		return d
	}())
	if other[ldbcfile.PersonKnowsPersonPath] == ref[ldbcfile.PersonKnowsPersonPath] {
		t.Error("seed 43 gives the same knows file as seed 42")
	}
}

func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		sums[filepath.ToSlash(rel)] = fmt.Sprintf("%x", sha256.Sum256(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// TestOutputIsConsistent reads a generated SF0.1 data set back with the
// ldbcfile readers and checks references, dates, row counts and the
// substitution parameters.
func TestOutputIsConsistent(t *testing.T) {
	dir := t.TempDir()
	st := generate(t, Config{SF: 0.1, Out: dir, Seed: 42})
	open := func(rel string) io.Reader {
		f, err := os.Open(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return bufio.NewReader(f)
	}
	// Row counts in Stats match the files.
	for _, f := range ldbcfile.Files() {
		data, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		if rows := int64(strings.Count(string(data), "\n")) - 1; rows != st.Files[f.Path] {
			t.Errorf("%s: %d rows, Stats says %d", f.Path, rows, st.Files[f.Path])
		}
	}
	// Static entities by type.
	placeType := map[int64]string{}
	readAll(t, open(ldbcfile.PlacePath), ldbcfile.PlaceHeader, func(f []string) { placeType[id(t, f[0])] = f[3] })
	orgType := map[int64]string{}
	readAll(t, open(ldbcfile.OrganisationPath), ldbcfile.OrganisationHeader, func(f []string) { orgType[id(t, f[0])] = f[1] })
	tags := map[int64]bool{}
	readAll(t, open(ldbcfile.TagPath), ldbcfile.TagHeader, func(f []string) { tags[id(t, f[0])] = true })
	readAll(t, open(ldbcfile.PlaceIsPartOfPlacePath), ldbcfile.PlaceIsPartOfPlaceHeader, func(f []string) {
		child, parent := placeType[id(t, f[0])], placeType[id(t, f[1])]
		if !(child == "city" && parent == "country" || child == "country" && parent == "continent") {
			t.Errorf("place_isPartOf_place %v: %s in %s", f, child, parent)
		}
	})

	persons := map[int64]ldbcfile.Person{}
	if err := (ldbcfile.Reader{}).ReadPersons(open(ldbcfile.PersonPath), func(p ldbcfile.Person) error {
		if _, dup := persons[p.ID]; dup || p.ID < 0 {
			return fmt.Errorf("bad or duplicate id %d", p.ID)
		}
		persons[p.ID] = p
		if p.CreationDate.Year() < 2010 || p.CreationDate.Year() > 2012 {
			return fmt.Errorf("person %d created %v", p.ID, p.CreationDate)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(persons) != 1700 {
		t.Fatalf("%d persons, want 1700", len(persons))
	}

	adj := map[int64][]int64{}
	end := time.Date(2013, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := (ldbcfile.Reader{}).ReadKnows(open(ldbcfile.PersonKnowsPersonPath), func(a, b int64, created time.Time) error {
		pa, oka := persons[a]
		pb, okb := persons[b]
		switch {
		case !oka || !okb:
			return fmt.Errorf("knows %d-%d: unknown person", a, b)
		case a >= b:
			return fmt.Errorf("knows %d-%d: want id1 < id2", a, b)
		case created.Before(pa.CreationDate.Add(knowsDelayMs*time.Millisecond)) || created.Before(pb.CreationDate) || !created.Before(end):
			return fmt.Errorf("knows %d-%d at %v: persons joined %v and %v", a, b, created, pa.CreationDate, pb.CreationDate)
		}
		adj[a] = append(adj[a], b)
		adj[b] = append(adj[b], a)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	edges := 0
	for a, fs := range adj {
		seen := map[int64]bool{}
		for _, b := range fs {
			if seen[b] {
				t.Fatalf("friendship %d-%d written twice", a, b)
			}
			seen[b] = true
		}
		edges += len(fs)
	}
	if int64(edges/2) != st.Knows {
		t.Errorf("%d knows rows, Stats.Knows = %d", edges/2, st.Knows)
	}

	checkRefs := func(rel, header string, check func(f []string) error) {
		readAll(t, open(rel), header, func(f []string) {
			if _, ok := persons[id(t, f[0])]; !ok {
				t.Errorf("%s: unknown person %s", rel, f[0])
			}
			if err := check(f); err != nil {
				t.Errorf("%s %v: %v", rel, f, err)
			}
		})
	}
	want := func(ok bool, msg string) error {
		if !ok {
			return errors.New(msg)
		}
		return nil
	}
	checkRefs(ldbcfile.PersonIsLocatedInPlacePath, ldbcfile.PersonIsLocatedInPlaceHeader, func(f []string) error {
		return want(placeType[id(t, f[1])] == "city", "not a city")
	})
	checkRefs(ldbcfile.PersonHasInterestTagPath, ldbcfile.PersonHasInterestTagHeader, func(f []string) error {
		return want(tags[id(t, f[1])], "unknown tag")
	})
	checkRefs(ldbcfile.PersonStudyAtOrganisationPath, ldbcfile.PersonStudyAtOrganisationHeader, func(f []string) error {
		return want(orgType[id(t, f[1])] == "university", "not a university")
	})
	checkRefs(ldbcfile.PersonWorkAtOrganisationPath, ldbcfile.PersonWorkAtOrganisationHeader, func(f []string) error {
		return want(orgType[id(t, f[1])] == "company", "not a company")
	})
	checkRefs(ldbcfile.PersonEmailEmailaddressPath, ldbcfile.PersonEmailEmailaddressHeader, func(f []string) error {
		return want(strings.Count(f[1], "@") == 1, "not an address")
	})
	checkRefs(ldbcfile.PersonSpeaksLanguagePath, ldbcfile.PersonSpeaksLanguageHeader, func(f []string) error {
		return want(len(f[1]) == 2, "not a language code")
	})

	// k-hop persons: known, with friends, at least 100.
	var khop []int64
	if err := (ldbcfile.Reader{}).ReadKHopPersons(open(ldbcfile.KHopPersonPath), func(p int64) error {
		khop = append(khop, p)
		return want(len(adj[p]) > 0, fmt.Sprintf("k-hop person %d has no friends", p))
	}); err != nil {
		t.Fatal(err)
	}
	if len(khop) < 100 {
		t.Errorf("%d k-hop persons, want at least 100", len(khop))
	}
	// Shortest-path pairs: about 10% not connected (by BFS over the file).
	comp := componentsOf(persons, adj)
	pairs, unconnected := 0, 0
	if err := (ldbcfile.Reader{}).ReadShortestPathPairs(open(ldbcfile.ShortestPathPath), func(a, b int64) error {
		pairs++
		if comp[a] != comp[b] {
			unconnected++
		}
		return want(a != b, "pair of one person")
	}); err != nil {
		t.Fatal(err)
	}
	if pairs < 100 || unconnected < pairs/20 || unconnected > pairs/6 {
		t.Errorf("%d shortest-path pairs, %d unconnected: want >= 100 and about 10%% unconnected", pairs, unconnected)
	}
	// Insert persons: new ids.
	inserts := map[int64]bool{}
	if err := (ldbcfile.Reader{}).ReadInsertPersons(open(ldbcfile.InsertPersonPath), func(p ldbcfile.Person) error {
		if _, clash := persons[p.ID]; clash || inserts[p.ID] {
			return fmt.Errorf("insert person id %d collides", p.ID)
		}
		inserts[p.ID] = true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(inserts) < 10_000 {
		t.Errorf("%d insert persons, want at least 10000", len(inserts))
	}
}

func readAll(t *testing.T, r io.Reader, header string, fn func(f []string)) {
	t.Helper()
	err := ldbcfile.Reader{}.ReadRecords(r, header, func(f [][]byte) error {
		s := make([]string, len(f))
		for i := range f {
			s[i] = string(f[i])
		}
		fn(s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func id(t *testing.T, s string) int64 {
	t.Helper()
	v, err := ldbcfile.ParseID([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func componentsOf(persons map[int64]ldbcfile.Person, adj map[int64][]int64) map[int64]int64 {
	comp := map[int64]int64{}
	for p := range persons {
		if _, ok := comp[p]; ok {
			continue
		}
		comp[p] = p
		queue := []int64{p}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, f := range adj[x] {
				if _, ok := comp[f]; !ok {
					comp[f] = p
					queue = append(queue, f)
				}
			}
		}
	}
	return comp
}

func TestGenerateBadConfig(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	nonEmpty := t.TempDir()
	if err := os.WriteFile(filepath.Join(nonEmpty, "keep.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"unknown SF", Config{SF: 2, Out: t.TempDir()}, "scale factor 2 is not an LDBC one"},
		{"no output", Config{SF: 0.01}, "no output directory"},
		{"output is a file", Config{SF: 0.01, Out: file}, "not a directory"},
		{"unwritable output", Config{SF: 0.01, Out: filepath.Join(file, "sub")}, "cannot create output directory"},
		{"non-empty output", Config{SF: 0.01, Out: nonEmpty}, "not empty (--force replaces a data set stampede wrote there"},
		{"negative workers", Config{SF: 0.01, Out: t.TempDir(), Workers: -2}, "workers -2"},
		{"unknown layout", Config{SF: 0.01, Out: t.TempDir(), Layout: "CsvComposite"}, `layout "CsvComposite" is neither`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Generate(context.Background(), tc.cfg)
			if !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a usage error containing %q", err, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(nonEmpty, ldbcfile.DirSocialNetwork)); !os.IsNotExist(err) {
		t.Error("a refused run wrote into the non-empty directory")
	}
}

// --force replaces a data set stampede wrote (its manifest lists every
// file) and refuses, removing nothing, a directory holding any other file:
// a real LDBC data set, a file added next to ours, or one of ours changed.
func TestGenerateForceRemovesOnlyItsOwnFiles(t *testing.T) {
	dir := t.TempDir()
	generate(t, Config{SF: 0.002, Out: dir})
	list, err := readManifest(filepath.Join(dir, ManifestName))
	if err != nil || list[ldbcfile.PersonPath] <= 0 {
		t.Fatalf("manifest %v, %v", list, err)
	}
	for _, f := range ldbcfile.Files() {
		if _, ok := list[f.Path]; !ok {
			t.Errorf("manifest lacks %s", f.Path)
		}
	}
	generate(t, Config{SF: 0.002, Out: dir, Seed: 7, Force: true}) // replaces its own files
	before := snapshotDir(t, dir)

	tests := []struct {
		name, rel, want string
		modify          func(path string)
	}{
		{"foreign file", "social_network/dynamic/post_1_0.csv", "holds social_network/dynamic/post_1_0.csv, which stampede did not write",
			func(p string) { os.WriteFile(p, []byte("id\n1\n"), 0o644) }},
		{"ldbc params", "substitution_parameters/interactive_13_param.txt", "which stampede did not write",
			func(p string) { os.WriteFile(p, []byte("person1Id|person2Id\n"), 0o644) }},
		{"changed file", ldbcfile.KHopPersonPath, "changed since stampede wrote it",
			func(p string) { f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0); f.WriteString("1\n"); f.Close() }},
		{"no manifest", ManifestName, "has no " + ManifestName, func(p string) { os.Remove(p) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := t.TempDir()
			copyDir(t, dir, d)
			tc.modify(filepath.Join(d, tc.rel))
			want := snapshotDir(t, d)
			_, err := Generate(t.Context(), Config{SF: 0.002, Out: d, Force: true})
			if !usage.Is(err) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "--force") {
				t.Fatalf("err = %v, want %q without suggesting --force", err, tc.want)
			}
			if got := snapshotDir(t, d); got != want {
				t.Errorf("a refused --force changed the directory:\n%s\nwant\n%s", got, want)
			}
		})
	}
	if got := snapshotDir(t, dir); got != before {
		t.Error("the source directory changed")
	}
}

// snapshotDir lists the files under dir with their sizes.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, _ := d.Info()
			rel, _ := filepath.Rel(dir, p)
			fmt.Fprintf(&b, "%s %d\n", rel, fi.Size())
		}
		return nil
	})
	return b.String()
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
}

func TestGenerateCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	_, err := Generate(ctx, Config{SF: 0.1, Out: t.TempDir(), Workers: 2, Progress: func(int64) {
		calls++
		cancel()
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if calls == 0 {
		t.Error("Progress never called")
	}
}

func TestProgressIsMonotonicAndComplete(t *testing.T) {
	var last int64
	st := generate(t, Config{SF: 0.1, Progress: func(rows int64) {
		if rows < last {
			t.Errorf("progress went back from %d to %d", last, rows)
		}
		last = rows
	}})
	var total int64
	for _, n := range st.Files {
		total += n
	}
	if last != total {
		t.Errorf("last progress %d, total rows %d", last, total)
	}
}
