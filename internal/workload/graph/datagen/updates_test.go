package datagen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// op is one parsed update stream line.
type op struct {
	sched, dep int64
	typ        int
	f          []string
}

func readStream(t *testing.T, path string) []op {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ops []op
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 3 {
			t.Fatalf("%s:%d: %d columns", path, n, len(cols))
		}
		o := op{sched: num(t, cols[0]), dep: num(t, cols[1]), typ: int(num(t, cols[2])), f: cols[3:]}
		if o.typ < 1 || o.typ > 8 || len(o.f) != ldbcfile.UpdateFields[o.typ] {
			t.Fatalf("%s:%d: type %d with %d fields: %q", path, n, o.typ, len(o.f), sc.Text())
		}
		ops = append(ops, o)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ops
}

func num(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// dataRows returns the data rows of a CsvBasic file (header dropped).
func dataRows(t *testing.T, dir, rel string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	return lines[1:]
}

func isoMs(ms string, t *testing.T) string {
	return string(ldbcfile.AppendDateTimeMillis(nil, num(t, ms)))
}

// rowsOf turns update operations back into the CsvBasic rows they stand
// for, by file.
func rowsOf(t *testing.T, ops []op) map[string][]string {
	out := map[string][]string{}
	add := func(path string, fields ...string) {
		out[path] = append(out[path], strings.Join(fields, "|"))
	}
	list := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ";")
	}
	for _, o := range ops {
		f := o.f
		switch o.typ {
		case ldbcfile.UpdateAddPerson:
			id := f[0]
			add(ldbcfile.PersonPath, id, f[1], f[2], f[3],
				string(ldbcfile.AppendDateDays(nil, num(t, f[4])/dayMs)), isoMs(f[5], t), f[6], f[7])
			add(ldbcfile.PersonIsLocatedInPlacePath, id, f[8])
			for _, x := range list(f[9]) {
				add(ldbcfile.PersonSpeaksLanguagePath, id, x)
			}
			for _, x := range list(f[10]) {
				add(ldbcfile.PersonEmailEmailaddressPath, id, x)
			}
			for _, x := range list(f[11]) {
				add(ldbcfile.PersonHasInterestTagPath, id, x)
			}
			for _, x := range list(f[12]) {
				add(ldbcfile.PersonStudyAtOrganisationPath, id, strings.Replace(x, ",", "|", 1))
			}
			for _, x := range list(f[13]) {
				add(ldbcfile.PersonWorkAtOrganisationPath, id, strings.Replace(x, ",", "|", 1))
			}
		case ldbcfile.UpdateAddLikePost:
			add(ldbcfile.PersonLikesPostPath, f[0], f[1], isoMs(f[2], t))
		case ldbcfile.UpdateAddLikeComment:
			add(ldbcfile.PersonLikesCommentPath, f[0], f[1], isoMs(f[2], t))
		case ldbcfile.UpdateAddForum:
			add(ldbcfile.ForumPath, f[0], f[1], isoMs(f[2], t))
			add(ldbcfile.ForumHasModeratorPersonPath, f[0], f[3])
			for _, x := range list(f[4]) {
				add(ldbcfile.ForumHasTagTagPath, f[0], x)
			}
		case ldbcfile.UpdateAddForumMembership:
			add(ldbcfile.ForumHasMemberPersonPath, f[0], f[1], isoMs(f[2], t))
		case ldbcfile.UpdateAddPost:
			add(ldbcfile.PostPath, f[0], f[1], isoMs(f[2], t), f[3], f[4], f[5], f[6], f[7])
			add(ldbcfile.PostHasCreatorPersonPath, f[0], f[8])
			add(ldbcfile.ForumContainerOfPostPath, f[9], f[0])
			add(ldbcfile.PostIsLocatedInPlacePath, f[0], f[10])
			for _, x := range list(f[11]) {
				add(ldbcfile.PostHasTagTagPath, f[0], x)
			}
		case ldbcfile.UpdateAddComment:
			add(ldbcfile.CommentPath, f[0], isoMs(f[1], t), f[2], f[3], f[4], f[5])
			add(ldbcfile.CommentHasCreatorPersonPath, f[0], f[6])
			add(ldbcfile.CommentIsLocatedInPlacePath, f[0], f[7])
			switch {
			case f[8] != "-1" && f[9] == "-1":
				add(ldbcfile.CommentReplyOfPostPath, f[0], f[8])
			case f[8] == "-1" && f[9] != "-1":
				add(ldbcfile.CommentReplyOfCommentPath, f[0], f[9])
			default:
				t.Errorf("comment %s replies to post %s and comment %s", f[0], f[8], f[9])
			}
			for _, x := range list(f[10]) {
				add(ldbcfile.CommentHasTagTagPath, f[0], x)
			}
		case ldbcfile.UpdateAddFriendship:
			add(ldbcfile.PersonKnowsPersonPath, f[0], f[1], isoMs(f[2], t))
		}
	}
	return out
}

// dateColumn is, per file with a creation date, the column holding it.
func dateColumn() map[string]int {
	return map[string]int{
		ldbcfile.PersonPath: 5, ldbcfile.PersonKnowsPersonPath: 2, ldbcfile.ForumPath: 2,
		ldbcfile.ForumHasMemberPersonPath: 2, ldbcfile.PostPath: 2, ldbcfile.CommentPath: 1,
		ldbcfile.PersonLikesPostPath: 2, ldbcfile.PersonLikesCommentPath: 2,
	}
}

// With update streams, every row of the data set without them is either
// in a bulk file or carried by exactly one stream operation; bulk rows are
// from before the cut-over and operations after it.
func TestUpdateStreamsPartitionTheDataSet(t *testing.T) {
	fullDir, splitDir := t.TempDir(), t.TempDir()
	generate(t, Config{SF: 0.01, Out: fullDir, Seed: 42, Workers: 2})
	st := generate(t, Config{SF: 0.01, Out: splitDir, Seed: 42, Workers: 2, UpdateStreams: true, sortBudget: 1 << 14})
	var ops []op
	for _, p := range ldbcfile.UpdateStreamFiles() {
		o := readStream(t, filepath.Join(splitDir, p))
		if int64(len(o)) != st.Files[p] || len(o) == 0 {
			t.Errorf("%s: %d operations, Stats says %d", p, len(o), st.Files[p])
		}
		ops = append(ops, o...)
	}
	fromOps := rowsOf(t, ops)
	cut := string(ldbcfile.AppendDateTimeMillis(nil, updateCutMs))
	dates := dateColumn()
	for _, f := range append(ldbcfile.Files(), ldbcfile.ActivityFiles()...) {
		if !strings.HasPrefix(f.Path, ldbcfile.DirSocialNetwork+"/") {
			continue // substitution parameters: checked below
		}
		full := dataRows(t, fullDir, f.Path)
		bulk := dataRows(t, splitDir, f.Path)
		if int64(len(bulk)) != st.Files[f.Path] {
			t.Errorf("%s: %d rows, Stats says %d", f.Path, len(bulk), st.Files[f.Path])
		}
		if col, ok := dates[f.Path]; ok {
			for _, r := range bulk {
				if d := strings.Split(r, "|")[col]; d > cut {
					t.Fatalf("%s: bulk row %q is from after the cut-over %s", f.Path, r, cut)
				}
			}
			if len(fromOps[f.Path]) == 0 {
				t.Errorf("%s: nothing after the cut-over", f.Path)
			}
		}
		got := append(slices.Clone(bulk), fromOps[f.Path]...)
		slices.Sort(got)
		slices.Sort(full)
		if !slices.Equal(got, full) {
			t.Errorf("%s: bulk (%d) + streams (%d) rows differ from the data set without streams (%d)",
				f.Path, len(bulk), len(fromOps[f.Path]), len(full))
		}
	}
	for _, o := range ops {
		if o.sched <= updateCutMs {
			t.Fatalf("operation %d at %d, before the cut-over %d", o.typ, o.sched, updateCutMs)
		}
	}

	// Substitution parameters name only what is in the bulk files.
	persons := map[string]bool{}
	for _, r := range dataRows(t, splitDir, ldbcfile.PersonPath) {
		persons[strings.Split(r, "|")[0]] = true
	}
	for _, p := range []string{ldbcfile.KHopPersonPath, ldbcfile.ShortestPathPath, ldbcfile.InteractivePersonPath} {
		rows := dataRows(t, splitDir, p)
		if len(rows) == 0 {
			t.Errorf("%s is empty", p)
		}
		for _, r := range rows {
			f := strings.Split(r, "|")
			if p == ldbcfile.InteractivePersonPath {
				f = f[:1]
			}
			for _, id := range f {
				if !persons[id] {
					t.Errorf("%s names person %s, not in the bulk files", p, id)
				}
			}
		}
	}
	messages := map[string]bool{}
	for _, p := range []string{ldbcfile.PostPath, ldbcfile.CommentPath} {
		for _, r := range dataRows(t, splitDir, p) {
			messages[strings.Split(r, "|")[0]] = true
		}
	}
	for _, r := range dataRows(t, splitDir, ldbcfile.MessagePath) {
		if !messages[r] {
			t.Errorf("interactive_message.csv names message %s, not in the bulk files", r)
		}
	}
}

// Each stream is sorted by scheduled time; an operation is scheduled at
// its entity's creation and depends on the latest creation among what it
// refers to (person, forum, parent message), never later than itself;
// replayed in order (person stream first on ties) after the bulk files,
// every reference exists when it is used.
func TestUpdateStreamsCausality(t *testing.T) {
	dir := t.TempDir()
	generate(t, Config{SF: 0.02, Out: dir, Seed: 7, Workers: 3, UpdateStreams: true})
	created := map[string]int64{} // "p"/"f"/"m" + id -> creation (Unix ms)
	exists := map[string]bool{}
	parse := func(s string) int64 {
		tm, err := ldbcfile.ParseDateTime([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMilli()
	}
	for _, e := range []struct {
		path, kind string
		col        int
	}{{ldbcfile.PersonPath, "p", 5}, {ldbcfile.ForumPath, "f", 2}, {ldbcfile.PostPath, "m", 2}, {ldbcfile.CommentPath, "m", 1}} {
		for _, r := range dataRows(t, dir, e.path) {
			f := strings.Split(r, "|")
			created[e.kind+f[0]] = parse(f[e.col])
			exists[e.kind+f[0]] = true
		}
	}
	streams := [2][]op{}
	for i, p := range ldbcfile.UpdateStreamFiles() {
		streams[i] = readStream(t, filepath.Join(dir, p))
		for j := 1; j < len(streams[i]); j++ {
			if streams[i][j].sched < streams[i][j-1].sched {
				t.Fatalf("%s: line %d scheduled at %d, before line %d (%d)", p, j+1, streams[i][j].sched, j, streams[i][j-1].sched)
			}
		}
	}
	// The creation instants of streamed entities.
	for _, s := range streams {
		for _, o := range s {
			switch o.typ {
			case ldbcfile.UpdateAddPerson:
				created["p"+o.f[0]] = num(t, o.f[5])
			case ldbcfile.UpdateAddForum:
				created["f"+o.f[0]] = num(t, o.f[2])
			case ldbcfile.UpdateAddPost:
				created["m"+o.f[0]] = num(t, o.f[2])
			case ldbcfile.UpdateAddComment:
				created["m"+o.f[0]] = num(t, o.f[1])
			}
		}
	}
	need := func(o op, refs ...string) {
		t.Helper()
		want := int64(0)
		for _, r := range refs {
			c, ok := created[r]
			if !ok {
				t.Fatalf("operation %d %v refers to unknown %s", o.typ, o.f, r)
			}
			if !exists[r] {
				t.Fatalf("operation %d %v at %d refers to %s (created %d) before it exists", o.typ, o.f, o.sched, r, c)
			}
			want = max(want, c)
		}
		if o.dep != want {
			t.Fatalf("operation %d %v: dependency %d, want %d (latest creation of %v)", o.typ, o.f, o.dep, want, refs)
		}
		if o.dep > o.sched {
			t.Fatalf("operation %d %v: dependency %d after its scheduled time %d", o.typ, o.f, o.dep, o.sched)
		}
	}
	counts := map[int]int{}
	i, j := 0, 0
	for i < len(streams[0]) || j < len(streams[1]) {
		var o op
		if j == len(streams[1]) || i < len(streams[0]) && streams[0][i].sched <= streams[1][j].sched {
			o, i = streams[0][i], i+1
		} else {
			o, j = streams[1][j], j+1
		}
		counts[o.typ]++
		f := o.f
		switch o.typ {
		case ldbcfile.UpdateAddPerson:
			if o.dep != 0 || o.sched != num(t, f[5]) {
				t.Fatalf("IU1 %v: scheduled %d, dependency %d", f, o.sched, o.dep)
			}
			exists["p"+f[0]] = true
		case ldbcfile.UpdateAddLikePost, ldbcfile.UpdateAddLikeComment:
			need(o, "p"+f[0], "m"+f[1])
			if o.sched != num(t, f[2]) || o.sched <= created["m"+f[1]] {
				t.Fatalf("like %v at %d", f, o.sched)
			}
		case ldbcfile.UpdateAddForum:
			need(o, "p"+f[3])
			exists["f"+f[0]] = true
		case ldbcfile.UpdateAddForumMembership:
			need(o, "f"+f[0], "p"+f[1])
			if o.sched <= created["f"+f[0]] {
				t.Fatalf("membership %v at %d, forum created %d", f, o.sched, created["f"+f[0]])
			}
		case ldbcfile.UpdateAddPost:
			need(o, "p"+f[8], "f"+f[9])
			if o.sched <= created["f"+f[9]] {
				t.Fatalf("post %v at %d, forum created %d", f, o.sched, created["f"+f[9]])
			}
			exists["m"+f[0]] = true
		case ldbcfile.UpdateAddComment:
			parent := f[8]
			if parent == "-1" {
				parent = f[9]
			}
			need(o, "p"+f[6], "m"+parent)
			if o.sched <= created["m"+parent] {
				t.Fatalf("comment %v at %d, parent created %d", f, o.sched, created["m"+parent])
			}
			exists["m"+f[0]] = true
		case ldbcfile.UpdateAddFriendship:
			need(o, "p"+f[0], "p"+f[1])
			if num(t, f[0]) >= num(t, f[1]) {
				t.Fatalf("friendship %v: want the smaller id first", f)
			}
		}
	}
	for typ := 1; typ <= 8; typ++ {
		if counts[typ] == 0 {
			t.Errorf("no IU%d operation", typ)
		}
	}

	// updateStream.properties describes both streams for the LDBC driver.
	first := min(streams[0][0].sched, streams[1][0].sched)
	last := max(streams[0][len(streams[0])-1].sched, streams[1][len(streams[1])-1].sched)
	n := int64(len(streams[0]) + len(streams[1]))
	want := fmt.Sprintf("ldbc.snb.interactive.gct_delta_duration:10000\n"+
		"ldbc.snb.interactive.min_write_event_start_time:%d\nldbc.snb.interactive.max_write_event_start_time:%d\n"+
		"ldbc.snb.interactive.update_interleave:%d\nldbc.snb.interactive.num_events:%d\n", first, last, (last-first)/n, n)
	if b, err := os.ReadFile(filepath.Join(dir, ldbcfile.UpdateStreamPropertiesPath)); err != nil || string(b) != want {
		t.Errorf("updateStream.properties = %q, %v; want %q", b, err, want)
	}
}

// The streams are the same bytes whatever the workers and wherever the
// sorter cuts its runs.
func TestUpdateStreamsDeterministic(t *testing.T) {
	var ref map[string]string
	for _, c := range []struct{ workers, budget int }{{1, 0}, {3, 1 << 16}, {2, 1 << 20}} {
		dir := t.TempDir()
		generate(t, Config{SF: 0.05, Out: dir, Seed: 42, Workers: c.workers, UpdateStreams: true, sortBudget: c.budget})
		sums := hashTree(t, dir)
		if ref == nil {
			ref = sums
			continue
		}
		if len(sums) != len(ref) {
			t.Fatalf("%+v: %d files, want %d", c, len(sums), len(ref))
		}
		for path, sum := range ref {
			if sums[path] != sum {
				t.Errorf("%+v: %s differs", c, path)
			}
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".stampede-sort-") {
				t.Errorf("%+v: sort directory %s left behind", c, e.Name())
			}
		}
	}
}

// The sorter returns every line once, by (time, insertion order), with
// and without runs on disk.
func TestSorter(t *testing.T) {
	for _, budget := range []int{1 << 30, 100, 1} { // 1: a run per chunk, compactions
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			s := newSorter(t.TempDir(), 0, budget)
			r := rand.New(rand.NewPCG(1, 2))
			type rec struct {
				t   int64
				seq int
			}
			var want []rec
			var e evBuf
			for chunk := range 300 {
				e.reset()
				for range r.IntN(20) {
					tm := r.Int64N(30)
					e.begin(tm, 0, 1)
					e.num(int64(len(want)))
					e.end()
					want = append(want, rec{tm, len(want)})
				}
				if err := s.add(&e); err != nil {
					t.Fatal(chunk, err)
				}
			}
			if len(s.runs) > maxRuns || budget == 1 && s.made <= maxRuns {
				t.Fatalf("%d runs kept, %d made: want at most %d kept, and compactions with budget 1", len(s.runs), s.made, maxRuns)
			}
			slices.SortStableFunc(want, func(a, b rec) int { return int(a.t - b.t) })
			var got []string
			err := s.drain(context.Background(), func(_ int64, line []byte) error {
				got = append(got, string(line))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d lines, want %d", len(got), len(want))
			}
			for i, w := range want {
				if exp := fmt.Sprintf("%d|0|1|%d\n", w.t, w.seq); got[i] != exp {
					t.Fatalf("line %d = %q, want %q", i, got[i], exp)
				}
			}
			if s.dir != "" {
				t.Error("run directory not removed")
			}
		})
	}
}

// An interrupted run with update streams removes its sort runs.
func TestUpdateStreamsCancelRemovesRuns(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls int
	_, err := Generate(ctx, Config{SF: 0.05, Out: dir, Workers: 2, UpdateStreams: true, sortBudget: 1 << 12,
		Progress: func(rows int64) {
			if calls++; rows > 300_000 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".stampede-sort-") {
			t.Errorf("sort directory %s left behind", e.Name())
		}
	}
}

// The streams do not depend on the layout of the bulk files.
func TestUpdateStreamsSameInBothLayouts(t *testing.T) {
	basic, merged := t.TempDir(), t.TempDir()
	generate(t, Config{SF: 0.01, Out: basic, Seed: 42, Workers: 2, UpdateStreams: true})
	st := generate(t, Config{SF: 0.01, Out: merged, Seed: 42, Workers: 2, UpdateStreams: true, Layout: LayoutCsvMergeForeign})
	a, b := hashTree(t, basic), hashTree(t, merged)
	for _, p := range append(ldbcfile.UpdateStreamFiles(), ldbcfile.UpdateStreamPropertiesPath) {
		if a[p] == "" || a[p] != b[p] {
			t.Errorf("%s differs between CsvBasic and CsvMergeForeign", p)
		}
	}
	// The merged entity files hold the bulk rows only.
	for _, p := range []string{ldbcfile.PersonPath, ldbcfile.ForumPath, ldbcfile.PostPath, ldbcfile.CommentPath} {
		if got := int64(len(dataRows(t, merged, p))); got != st.Files[p] || got != int64(len(dataRows(t, basic, p))) {
			t.Errorf("%s: %d rows in CsvMergeForeign, %d in CsvBasic", p, got, len(dataRows(t, basic, p)))
		}
	}
}
