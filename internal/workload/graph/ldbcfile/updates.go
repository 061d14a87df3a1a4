package ldbcfile

// The LDBC SNB Interactive update streams, as ldbc_snb_datagen_hadoop
// writes them next to the bulk data (`stampede gen ldbc --update-streams`).
//
// Unlike every other file they have no header line. Each line is one
// insert operation:
//
//	scheduledTime|dependencyTime|type|field|field|...
//
// scheduledTime is the instant the operation happens in the simulation and
// dependencyTime the latest creation instant of what it needs to exist
// (both Unix milliseconds); type is 1..8 (UpdateAddPerson ...
// UpdateAddFriendship, LDBC's IU1..IU8). Dates in the fields are Unix
// milliseconds too. List fields use ';' between items and ',' inside an
// item (studyAt and workAt are "organisationId,year" items). The person
// stream holds IU1 and IU8, the forum stream IU2..IU7, each sorted by
// scheduled time.
const (
	UpdateStreamPersonPath = DirSocialNetwork + "/updateStream_0_0_person.csv"
	UpdateStreamForumPath  = DirSocialNetwork + "/updateStream_0_0_forum.csv"
	// UpdateStreamPropertiesPath holds what the LDBC driver reads about
	// the streams, "ldbc.snb.interactive.KEY:VALUE" lines:
	// gct_delta_duration, min_write_event_start_time,
	// max_write_event_start_time, update_interleave, num_events.
	UpdateStreamPropertiesPath = DirSocialNetwork + "/updateStream.properties"
)

// UpdateStreamFiles returns the paths of the update streams, person stream
// first.
func UpdateStreamFiles() []string {
	return []string{UpdateStreamPersonPath, UpdateStreamForumPath}
}

// Update operation types (the third column of an update stream line).
const (
	// UpdateAddPerson (IU1): id|firstName|lastName|gender|birthday|
	// creationDate|locationIP|browserUsed|cityId|languages|emails|tagIds|
	// studyAt|workAt.
	UpdateAddPerson = 1 + iota
	// UpdateAddLikePost (IU2): personId|postId|creationDate.
	UpdateAddLikePost
	// UpdateAddLikeComment (IU3): personId|commentId|creationDate.
	UpdateAddLikeComment
	// UpdateAddForum (IU4): id|title|creationDate|moderatorPersonId|tagIds.
	UpdateAddForum
	// UpdateAddForumMembership (IU5): forumId|personId|joinDate.
	UpdateAddForumMembership
	// UpdateAddPost (IU6): id|imageFile|creationDate|locationIP|
	// browserUsed|language|content|length|authorPersonId|forumId|
	// countryId|tagIds.
	UpdateAddPost
	// UpdateAddComment (IU7): id|creationDate|locationIP|browserUsed|
	// content|length|authorPersonId|countryId|replyToPostId|
	// replyToCommentId|tagIds; the reply column not used is -1.
	UpdateAddComment
	// UpdateAddFriendship (IU8): person1Id|person2Id|creationDate.
	UpdateAddFriendship
)

// UpdateFields is the number of operation fields (after the three leading
// columns) of each update type, indexed by type (index 0 unused).
var UpdateFields = [...]int{0, 14, 3, 3, 5, 3, 12, 11, 3}
