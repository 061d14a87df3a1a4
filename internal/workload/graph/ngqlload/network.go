package ngqlload

import (
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// conv says how a CSV field becomes an nGQL value.
type conv uint8

const (
	cString   conv = iota // the text as a string literal
	cInt                  // a decimal integer
	cDateTime             // datetime("...") from a datetime column
	cDate                 // a date column as a "yyyy-MM-dd" string (Person.birthday)
	cEmail                // Person.email: the person's addresses joined with ";"
	cSpeaks               // Person.speaks: the person's languages joined with ";"
)

// col is where one property's value comes from.
type col struct {
	field int // index of the CSV field (unused for cEmail, cSpeaks)
	conv  conv
}

// out is one vertex or edge a CSV row gives: a file of the CsvBasic layout
// gives one per row; a merge-foreign file's row also gives the edges of
// its merged columns.
type out struct {
	typ string // tag or edge type, a name of Types
	// src is the field of the vertex id (vertices) or of the edge's
	// source; kinds map the LDBC ids to vids (VID).
	src  int
	srcK Kind
	// dst is the field of the edge's destination; -1 for vertices.
	dst  int
	dstK Kind
	// props fill the type's properties in Types order.
	props []col
	// optional: an empty src or dst field gives no edge (the merge-foreign
	// columns place.isPartOf, tagclass.isSubclassOf, comment.replyOf*).
	optional bool
}

// variant is one header of a file (a layout) and what its rows give.
type variant struct {
	header string
	outs   []out
}

// fileSpec is one LDBC file (every part of it) and its variants.
type fileSpec struct {
	path     string
	variants []variant
	// merged names the layouts in which the file does not exist: its rows
	// are columns of another file, or email/speaks columns of the person
	// file.
	merged []string
	// activity files are missing from data sets of the person subgraph
	// only; the others must be there.
	activity bool
}

const (
	layoutComposite      = "CsvComposite"
	layoutMergeForeign   = "CsvMergeForeign"
	layoutCompositeMerge = "CsvCompositeMergeForeign"
)

var (
	mergeForeign = []string{layoutMergeForeign, layoutCompositeMerge}
	composite    = []string{layoutComposite, layoutCompositeMerge}
)

// vertex and edge build outs of the CsvBasic shapes.
func vertex(typ string, k Kind, props ...col) out {
	return out{typ: typ, src: 0, srcK: k, dst: -1, props: props}
}

func edge(typ string, src Kind, dst Kind, props ...col) out {
	return out{typ: typ, src: 0, srcK: src, dst: 1, dstK: dst, props: props}
}

// ref is an edge from the row's entity (field 0) to the id in field f; a
// merge-foreign column.
func ref(typ string, src Kind, f int, dst Kind, optional bool) out {
	return out{typ: typ, src: 0, srcK: src, dst: f, dstK: dst, optional: optional}
}

func s(f int) col  { return col{f, cString} }
func n(f int) col  { return col{f, cInt} }
func dt(f int) col { return col{f, cDateTime} }

// personProps are Person's properties in a file of nine or more columns:
// lang and mail are the composite layout's fields, -1 for the CsvBasic
// side files.
func personProps(lang, mail int) []col {
	p := []col{s(1), s(2), s(3), {4, cDate}, dt(5), s(6), s(7), {0, cEmail}, {0, cSpeaks}}
	if mail >= 0 {
		p[7], p[8] = s(mail), s(lang)
	}
	return p
}

// fileSpecs lists every file Load reads, in reading order: the static
// files, the person file, its relations, then the activity files. The
// person file comes before every file whose rows name persons: those are
// checked against its ids. The email and speaks files are read before it
// (see personLists).
func fileSpecs() []fileSpec {
	one := func(path, header string, o ...out) fileSpec {
		return fileSpec{path: path, variants: []variant{{header, o}}}
	}
	mf := func(f fileSpec) fileSpec { f.merged = mergeForeign; return f }
	act := func(f fileSpec) fileSpec { f.activity = true; return f }
	withMF := func(f fileSpec, header string, o ...out) fileSpec {
		f.variants = append(f.variants, variant{header, append(append([]out{}, f.variants[0].outs...), o...)})
		return f
	}
	personV := vertex(PersonTag, KindPerson)
	personPlace := ref(IsLocatedInEdge, KindPerson, 8, KindPlace, false)
	person := fileSpec{path: ldbcfile.PersonPath, variants: []variant{
		{ldbcfile.PersonHeader, []out{withProps(personV, personProps(-1, -1))}},
		{ldbcfile.PersonCompositeHeader, []out{withProps(personV, personProps(8, 9))}},
		{ldbcfile.PersonMergeForeignHeader, []out{withProps(personV, personProps(-1, -1)), personPlace}},
		{ldbcfile.PersonCompositeMergeForeignHeader, []out{withProps(personV, personProps(9, 10)), personPlace}},
	}}
	return []fileSpec{
		withMF(one(ldbcfile.PlacePath, ldbcfile.PlaceHeader, vertex(PlaceTag, KindPlace, s(1), s(2), s(3))),
			ldbcfile.PlaceMergeForeignHeader, ref(IsPartOfEdge, KindPlace, 4, KindPlace, true)),
		mf(one(ldbcfile.PlaceIsPartOfPlacePath, ldbcfile.PlaceIsPartOfPlaceHeader, edge(IsPartOfEdge, KindPlace, KindPlace))),
		withMF(one(ldbcfile.OrganisationPath, ldbcfile.OrganisationHeader, vertex(OrganisationTag, KindOrganisation, s(1), s(2), s(3))),
			ldbcfile.OrganisationMergeForeignHeader, ref(IsLocatedInEdge, KindOrganisation, 4, KindPlace, false)),
		mf(one(ldbcfile.OrganisationIsLocatedInPlacePath, ldbcfile.OrganisationIsLocatedInPlaceHeader, edge(IsLocatedInEdge, KindOrganisation, KindPlace))),
		withMF(one(ldbcfile.TagClassPath, ldbcfile.TagClassHeader, vertex(TagClassTag, KindTagClass, s(1), s(2))),
			ldbcfile.TagClassMergeForeignHeader, ref(IsSubclassOfEdge, KindTagClass, 3, KindTagClass, true)),
		mf(one(ldbcfile.TagClassIsSubclassOfTagClassPath, ldbcfile.TagClassIsSubclassOfTagClassHeader, edge(IsSubclassOfEdge, KindTagClass, KindTagClass))),
		withMF(one(ldbcfile.TagPath, ldbcfile.TagHeader, vertex(TagTag, KindTag, s(1), s(2))),
			ldbcfile.TagMergeForeignHeader, ref(HasTypeEdge, KindTag, 3, KindTagClass, false)),
		mf(one(ldbcfile.TagHasTypeTagClassPath, ldbcfile.TagHasTypeTagClassHeader, edge(HasTypeEdge, KindTag, KindTagClass))),

		person,
		one(ldbcfile.PersonKnowsPersonPath, ldbcfile.PersonKnowsPersonHeader, edge(KnowsEdge, KindPerson, KindPerson, dt(2))),
		mf(one(ldbcfile.PersonIsLocatedInPlacePath, ldbcfile.PersonIsLocatedInPlaceHeader, edge(IsLocatedInEdge, KindPerson, KindPlace))),
		one(ldbcfile.PersonHasInterestTagPath, ldbcfile.PersonHasInterestTagHeader, edge(HasInterestEdge, KindPerson, KindTag)),
		one(ldbcfile.PersonStudyAtOrganisationPath, ldbcfile.PersonStudyAtOrganisationHeader, edge(StudyAtEdge, KindPerson, KindOrganisation, n(2))),
		one(ldbcfile.PersonWorkAtOrganisationPath, ldbcfile.PersonWorkAtOrganisationHeader, edge(WorkAtEdge, KindPerson, KindOrganisation, n(2))),

		act(withMF(one(ldbcfile.ForumPath, ldbcfile.ForumHeader, vertex(ForumTag, KindForum, s(1), dt(2))),
			ldbcfile.ForumMergeForeignHeader, ref(HasModeratorEdge, KindForum, 3, KindPerson, false))),
		act(mf(one(ldbcfile.ForumContainerOfPostPath, ldbcfile.ForumContainerOfPostHeader, edge(ContainerOfEdge, KindForum, KindPost)))),
		act(one(ldbcfile.ForumHasMemberPersonPath, ldbcfile.ForumHasMemberPersonHeader, edge(HasMemberEdge, KindForum, KindPerson, dt(2)))),
		act(mf(one(ldbcfile.ForumHasModeratorPersonPath, ldbcfile.ForumHasModeratorPersonHeader, edge(HasModeratorEdge, KindForum, KindPerson)))),
		act(one(ldbcfile.ForumHasTagTagPath, ldbcfile.ForumHasTagTagHeader, edge(HasTagEdge, KindForum, KindTag))),
		act(withMF(one(ldbcfile.PostPath, ldbcfile.PostHeader, vertex(PostTag, KindPost, s(1), dt(2), s(3), s(4), s(5), s(6), n(7))),
			ldbcfile.PostMergeForeignHeader, ref(HasCreatorEdge, KindPost, 8, KindPerson, false),
			out{typ: ContainerOfEdge, src: 9, srcK: KindForum, dst: 0, dstK: KindPost},
			ref(IsLocatedInEdge, KindPost, 10, KindPlace, false))),
		act(mf(one(ldbcfile.PostHasCreatorPersonPath, ldbcfile.PostHasCreatorPersonHeader, edge(HasCreatorEdge, KindPost, KindPerson)))),
		act(one(ldbcfile.PostHasTagTagPath, ldbcfile.PostHasTagTagHeader, edge(HasTagEdge, KindPost, KindTag))),
		act(mf(one(ldbcfile.PostIsLocatedInPlacePath, ldbcfile.PostIsLocatedInPlaceHeader, edge(IsLocatedInEdge, KindPost, KindPlace)))),
		act(withMF(one(ldbcfile.CommentPath, ldbcfile.CommentHeader, vertex(CommentTag, KindComment, dt(1), s(2), s(3), s(4), n(5))),
			ldbcfile.CommentMergeForeignHeader, ref(HasCreatorEdge, KindComment, 6, KindPerson, false),
			ref(IsLocatedInEdge, KindComment, 7, KindPlace, false),
			ref(ReplyOfEdge, KindComment, 8, KindPost, true), ref(ReplyOfEdge, KindComment, 9, KindComment, true))),
		act(mf(one(ldbcfile.CommentHasCreatorPersonPath, ldbcfile.CommentHasCreatorPersonHeader, edge(HasCreatorEdge, KindComment, KindPerson)))),
		act(one(ldbcfile.CommentHasTagTagPath, ldbcfile.CommentHasTagTagHeader, edge(HasTagEdge, KindComment, KindTag))),
		act(mf(one(ldbcfile.CommentIsLocatedInPlacePath, ldbcfile.CommentIsLocatedInPlaceHeader, edge(IsLocatedInEdge, KindComment, KindPlace)))),
		act(mf(one(ldbcfile.CommentReplyOfCommentPath, ldbcfile.CommentReplyOfCommentHeader, edge(ReplyOfEdge, KindComment, KindComment)))),
		act(mf(one(ldbcfile.CommentReplyOfPostPath, ldbcfile.CommentReplyOfPostHeader, edge(ReplyOfEdge, KindComment, KindPost)))),
		act(one(ldbcfile.PersonLikesCommentPath, ldbcfile.PersonLikesCommentHeader, edge(LikesEdge, KindPerson, KindComment, dt(2)))),
		act(one(ldbcfile.PersonLikesPostPath, ldbcfile.PersonLikesPostHeader, edge(LikesEdge, KindPerson, KindPost, dt(2)))),
	}
}

func withProps(o out, p []col) out { o.props = p; return o }
