package datagen

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// readRows calls fn with the fields of every data row of file rel.
func readRows(t *testing.T, dir, rel string, fn func(f []string)) {
	t.Helper()
	file, err := os.Open(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	sc.Scan() // header
	for sc.Scan() {
		fn(strings.Split(sc.Text(), "|"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func ms(t *testing.T, s string) int64 {
	t.Helper()
	v, err := ldbcfile.ParseDateTime([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.UnixMilli()
}

// SF0.1 lands within 10% of the LDBC specification's entity table for
// every file, and the activity respects causality.
func TestActivityAtSpec(t *testing.T) {
	dir := t.TempDir()
	st := generate(t, Config{SF: 0.1, Out: dir, Seed: 42, Workers: 2})
	spec := activityFor(1_700)
	want := map[string]float64{
		ldbcfile.ForumPath: spec.forums, ldbcfile.ForumHasModeratorPersonPath: spec.forums,
		ldbcfile.ForumHasMemberPersonPath: spec.members, ldbcfile.ForumHasTagTagPath: spec.forumTags,
		ldbcfile.PostPath: spec.posts, ldbcfile.ForumContainerOfPostPath: spec.posts, ldbcfile.PostHasCreatorPersonPath: spec.posts,
		ldbcfile.PostIsLocatedInPlacePath: spec.posts, ldbcfile.PostHasTagTagPath: spec.postTags,
		ldbcfile.CommentPath: spec.comments, ldbcfile.CommentHasCreatorPersonPath: spec.comments,
		ldbcfile.CommentIsLocatedInPlacePath: spec.comments, ldbcfile.CommentHasTagTagPath: spec.commentTags,
		ldbcfile.CommentReplyOfPostPath: spec.replyPosts, ldbcfile.CommentReplyOfCommentPath: spec.comments - spec.replyPosts,
		ldbcfile.PersonLikesPostPath: spec.likesPost, ldbcfile.PersonLikesCommentPath: spec.likesComment,
		// Person and static files (the spec's SF0.1 column).
		ldbcfile.PersonPath: 1_700, ldbcfile.PersonKnowsPersonPath: 18_074, ldbcfile.PersonEmailEmailaddressPath: 3_690,
		ldbcfile.PersonHasInterestTagPath: 39_170, ldbcfile.PersonSpeaksLanguagePath: 3_771,
		ldbcfile.PersonStudyAtOrganisationPath: 1_337, ldbcfile.PersonWorkAtOrganisationPath: 3_732,
		ldbcfile.PlacePath: 1_460, ldbcfile.PlaceIsPartOfPlacePath: 1_454, ldbcfile.OrganisationPath: 7_955,
		ldbcfile.TagPath: 16_080, ldbcfile.TagClassPath: 71, ldbcfile.TagClassIsSubclassOfTagClassPath: 70,
	}
	for path, w := range want {
		got := float64(st.Files[path])
		if got < 0.9*w || got > 1.1*w {
			t.Errorf("%s: %.0f rows, spec %.0f (outside ±10%%)", path, got, w)
		}
	}

	created := map[int64]int64{}
	readRows(t, dir, ldbcfile.PostPath, func(f []string) { created[atoi(t, f[0])] = ms(t, f[2]) })
	readRows(t, dir, ldbcfile.CommentPath, func(f []string) { created[atoi(t, f[0])] = ms(t, f[1]) })
	bad := 0
	after := func(child, parent int64, what string) {
		if child <= parent && bad < 5 {
			bad++
			t.Errorf("%s: %d is not after %d", what, child, parent)
		}
	}
	for _, rel := range []string{ldbcfile.CommentReplyOfPostPath, ldbcfile.CommentReplyOfCommentPath} {
		readRows(t, dir, rel, func(f []string) { after(created[atoi(t, f[0])], created[atoi(t, f[1])], "reply") })
	}
	for _, rel := range []string{ldbcfile.PersonLikesPostPath, ldbcfile.PersonLikesCommentPath} {
		readRows(t, dir, rel, func(f []string) { after(ms(t, f[2]), created[atoi(t, f[1])], "like") })
	}
	forumAt := map[int64]int64{}
	readRows(t, dir, ldbcfile.ForumPath, func(f []string) { forumAt[atoi(t, f[0])] = ms(t, f[2]) })
	joined := map[int64]int64{}
	readRows(t, dir, ldbcfile.PersonPath, func(f []string) { joined[atoi(t, f[0])] = ms(t, f[5]) })
	readRows(t, dir, ldbcfile.ForumHasMemberPersonPath, func(f []string) {
		after(ms(t, f[2]), forumAt[atoi(t, f[0])], "membership after forum")
		after(ms(t, f[2]), joined[atoi(t, f[1])], "membership after member")
	})
	readRows(t, dir, ldbcfile.PostHasCreatorPersonPath, func(f []string) {
		after(created[atoi(t, f[0])], joined[atoi(t, f[1])], "post after its creator joined")
	})
	readRows(t, dir, ldbcfile.CommentHasCreatorPersonPath, func(f []string) {
		after(created[atoi(t, f[0])], joined[atoi(t, f[1])], "comment after its creator joined")
	})
}
