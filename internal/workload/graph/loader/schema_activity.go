package loader

import (
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// activityTables maps the activity files (forums, posts, comments, likes
// and their relations) to tables. They are optional: a data set of the
// person subgraph only loads without them (the tables stay empty).
//
// Their rows are not checked for duplicate keys on the client (the
// generator writes none, and a per-file key set would not fit in memory at
// SF10): the primary keys built after loading reject duplicates, failing
// the load with the target's message. Person references are checked like
// the person files'.
func activityTables() []*table {
	id := func(n string) column { return column{n, cInt} }
	text := func(n string) column { return column{n, cText} }
	date := func(n string) column { return column{n, cDateTime} }
	f := func(path, header string) ldbcfile.File { return ldbcfile.File{Path: path, Header: header} }
	// The merge-foreign layouts put the one-to-one relations into columns
	// of the forum, post and comment files.
	ref := func(name, table string) extra { return extra{name: name, table: table, kind: cInt} }
	person := func(name, table string) extra { return extra{name: name, table: table, kind: cInt, person: true} }
	reply := func(name, table string) extra { return extra{name: name, table: table, kind: cInt, optional: true} }
	forumMF := variant{ldbcfile.ForumMergeForeignHeader, []extra{person("moderator", "forum_hasmoderator_person")}}
	postMF := variant{ldbcfile.PostMergeForeignHeader, []extra{person("creator", "post_hascreator_person"),
		{name: "Forum.id", table: "forum_containerof_post", kind: cInt, reverse: true}, ref("place", "post_islocatedin_place")}}
	commentMF := variant{ldbcfile.CommentMergeForeignHeader, []extra{person("creator", "comment_hascreator_person"),
		ref("place", "comment_islocatedin_place"), reply("replyOfPost", "comment_replyof_post"), reply("replyOfComment", "comment_replyof_comment")}}
	return []*table{
		{file: f(ldbcfile.ForumPath, ldbcfile.ForumHeader), name: "forum", primary: "id", variants: []variant{forumMF},
			cols: []column{id("id"), text("title"), date("creationdate")}},
		{file: f(ldbcfile.ForumContainerOfPostPath, ldbcfile.ForumContainerOfPostHeader), name: "forum_containerof_post",
			primary: "postid, forumid", cols: []column{id("forumid"), id("postid")}},
		{file: f(ldbcfile.ForumHasMemberPersonPath, ldbcfile.ForumHasMemberPersonHeader), name: "forum_hasmember_person",
			personRefs: []int{1}, primary: "forumid, personid", cols: []column{id("forumid"), id("personid"), date("joindate")}},
		{file: f(ldbcfile.ForumHasModeratorPersonPath, ldbcfile.ForumHasModeratorPersonHeader), name: "forum_hasmoderator_person",
			personRefs: []int{1}, primary: "forumid", cols: []column{id("forumid"), id("personid")}},
		{file: f(ldbcfile.ForumHasTagTagPath, ldbcfile.ForumHasTagTagHeader), name: "forum_hastag_tag",
			primary: "forumid, tagid", cols: []column{id("forumid"), id("tagid")}},
		{file: f(ldbcfile.PostPath, ldbcfile.PostHeader), name: "post", primary: "id", variants: []variant{postMF},
			cols: []column{id("id"), text("imagefile"), date("creationdate"), text("locationip"), text("browserused"), text("language"), text("content"), id("length")}},
		{file: f(ldbcfile.PostHasCreatorPersonPath, ldbcfile.PostHasCreatorPersonHeader), name: "post_hascreator_person",
			personRefs: []int{1}, primary: "postid", indexes: []string{"personid"}, cols: []column{id("postid"), id("personid")}},
		{file: f(ldbcfile.PostHasTagTagPath, ldbcfile.PostHasTagTagHeader), name: "post_hastag_tag",
			primary: "postid, tagid", cols: []column{id("postid"), id("tagid")}},
		{file: f(ldbcfile.PostIsLocatedInPlacePath, ldbcfile.PostIsLocatedInPlaceHeader), name: "post_islocatedin_place",
			primary: "postid", cols: []column{id("postid"), id("placeid")}},
		{file: f(ldbcfile.CommentPath, ldbcfile.CommentHeader), name: "comment", primary: "id", variants: []variant{commentMF},
			cols: []column{id("id"), date("creationdate"), text("locationip"), text("browserused"), text("content"), id("length")}},
		{file: f(ldbcfile.CommentHasCreatorPersonPath, ldbcfile.CommentHasCreatorPersonHeader), name: "comment_hascreator_person",
			personRefs: []int{1}, primary: "commentid", indexes: []string{"personid"}, cols: []column{id("commentid"), id("personid")}},
		{file: f(ldbcfile.CommentHasTagTagPath, ldbcfile.CommentHasTagTagHeader), name: "comment_hastag_tag",
			primary: "commentid, tagid", cols: []column{id("commentid"), id("tagid")}},
		{file: f(ldbcfile.CommentIsLocatedInPlacePath, ldbcfile.CommentIsLocatedInPlaceHeader), name: "comment_islocatedin_place",
			primary: "commentid", cols: []column{id("commentid"), id("placeid")}},
		{file: f(ldbcfile.CommentReplyOfCommentPath, ldbcfile.CommentReplyOfCommentHeader), name: "comment_replyof_comment",
			primary: "commentid", indexes: []string{"parentid"}, cols: []column{id("commentid"), id("parentid")}},
		{file: f(ldbcfile.CommentReplyOfPostPath, ldbcfile.CommentReplyOfPostHeader), name: "comment_replyof_post",
			primary: "commentid", indexes: []string{"postid"}, cols: []column{id("commentid"), id("postid")}},
		{file: f(ldbcfile.PersonLikesCommentPath, ldbcfile.PersonLikesCommentHeader), name: "person_likes_comment",
			personRefs: []int{0}, primary: "personid, commentid", indexes: []string{"commentid"}, cols: []column{id("personid"), id("commentid"), date("creationdate")}},
		{file: f(ldbcfile.PersonLikesPostPath, ldbcfile.PersonLikesPostHeader), name: "person_likes_post",
			personRefs: []int{0}, primary: "personid, postid", indexes: []string{"postid"}, cols: []column{id("personid"), id("postid"), date("creationdate")}},
	}
}

// markOptional flags the activity tables as optional.
func markOptional(ts []*table) []*table {
	for _, t := range ts {
		t.optional = true
	}
	return ts
}

// present drops the optional tables whose file is missing from dir,
// unless a column of another present file may fill them (the
// merge-foreign layouts leave their relation files out; planFiles checks
// that the file present really has that column).
func present(dir string, ts []*table) []*table {
	has := func(t *table) bool {
		_, err := ldbcfile.Parts(dir, t.file.Path)
		return err == nil
	}
	fillable := map[string]bool{}
	for _, t := range ts {
		if !t.optional || !has(t) {
			continue
		}
		for _, v := range t.variants {
			for _, x := range v.extra {
				fillable[x.table] = true
			}
		}
	}
	var out []*table
	for _, t := range ts {
		if t.optional && !fillable[t.name] && !has(t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// analyzeActivitySQL refreshes the planner statistics of the activity
// tables (PostgreSQL), named with schema ("" or "staging.").
func analyzeActivitySQL(schema string) []string {
	var out []string
	for _, t := range activityTables() {
		out = append(out, "ANALYZE "+schema+t.name)
	}
	return out
}
