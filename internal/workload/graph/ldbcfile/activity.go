package ldbcfile

// Relative paths of the activity files: forums, posts, comments, likes and
// their relations, in the CsvBasic layout (one file per entity and per
// relation), as ldbc_snb_datagen_hadoop writes them.
const (
	ForumPath                   = DirDynamic + "/forum_0_0.csv"
	ForumContainerOfPostPath    = DirDynamic + "/forum_containerOf_post_0_0.csv"
	ForumHasMemberPersonPath    = DirDynamic + "/forum_hasMember_person_0_0.csv"
	ForumHasModeratorPersonPath = DirDynamic + "/forum_hasModerator_person_0_0.csv"
	ForumHasTagTagPath          = DirDynamic + "/forum_hasTag_tag_0_0.csv"
	PostPath                    = DirDynamic + "/post_0_0.csv"
	PostHasCreatorPersonPath    = DirDynamic + "/post_hasCreator_person_0_0.csv"
	PostHasTagTagPath           = DirDynamic + "/post_hasTag_tag_0_0.csv"
	PostIsLocatedInPlacePath    = DirDynamic + "/post_isLocatedIn_place_0_0.csv"
	CommentPath                 = DirDynamic + "/comment_0_0.csv"
	CommentHasCreatorPersonPath = DirDynamic + "/comment_hasCreator_person_0_0.csv"
	CommentHasTagTagPath        = DirDynamic + "/comment_hasTag_tag_0_0.csv"
	CommentIsLocatedInPlacePath = DirDynamic + "/comment_isLocatedIn_place_0_0.csv"
	CommentReplyOfCommentPath   = DirDynamic + "/comment_replyOf_comment_0_0.csv"
	CommentReplyOfPostPath      = DirDynamic + "/comment_replyOf_post_0_0.csv"
	PersonLikesCommentPath      = DirDynamic + "/person_likes_comment_0_0.csv"
	PersonLikesPostPath         = DirDynamic + "/person_likes_post_0_0.csv"
)

// Header lines of the activity files.
const (
	ForumHeader                   = "id|title|creationDate"
	ForumContainerOfPostHeader    = "Forum.id|Post.id"
	ForumHasMemberPersonHeader    = "Forum.id|Person.id|joinDate"
	ForumHasModeratorPersonHeader = "Forum.id|Person.id"
	ForumHasTagTagHeader          = "Forum.id|Tag.id"
	PostHeader                    = "id|imageFile|creationDate|locationIP|browserUsed|language|content|length"
	PostHasCreatorPersonHeader    = "Post.id|Person.id"
	PostHasTagTagHeader           = "Post.id|Tag.id"
	PostIsLocatedInPlaceHeader    = "Post.id|Place.id"
	CommentHeader                 = "id|creationDate|locationIP|browserUsed|content|length"
	CommentHasCreatorPersonHeader = "Comment.id|Person.id"
	CommentHasTagTagHeader        = "Comment.id|Tag.id"
	CommentIsLocatedInPlaceHeader = "Comment.id|Place.id"
	CommentReplyOfCommentHeader   = "Comment.id|Comment.id"
	CommentReplyOfPostHeader      = "Comment.id|Post.id"
	PersonLikesCommentHeader      = "Person.id|Comment.id|creationDate"
	PersonLikesPostHeader         = "Person.id|Post.id|creationDate"
)

// Substitution parameters of the LDBC Interactive scenarios.
const (
	// MessagePath lists message (post or comment) ids for the short
	// reads IS4-IS7.
	MessagePath   = DirParams + "/interactive_message.csv"
	MessageHeader = "messageId"
	// InteractivePersonPath lists start persons with a first name and a
	// date for the complex reads (IC1 uses firstName, IC2 and IC9 maxDate).
	InteractivePersonPath   = DirParams + "/interactive_person.csv"
	InteractivePersonHeader = "personId|firstName|maxDate"
)

// ActivityFiles returns the activity files of a full data set in the order
// the generator writes them. Data sets of the person subgraph only (older
// stampede versions) lack them. The slice is new on each call.
func ActivityFiles() []File {
	return []File{
		{Path: ForumPath, Header: ForumHeader},
		{Path: ForumContainerOfPostPath, Header: ForumContainerOfPostHeader},
		{Path: ForumHasMemberPersonPath, Header: ForumHasMemberPersonHeader},
		{Path: ForumHasModeratorPersonPath, Header: ForumHasModeratorPersonHeader},
		{Path: ForumHasTagTagPath, Header: ForumHasTagTagHeader},
		{Path: PostPath, Header: PostHeader},
		{Path: PostHasCreatorPersonPath, Header: PostHasCreatorPersonHeader},
		{Path: PostHasTagTagPath, Header: PostHasTagTagHeader},
		{Path: PostIsLocatedInPlacePath, Header: PostIsLocatedInPlaceHeader},
		{Path: CommentPath, Header: CommentHeader},
		{Path: CommentHasCreatorPersonPath, Header: CommentHasCreatorPersonHeader},
		{Path: CommentHasTagTagPath, Header: CommentHasTagTagHeader},
		{Path: CommentIsLocatedInPlacePath, Header: CommentIsLocatedInPlaceHeader},
		{Path: CommentReplyOfCommentPath, Header: CommentReplyOfCommentHeader},
		{Path: CommentReplyOfPostPath, Header: CommentReplyOfPostHeader},
		{Path: PersonLikesCommentPath, Header: PersonLikesCommentHeader},
		{Path: PersonLikesPostPath, Header: PersonLikesPostHeader},
	}
}

// InteractiveParamFiles returns the substitution-parameter files of the
// Interactive scenarios.
func InteractiveParamFiles() []File {
	return []File{
		{Path: MessagePath, Header: MessageHeader, Param: true},
		{Path: InteractivePersonPath, Header: InteractivePersonHeader, Param: true},
	}
}
