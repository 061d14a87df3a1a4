package ngqlload

import "fmt"

// Kind is the kind of an LDBC entity as VID encodes it in a vertex id.
//
// LDBC ids are unique only within one kind: places, organisations, tags
// and tag classes are small integers from 0, and a data set's forum and
// message ids may equal person ids. A NebulaGraph space has one vid space
// for every tag, so VID puts the kind into the top bits of the INT64 vid.
type Kind uint8

// The kinds. KindPerson is 0, so that a person's vid is its raw LDBC id
// (as nebula-bench's Person/KNOWS space and scenarios use it).
//
// Posts and comments share LDBC's message id space (a message id names a
// post or a comment, never both), so they share a kind: KindPost and
// KindComment are KindMessage, and the vid of message m is
// VID(KindMessage, m) whichever it is. The short reads IS4-IS7, which get
// a message id, use that vid with FETCH PROP ON Post, Comment.
const (
	KindPerson Kind = iota
	KindPlace
	KindOrganisation
	KindTagClass
	KindTag
	KindForum
	KindMessage

	KindPost    = KindMessage
	KindComment = KindMessage

	// kindCount is the number of kinds.
	kindCount = int(KindMessage) + 1
)

var kindNames = [...]string{"Person", "Place", "Organisation", "TagClass", "Tag", "Forum", "Message"}

// String names the kind ("Person", ..., "Message").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// KindShift is the bit position of the kind in a vid: vid = kind<<56 | id.
const KindShift = 56

// MaxID is the largest LDBC id VID encodes: ids are in [0, MaxID]
// (2^56-1, about 7.2e16). LDBC's ids stay far below it (person ids are
// below 2^49, stampede's message ids below 2^60 only for more than 2^32
// persons). The loader sends a row with an id outside the range to the
// failed-rows file.
const MaxID int64 = 1<<KindShift - 1

// VID is the INT64 vertex id of the LDBC entity of kind k with id id:
// k<<56 | id. A person's vid is its id. Distinct (kind, id) pairs with ids
// in [0, MaxID] have distinct vids, all non-negative (below 7<<56), so
// they never meet MetaVID. For an id outside [0, MaxID] the result is
// meaningless; check InRange first.
//
// In nGQL the same vid is the expression k*72057594037927936 + id, e.g.
// the tag with LDBC id 3 is vertex 288230376151711747 (VID(KindTag, 3)).
func VID(k Kind, id int64) int64 { return int64(k)<<KindShift | id }

// InRange reports whether VID encodes id (0 <= id <= MaxID).
func InRange(id int64) bool { return id >= 0 && id <= MaxID }

// SplitVID is VID's inverse: the kind and LDBC id of a vid VID made.
// Person vids give KindPerson; post and comment vids give KindMessage.
func SplitVID(vid int64) (Kind, int64) {
	return Kind(uint64(vid) >> KindShift), vid & MaxID
}
