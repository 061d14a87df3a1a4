package ngqlload

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
	"github.com/stampede-bench/stampede/internal/golden"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// network is a hand-made data set with rows in every file. Forum 1, post
// 3 and comments 4 and 5 share their LDBC ids with persons, places, tags
// and organisations: VID keeps them apart.
var network = ldbctest.With(ldbctest.Tiny, map[string][]string{
	ldbcfile.PlacePath:                        {"0|India|http://dbpedia.org/resource/India|country", "1|Asia|http://dbpedia.org/resource/Asia|continent", "2|Mumbai|http://dbpedia.org/resource/Mumbai|city"},
	ldbcfile.PlaceIsPartOfPlacePath:           {"0|1", "2|0"},
	ldbcfile.OrganisationPath:                 {"0|university|University_of_Mumbai|http://dbpedia.org/resource/University_of_Mumbai", "1|company|Acme|http://dbpedia.org/resource/Acme"},
	ldbcfile.OrganisationIsLocatedInPlacePath: {"0|2", "1|0"},
	ldbcfile.TagClassPath:                     {"0|Thing|http://www.w3.org/2002/07/owl#Thing", "1|Person|http://dbpedia.org/ontology/Person"},
	ldbcfile.TagClassIsSubclassOfTagClassPath: {"1|0"},
	ldbcfile.TagPath:                          {`0|Mahatma_Gandhi|http://dbpedia.org/resource/Mahatma_Gandhi`, `3|Say "hi"\now|http://dbpedia.org/resource/Hi`},
	ldbcfile.TagHasTypeTagClassPath:           {"0|1", "3|1"},
	ldbcfile.PersonIsLocatedInPlacePath:       {"1|2", "2|2"},
	ldbcfile.PersonHasInterestTagPath:         {"1|0", "1|3"},
	ldbcfile.PersonStudyAtOrganisationPath:    {"1|0|2005"},
	ldbcfile.PersonWorkAtOrganisationPath:     {"2|1|2010"},
	ldbcfile.PersonEmailEmailaddressPath:      {"1|First1@gmx.com", "1|First1@yahoo.com", "3|First3@hotmail.com"},
})

// networkActivity are the activity rows of network.
var networkActivity = map[string][]string{
	ldbcfile.ForumPath:                   {"1|Wall of First1 Last|2010-02-01T00:00:00.000+0000"},
	ldbcfile.ForumContainerOfPostPath:    {"1|3"},
	ldbcfile.ForumHasMemberPersonPath:    {"1|2|2010-03-01T00:00:00.000+0000"},
	ldbcfile.ForumHasModeratorPersonPath: {"1|1"},
	ldbcfile.ForumHasTagTagPath:          {"1|0"},
	ldbcfile.PostPath:                    {`3||2010-04-01T10:00:00.000+0000|10.0.0.1|Firefox|en|About "Gandhi"|15`},
	ldbcfile.PostHasCreatorPersonPath:    {"3|1"},
	ldbcfile.PostHasTagTagPath:           {"3|0"},
	ldbcfile.PostIsLocatedInPlacePath:    {"3|0"},
	ldbcfile.CommentPath:                 {"4|2010-04-02T10:00:00.000+0000|10.0.0.2|Chrome|ok|2", "5|2010-04-02T11:00:00.000+0000|10.0.0.1|Firefox|thanks|6"},
	ldbcfile.CommentHasCreatorPersonPath: {"4|2", "5|1"},
	ldbcfile.CommentHasTagTagPath:        {"4|3"},
	ldbcfile.CommentIsLocatedInPlacePath: {"4|0", "5|0"},
	ldbcfile.CommentReplyOfCommentPath:   {"5|4"},
	ldbcfile.CommentReplyOfPostPath:      {"4|3"},
	ldbcfile.PersonLikesCommentPath:      {"1|4|2010-04-03T00:00:00.000+0000"},
	ldbcfile.PersonLikesPostPath:         {"2|3|2010-04-03T00:00:00.000+0000"},
}

// networkCounts are network's rows by type.
var networkCounts = map[string]int64{
	PersonTag: 8, PlaceTag: 3, OrganisationTag: 2, TagClassTag: 2, TagTag: 2, ForumTag: 1, PostTag: 1, CommentTag: 2,
	KnowsEdge: 6, IsLocatedInEdge: 2 + 2 + 1 + 2, HasInterestEdge: 2, StudyAtEdge: 1, WorkAtEdge: 1, IsPartOfEdge: 2,
	HasTypeEdge: 2, IsSubclassOfEdge: 1, HasModeratorEdge: 1, HasMemberEdge: 1, HasTagEdge: 1 + 1 + 1, ContainerOfEdge: 1,
	HasCreatorEdge: 1 + 2, ReplyOfEdge: 2, LikesEdge: 2,
}

// writeNetwork writes network (and extra rows) with its activity files.
func writeNetwork(t *testing.T, extra map[string][]string) string {
	dir := t.TempDir()
	rows := ldbctest.With(network, extra)
	ldbctest.Write(t, dir, rows)
	for _, f := range ldbcfile.ActivityFiles() {
		body := f.Header + "\n"
		for _, r := range append(append([]string{}, networkActivity[f.Path]...), extra[f.Path]...) {
			body += r + "\n"
		}
		if err := os.WriteFile(filepath.Join(dir, f.Path), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// session opens a session on space of target.
func session(t *testing.T, target string) *nebula.Session {
	t.Helper()
	u, _ := url.Parse(target)
	cfg, err := nebula.ParseConfig(u, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := nebula.Dial(t.Context(), cfg.Addrs[0], cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// rows runs stmt and returns its rows as text (strings unquoted,
// integers in decimal, other values as %v).
func rows(t *testing.T, s *nebula.Session, stmt string) [][]string {
	t.Helper()
	r, err := s.Execute(t.Context(), stmt)
	if err != nil {
		t.Fatal(err)
	}
	if r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
		t.Fatalf("%s: %v %s", stmt, r.ErrorCode, r.ErrorMsg)
	}
	var out [][]string
	if r.Data == nil {
		return nil
	}
	for _, row := range r.Data.Rows {
		var rs []string
		for _, v := range row.Values {
			switch {
			case v.SVal != nil:
				rs = append(rs, string(v.SVal))
			case v.IVal != nil:
				rs = append(rs, itoa(*v.IVal))
			case v.NVal != nil:
				rs = append(rs, "NULL")
			default:
				rs = append(rs, v.String())
			}
		}
		out = append(out, rs)
	}
	return out
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func TestNetworkIntoStandIn(t *testing.T) {
	c, err := nebulatest.StartCluster(2, nebulatest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := writeNetwork(t, nil)
	target := "nebula://root:nebula@" + strings.Join(c.Addrs(), ",") + "/net"
	st, err := Load(t.Context(), Config{Target: target, Data: data, Batch: 2, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 0 || st.Layout != "CsvBasic" || !st.Activity {
		t.Fatalf("stats %+v", st)
	}
	for _, ty := range Types() {
		if st.Counts[ty.Name] != networkCounts[ty.Name] {
			t.Errorf("%s: %d rows written, the files have %d", ty.Name, st.Counts[ty.Name], networkCounts[ty.Name])
		}
	}
	rec, err := InspectRecord(t.Context(), target, nil)
	if err != nil || rec.Meta.Persons != 8 || !rec.Meta.Activity || rec.Meta.MaxPersonID != 8 || rec.Meta.Layout != "CsvBasic" {
		t.Fatalf("record %+v, %v", rec, err)
	}
	for n, want := range networkCounts {
		if rec.Counts[n] != want {
			t.Errorf("record: %s %d, want %d", n, rec.Counts[n], want)
		}
	}
	s := session(t, target)
	p := VID(KindPost, 3)
	c4, c5 := VID(KindComment, 4), VID(KindComment, 5)
	for _, q := range []struct{ stmt, want string }{
		// Properties, escaping, ints, the person lists.
		{"FETCH PROP ON Person 1 YIELD Person.firstName, Person.email, Person.speaks, Person.birthday", "First1|First1@gmx.com;First1@yahoo.com|en;fr|1985-01-02"},
		{"FETCH PROP ON Person 4 YIELD Person.email, Person.speaks", "|"},
		{"FETCH PROP ON `Tag` " + itoa(VID(KindTag, 3)) + " YIELD `Tag`.name, `Tag`.url", `Say "hi"\now|http://dbpedia.org/resource/Hi`},
		{"FETCH PROP ON Place " + itoa(VID(KindPlace, 2)) + " YIELD Place.name, Place.type", "Mumbai|city"},
		{"FETCH PROP ON Organisation " + itoa(VID(KindOrganisation, 0)) + " YIELD Organisation.type, Organisation.name", "university|University_of_Mumbai"},
		{"FETCH PROP ON TagClass " + itoa(VID(KindTagClass, 1)) + " YIELD TagClass.name", "Person"},
		{"FETCH PROP ON Forum " + itoa(VID(KindForum, 1)) + " YIELD Forum.title", "Wall of First1 Last"},
		{"FETCH PROP ON Post " + itoa(p) + " YIELD Post.imageFile, Post.language, Post.content, Post.length", `|en|About "Gandhi"|15`},
		{"FETCH PROP ON Comment " + itoa(c5) + " YIELD Comment.browserUsed, Comment.content, Comment.length", "Firefox|thanks|6"},
		{"FETCH PROP ON STUDY_AT 1 -> " + itoa(VID(KindOrganisation, 0)) + " YIELD STUDY_AT.classYear", "2005"},
		{"FETCH PROP ON WORK_AT 2 -> " + itoa(VID(KindOrganisation, 1)) + " YIELD WORK_AT.workFrom", "2010"},
		// Directions, in LDBC's sense.
		{"GO FROM " + itoa(c5) + " OVER REPLY_OF YIELD dst(edge)", itoa(c4)},
		{"GO FROM " + itoa(c4) + " OVER REPLY_OF YIELD dst(edge)", itoa(p)},
		{"GO FROM " + itoa(c4) + " OVER HAS_CREATOR YIELD dst(edge)", "2"},
		{"GO FROM " + itoa(p) + " OVER HAS_CREATOR YIELD dst(edge)", "1"},
		{"GO FROM 1 OVER LIKES YIELD dst(edge)", itoa(c4)},
		{"GO FROM 2 OVER LIKES YIELD dst(edge)", itoa(p)},
		{"GO FROM " + itoa(VID(KindForum, 1)) + " OVER CONTAINER_OF YIELD dst(edge)", itoa(p)},
		{"GO FROM " + itoa(VID(KindForum, 1)) + " OVER HAS_MODERATOR YIELD dst(edge)", "1"},
		{"GO FROM " + itoa(VID(KindForum, 1)) + " OVER HAS_MEMBER YIELD dst(edge)", "2"},
		{"GO FROM " + itoa(VID(KindForum, 1)) + " OVER HAS_TAG YIELD dst(edge)", itoa(VID(KindTag, 0))},
		{"GO FROM " + itoa(c4) + " OVER HAS_TAG YIELD dst(edge)", itoa(VID(KindTag, 3))},
		{"GO FROM " + itoa(VID(KindPlace, 2)) + " OVER IS_PART_OF YIELD dst(edge)", itoa(VID(KindPlace, 0))},
		{"GO FROM " + itoa(VID(KindOrganisation, 1)) + " OVER IS_LOCATED_IN YIELD dst(edge)", itoa(VID(KindPlace, 0))},
		{"GO FROM 1 OVER IS_LOCATED_IN YIELD dst(edge)", itoa(VID(KindPlace, 2))},
		{"GO FROM " + itoa(VID(KindTag, 0)) + " OVER HAS_TYPE YIELD dst(edge)", itoa(VID(KindTagClass, 1))},
		{"GO FROM " + itoa(VID(KindTagClass, 1)) + " OVER IS_SUBCLASS_OF YIELD dst(edge)", itoa(VID(KindTagClass, 0))},
		{"GO FROM " + itoa(p) + " OVER CONTAINER_OF YIELD dst(edge)", ""},
		{"GO FROM 1 OVER HAS_INTEREST YIELD dst(edge)", itoa(VID(KindTag, 0)) + "," + itoa(VID(KindTag, 3))},
	} {
		var got []string
		for _, r := range rows(t, s, q.stmt) {
			got = append(got, strings.Join(r, "|"))
		}
		if strings.Join(got, ",") != q.want {
			t.Errorf("%s:\n got %q\nwant %q", q.stmt, strings.Join(got, ","), q.want)
		}
	}
	// Datetimes arrive as datetimes (however the stand-in renders them).
	for _, q := range []string{
		"FETCH PROP ON Post " + itoa(p) + " YIELD Post.creationDate",
		"FETCH PROP ON HAS_MEMBER " + itoa(VID(KindForum, 1)) + " -> 2 YIELD HAS_MEMBER.joinDate",
		"FETCH PROP ON LIKES 2 -> " + itoa(p) + " YIELD LIKES.creationDate",
	} {
		r := rows(t, s, q)
		if len(r) != 1 || !strings.Contains(r[0][0], "2010") {
			t.Errorf("%s: %q", q, r)
		}
	}
}

// The statements, one batch of each type: the golden file shows every
// INSERT the load sends.
func TestNetworkDryRun(t *testing.T) {
	data := writeNetwork(t, nil)
	var out bytes.Buffer
	st, err := Load(t.Context(), Config{Target: "nebula://root:nebula@127.0.0.1:1/net", Data: data, DryRun: &out})
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range networkCounts {
		if st.Counts[n] != want {
			t.Errorf("dry run: %s %d, want %d", n, st.Counts[n], want)
		}
	}
	got := out.String()
	got = got[strings.Index(got, "CREATE TAG INDEX"):strings.Index(got, "INSERT VERTEX stampede_meta")]
	golden.Check(t, "network.ngql", []byte(got))
}

// Rows naming unknown persons, repeated persons, and ids no vid encodes go
// to the failed file; the rest loads and verifies.
func TestNetworkRejectsRows(t *testing.T) {
	c, err := nebulatest.StartCluster(1, nebulatest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := writeNetwork(t, map[string][]string{
		ldbcfile.PersonLikesPostPath:           {"99|3|2010-04-03T00:00:00.000+0000"},
		ldbcfile.PostPath:                      {"72057594037927936||2010-04-01T10:00:00.000+0000|10.0.0.1|Firefox|en|big|3"},
		ldbcfile.PersonPath:                    {"1|Again|Last|male|1985-01-02|2011-02-03T04:05:06.789+0000|10.0.0.9|Firefox"},
		ldbcfile.PersonSpeaksLanguagePath:      {"77|en"},
		ldbcfile.CommentPath:                   {"6|not a date|10.0.0.1|Firefox|x|1"},
		ldbcfile.PersonStudyAtOrganisationPath: {"2|0|soon"},
	})
	target := "nebula://root:nebula@" + c.Addrs()[0] + "/net"
	st, err := Load(t.Context(), Config{Target: target, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 6 {
		t.Errorf("failed %d, want 6", st.Failed)
	}
	for n, want := range networkCounts {
		if st.Counts[n] != want {
			t.Errorf("%s %d, want %d", n, st.Counts[n], want)
		}
	}
	failed, _ := os.ReadFile(st.FailedFile)
	for _, want := range []string{
		ldbcfile.PersonLikesPostPath + "|3|1|unknown person|99|3|",
		ldbcfile.PostPath + "|3|1|id 72057594037927936 is above 72057594037927935",
		ldbcfile.PersonPath + "|10|1|duplicate person id|1|Again|",
		ldbcfile.PersonSpeaksLanguagePath + "|5|1|unknown person|77",
		ldbcfile.CommentPath + "|4|1|",
		ldbcfile.PersonStudyAtOrganisationPath + "|3|1|",
	} {
		if !strings.Contains(string(failed), want) {
			t.Errorf("failed file lacks %q:\n%s", want, failed)
		}
	}
}

// Bad data sets are refused before anything is sent, with one usage line.
func TestNetworkRefusesIncompleteData(t *testing.T) {
	for _, c := range []struct {
		name, remove, want string
	}{
		{"half the activity files", ldbcfile.PostPath, "has " + ldbcfile.ForumPath + " but lacks " + ldbcfile.PostPath},
		{"a static file", ldbcfile.TagPath, "lacks " + ldbcfile.TagPath},
		{"a person relation", ldbcfile.PersonEmailEmailaddressPath, "lacks " + ldbcfile.PersonEmailEmailaddressPath},
		{"persons", ldbcfile.PersonPath, "no LDBC data in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := writeNetwork(t, nil)
			os.Remove(filepath.Join(data, c.remove))
			// The target does not exist: the refusal comes first.
			_, err := Load(t.Context(), Config{Target: "nebula://root:nebula@127.0.0.1:1/net", Data: data})
			if !usage.Is(err) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%v", err)
			}
		})
	}
}

// A load that stopped before its record leaves a space Inspect calls
// incomplete, and that Load refuses without --drop.
func TestNetworkRefusesAPartialLoad(t *testing.T) {
	c, err := nebulatest.StartCluster(1, nebulatest.Options{Fail: func(q string) (graphsvc.ErrorCode, string, bool) {
		if strings.HasPrefix(q, "INSERT VERTEX "+MetaTag) {
			return graphsvc.ErrorCode_E_RPC_FAILURE, "Storage Error: RPC failure", true
		}
		return 0, "", false
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := writeNetwork(t, nil)
	target := "nebula://root:nebula@" + c.Addrs()[0] + "/net"
	if _, err := Load(t.Context(), Config{Target: target, Data: data}); err == nil || usage.Is(err) {
		t.Fatalf("a load whose record fails: %v", err)
	}
	if m, err := Inspect(t.Context(), target, nil); m != nil || !errors.Is(err, loader.ErrIncomplete) {
		t.Fatalf("inspect: %+v %v", m, err)
	}
	_, err = Load(t.Context(), Config{Target: target, Data: data})
	if !usage.Is(err) || !strings.Contains(err.Error(), "--drop") {
		t.Fatalf("reload of a partial load: %v", err)
	}
}

// A generated data set (CsvBasic and CsvMergeForeign) loads with every
// type's count equal to its files' rows.
func TestGeneratedNetworkIntoStandIn(t *testing.T) {
	basic := map[string]map[string]int64{}
	for _, layout := range []string{datagen.LayoutCsvBasic, datagen.LayoutCsvMergeForeign} {
		t.Run(layout, func(t *testing.T) {
			dir := t.TempDir()
			gst, err := datagen.Generate(t.Context(), datagen.Config{SF: 0.002, Out: dir, Seed: 7, Workers: 2, Layout: layout})
			if err != nil {
				t.Fatal(err)
			}
			c, err := nebulatest.StartCluster(2, nebulatest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			target := "nebula://root:nebula@" + strings.Join(c.Addrs(), ",") + "/gen"
			st, err := Load(t.Context(), Config{Target: target, Data: dir})
			if err != nil {
				t.Fatal(err)
			}
			if st.Failed != 0 || st.Layout != layout || !st.Activity {
				t.Fatalf("stats %+v", st)
			}
			if layout == datagen.LayoutCsvBasic {
				want := countsOfFiles(gst.Files)
				for _, ty := range Types() {
					if want[ty.Name] == 0 || st.Counts[ty.Name] != want[ty.Name] {
						t.Errorf("%s: %d rows loaded, the files have %d", ty.Name, st.Counts[ty.Name], want[ty.Name])
					}
				}
				basic["counts"] = st.Counts
				// Spot checks: the first post's properties, the first
				// reply's and like's direction.
				s := session(t, target)
				post := firstRow(t, dir, ldbcfile.PostPath)
				id, _ := strconv.ParseInt(post[0], 10, 64)
				got := rows(t, s, "FETCH PROP ON Post "+itoa(VID(KindPost, id))+" YIELD Post.imageFile, Post.locationIP, Post.browserUsed, Post.language, Post.content, Post.length")
				if len(got) != 1 || strings.Join(got[0], "|") != strings.Join(append(append([]string{post[1]}, post[3:6]...), post[6], post[7]), "|") {
					t.Errorf("post %v: %q", post, got)
				}
				for _, e := range []struct {
					path, edge string
					src, dst   Kind
				}{
					{ldbcfile.CommentReplyOfPostPath, ReplyOfEdge, KindComment, KindPost},
					{ldbcfile.CommentReplyOfCommentPath, ReplyOfEdge, KindComment, KindComment},
					{ldbcfile.PersonLikesPostPath, LikesEdge, KindPerson, KindPost},
					{ldbcfile.ForumContainerOfPostPath, ContainerOfEdge, KindForum, KindPost},
					{ldbcfile.ForumHasMemberPersonPath, HasMemberEdge, KindForum, KindPerson},
				} {
					r := firstRow(t, dir, e.path)
					a, _ := strconv.ParseInt(r[0], 10, 64)
					b, _ := strconv.ParseInt(r[1], 10, 64)
					got := rows(t, s, "GO FROM "+itoa(VID(e.src, a))+" OVER "+e.edge+" YIELD dst(edge)")
					found := false
					for _, g := range got {
						found = found || g[0] == itoa(VID(e.dst, b))
					}
					if !found {
						t.Errorf("%s %v: GO FROM %d OVER %s gives %q", e.path, r, VID(e.src, a), e.edge, got)
					}
				}
				return
			}
			// The same network in the merge-foreign layout.
			for _, ty := range Types() {
				if st.Counts[ty.Name] != basic["counts"][ty.Name] {
					t.Errorf("%s: %d rows, %d from CsvBasic", ty.Name, st.Counts[ty.Name], basic["counts"][ty.Name])
				}
			}
		})
	}
}

// countsOfFiles maps the CsvBasic files' row counts to the types they
// fill.
func countsOfFiles(files map[string]int64) map[string]int64 {
	by := map[string][]string{
		PersonTag: {ldbcfile.PersonPath}, PlaceTag: {ldbcfile.PlacePath}, OrganisationTag: {ldbcfile.OrganisationPath},
		TagClassTag: {ldbcfile.TagClassPath}, TagTag: {ldbcfile.TagPath}, ForumTag: {ldbcfile.ForumPath},
		PostTag: {ldbcfile.PostPath}, CommentTag: {ldbcfile.CommentPath},
		KnowsEdge: {ldbcfile.PersonKnowsPersonPath},
		IsLocatedInEdge: {ldbcfile.PersonIsLocatedInPlacePath, ldbcfile.OrganisationIsLocatedInPlacePath,
			ldbcfile.PostIsLocatedInPlacePath, ldbcfile.CommentIsLocatedInPlacePath},
		HasInterestEdge: {ldbcfile.PersonHasInterestTagPath}, StudyAtEdge: {ldbcfile.PersonStudyAtOrganisationPath},
		WorkAtEdge: {ldbcfile.PersonWorkAtOrganisationPath}, IsPartOfEdge: {ldbcfile.PlaceIsPartOfPlacePath},
		HasTypeEdge: {ldbcfile.TagHasTypeTagClassPath}, IsSubclassOfEdge: {ldbcfile.TagClassIsSubclassOfTagClassPath},
		HasModeratorEdge: {ldbcfile.ForumHasModeratorPersonPath}, HasMemberEdge: {ldbcfile.ForumHasMemberPersonPath},
		HasTagEdge:      {ldbcfile.ForumHasTagTagPath, ldbcfile.PostHasTagTagPath, ldbcfile.CommentHasTagTagPath},
		ContainerOfEdge: {ldbcfile.ForumContainerOfPostPath},
		HasCreatorEdge:  {ldbcfile.PostHasCreatorPersonPath, ldbcfile.CommentHasCreatorPersonPath},
		ReplyOfEdge:     {ldbcfile.CommentReplyOfPostPath, ldbcfile.CommentReplyOfCommentPath},
		LikesEdge:       {ldbcfile.PersonLikesPostPath, ldbcfile.PersonLikesCommentPath},
	}
	out := map[string]int64{}
	for ty, paths := range by {
		for _, p := range paths {
			out[ty] += files[p]
		}
	}
	return out
}

// In the composite layout the person file's language and email columns
// fill speaks and email; the side files do not exist.
func TestNetworkCompositePersons(t *testing.T) {
	data := writeNetwork(t, nil)
	for _, p := range []string{ldbcfile.PersonEmailEmailaddressPath, ldbcfile.PersonSpeaksLanguagePath} {
		os.Remove(filepath.Join(data, p))
	}
	body := ldbcfile.PersonCompositeHeader + "\n"
	for i, r := range ldbctest.Tiny[ldbcfile.PersonPath] {
		body += r + map[int]string{0: "|en;fr|First1@gmx.com;First1@yahoo.com", 2: "||First3@hotmail.com"}[i]
		if i != 0 && i != 2 {
			body += "||"
		}
		body += "\n"
	}
	if err := os.WriteFile(filepath.Join(data, ldbcfile.PersonPath), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := nebulatest.StartCluster(1, nebulatest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	target := "nebula://root:nebula@" + c.Addrs()[0] + "/net"
	st, err := Load(t.Context(), Config{Target: target, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if st.Layout != "CsvComposite" || st.Failed != 0 || st.Counts[PersonTag] != 8 {
		t.Fatalf("%+v", st)
	}
	s := session(t, target)
	got := rows(t, s, "FETCH PROP ON Person 1, 3 YIELD Person.email, Person.speaks")
	if len(got) != 2 || strings.Join(got[0], "|") != "First1@gmx.com;First1@yahoo.com|en;fr" || strings.Join(got[1], "|") != "First3@hotmail.com|" {
		t.Fatalf("%q", got)
	}
}

// firstRow is the first data row of a data set's file.
func firstRow(t *testing.T, dir, rel string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(b), "\n", 3)
	if len(lines) < 3 {
		t.Fatalf("%s has no rows", rel)
	}
	return strings.Split(lines[1], "|")
}

// Cancelling a load (Ctrl+C) stops it within about two seconds, with no
// load record.
func TestNetworkCancel(t *testing.T) {
	c, err := nebulatest.StartCluster(1, nebulatest.Options{Delay: func(q string) time.Duration {
		if strings.HasPrefix(q, "INSERT") {
			return 100 * time.Millisecond
		}
		return 0
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := writeNetwork(t, nil)
	target := "nebula://root:nebula@" + c.Addrs()[0] + "/net"
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(300*time.Millisecond, cancel)
	t0 := time.Now()
	_, err = Load(ctx, Config{Target: target, Data: data, Batch: 1, Workers: 2})
	if !errors.Is(err, context.Canceled) || time.Since(t0) > 2500*time.Millisecond {
		t.Fatalf("after %v: %v", time.Since(t0), err)
	}
	if m, err := Inspect(t.Context(), target, nil); m != nil || !errors.Is(err, loader.ErrIncomplete) {
		t.Fatalf("inspect: %+v %v", m, err)
	}
}

// Part files (NAME_<thread>_<part>.csv, as the Hadoop datagen writes with
// several threads) are all read.
func TestNetworkPartFiles(t *testing.T) {
	data := writeNetwork(t, nil)
	for _, rel := range []string{ldbcfile.CommentPath, ldbcfile.PersonEmailEmailaddressPath} {
		path := filepath.Join(data, rel)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		// Header and first row stay; the rest goes to part _1_0.
		second := strings.Replace(path, "_0_0.csv", "_1_0.csv", 1)
		if err := os.WriteFile(path, []byte(strings.Join(lines[:2], "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(second, []byte(lines[0]+"\n"+strings.Join(lines[2:], "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	st, err := Load(t.Context(), Config{Target: "nebula://root:nebula@127.0.0.1:1/net", Data: data, DryRun: &out})
	if err != nil {
		t.Fatal(err)
	}
	if st.Counts[CommentTag] != 2 || st.Failed != 0 {
		t.Fatalf("%+v", st)
	}
	if !strings.Contains(out.String(), `"First1@gmx.com;First1@yahoo.com"`) {
		t.Fatal("the e-mail parts were not joined")
	}
}

// A string value comes back from its nGQL literal unchanged.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", `Say "hi"\now`, "tab\there\r\n", "ünïcödé", `\\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lit := nebula.AppendString(nil, []byte(s))
		if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
			t.Fatalf("%q", lit)
		}
		var back []byte
		body := lit[1 : len(lit)-1]
		for i := 0; i < len(body); i++ {
			c := body[i]
			switch {
			case c == '"' || c == '\n' || c == '\r' || c == '\t':
				t.Fatalf("%q holds a raw %q", lit, c)
			case c == '\\':
				i++
				if i == len(body) {
					t.Fatalf("%q ends in a lone backslash", lit)
				}
				switch e := body[i]; e {
				case 'n':
					back = append(back, '\n')
				case 'r':
					back = append(back, '\r')
				case 't':
					back = append(back, '\t')
				case '"', '\\':
					back = append(back, e)
				default:
					t.Fatalf("%q: unknown escape \\%c", lit, e)
				}
			default:
				back = append(back, c)
			}
		}
		if string(back) != s {
			t.Fatalf("%q -> %q -> %q", s, lit, back)
		}
	})
}
