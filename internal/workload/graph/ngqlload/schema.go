// Package ngqlload loads an LDBC SNB data set (package ldbcfile's
// layouts) into a NebulaGraph space: it creates the space (INT64 vids,
// partitions and replica factor as nebula-bench's defaults), a tag for
// every LDBC entity and an edge type for every relation (Types), waits
// until every graphd sees the schema, streams every file of the data set
// into batched concurrent INSERT VERTEX / INSERT EDGE statements (vids
// from VID), verifies every type's count with SUBMIT JOB STATS / SHOW
// STATS, and records the load (counts by type and the data's fingerprint)
// in a stampede_meta vertex, which marks it complete.
//
// The statements are what NebulaGraph 3.x accepts; they were verified
// here only against stampede's in-test stand-in graphd (package
// nebulatest), never against a real NebulaGraph server.
package ngqlload

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// nebula-bench's defaults for the space.
const (
	DefaultPartitions    = 24
	DefaultReplicaFactor = 3
	DefaultBatch         = 100 // rows per INSERT, as nebula-importer's batchSize
	DefaultWorkers       = 4
	// DefaultSchemaWait bounds the wait for the schema to reach every
	// graphd (a real cluster propagates it with the meta heartbeat, 10 s
	// by default).
	DefaultSchemaWait = 60 * time.Second
)

// Tag names (vertex types) of the LDBC network: nebula-bench's Person and
// LDBC's entity names. Tag is a reserved word of nGQL: write it
// backquoted (`Tag`) in statements, as every statement here does.
const (
	PersonTag       = "Person"
	PlaceTag        = "Place"
	OrganisationTag = "Organisation"
	TagClassTag     = "TagClass"
	TagTag          = "Tag"
	ForumTag        = "Forum"
	PostTag         = "Post"
	CommentTag      = "Comment"
)

// Edge type names, each in LDBC's direction (source -> destination).
const (
	KnowsEdge        = "KNOWS"          // Person -> Person, one edge per friendship (creationDate)
	HasCreatorEdge   = "HAS_CREATOR"    // Post|Comment -> Person
	HasTagEdge       = "HAS_TAG"        // Post|Comment|Forum -> Tag
	HasMemberEdge    = "HAS_MEMBER"     // Forum -> Person (joinDate)
	HasModeratorEdge = "HAS_MODERATOR"  // Forum -> Person
	ContainerOfEdge  = "CONTAINER_OF"   // Forum -> Post
	ReplyOfEdge      = "REPLY_OF"       // Comment -> Post|Comment
	IsLocatedInEdge  = "IS_LOCATED_IN"  // Person|Post|Comment|Organisation -> Place
	IsPartOfEdge     = "IS_PART_OF"     // Place -> Place
	StudyAtEdge      = "STUDY_AT"       // Person -> Organisation (classYear)
	WorkAtEdge       = "WORK_AT"        // Person -> Organisation (workFrom)
	HasInterestEdge  = "HAS_INTEREST"   // Person -> Tag
	HasTypeEdge      = "HAS_TYPE"       // Tag -> TagClass
	IsSubclassOfEdge = "IS_SUBCLASS_OF" // TagClass -> TagClass
	LikesEdge        = "LIKES"          // Person -> Post|Comment (creationDate)
)

// Schema names of the load record.
const (
	MetaTag = "stampede_meta"
	// MetaVID is the vertex holding the load record: a negative id no LDBC
	// person has.
	MetaVID int64 = -4242424242
)

// PersonNameIndex is the tag index lookup.LookUp needs.
const PersonNameIndex = "person_first_name"

// CreateIndex creates PersonNameIndex (after the schema is visible).
const CreateIndex = "CREATE TAG INDEX IF NOT EXISTS " + PersonNameIndex + " ON " + PersonTag + "(firstName(32))"

// PersonProps are the Person properties in ldbcfile.Person order after
// the id, as nebula-bench names them. The full load adds email and speaks
// (see Types); statements that name only PersonProps leave them NULL.
const PersonProps = "firstName, lastName, gender, birthday, creationDate, locationIP, browserUsed"

// Prop is one property of a tag or edge type.
type Prop struct {
	Name string
	// Type is the nGQL type: "string", "int" or "datetime".
	Type string
}

// Type is a tag (vertex type) or an edge type of the schema.
type Type struct {
	Name  string
	Edge  bool
	Props []Prop
}

// Types returns the schema of the LDBC network, tags first, in the order
// Load creates and fills them. Person's email and speaks hold a person's
// e-mail addresses and languages joined with ";" (the layout of LDBC's
// CsvComposite person file), in file order. Datetimes are UTC with
// milliseconds; Person.birthday is a "yyyy-MM-dd" string as nebula-bench
// has it. The slice is new on each call.
func Types() []Type {
	s := func(n string) Prop { return Prop{n, "string"} }
	i := func(n string) Prop { return Prop{n, "int"} }
	dt := func(n string) Prop { return Prop{n, "datetime"} }
	return []Type{
		{Name: PersonTag, Props: []Prop{s("firstName"), s("lastName"), s("gender"), s("birthday"), dt("creationDate"), s("locationIP"), s("browserUsed"), s("email"), s("speaks")}},
		{Name: PlaceTag, Props: []Prop{s("name"), s("url"), s("type")}},
		{Name: OrganisationTag, Props: []Prop{s("type"), s("name"), s("url")}},
		{Name: TagClassTag, Props: []Prop{s("name"), s("url")}},
		{Name: TagTag, Props: []Prop{s("name"), s("url")}},
		{Name: ForumTag, Props: []Prop{s("title"), dt("creationDate")}},
		{Name: PostTag, Props: []Prop{s("imageFile"), dt("creationDate"), s("locationIP"), s("browserUsed"), s("language"), s("content"), i("length")}},
		{Name: CommentTag, Props: []Prop{dt("creationDate"), s("locationIP"), s("browserUsed"), s("content"), i("length")}},
		{Name: KnowsEdge, Edge: true, Props: []Prop{dt("creationDate")}},
		{Name: IsLocatedInEdge, Edge: true},
		{Name: HasInterestEdge, Edge: true},
		{Name: StudyAtEdge, Edge: true, Props: []Prop{i("classYear")}},
		{Name: WorkAtEdge, Edge: true, Props: []Prop{i("workFrom")}},
		{Name: IsPartOfEdge, Edge: true},
		{Name: HasTypeEdge, Edge: true},
		{Name: IsSubclassOfEdge, Edge: true},
		{Name: HasModeratorEdge, Edge: true},
		{Name: HasMemberEdge, Edge: true, Props: []Prop{dt("joinDate")}},
		{Name: HasTagEdge, Edge: true},
		{Name: ContainerOfEdge, Edge: true},
		{Name: HasCreatorEdge, Edge: true},
		{Name: ReplyOfEdge, Edge: true},
		{Name: LikesEdge, Edge: true, Props: []Prop{dt("creationDate")}},
	}
}

// metaProps are the properties of MetaTag: the load record.
var metaProps = []Prop{{"format", "string"}, {"fingerprint", "string"}, {"persons", "int"}, {"knows", "int"}, {"failed", "int"},
	{"loaded_at", "string"}, {"data", "string"}, {"counts", "string"}, {"max_person_id", "int"}, {"layout", "string"}}

// createStatement is the CREATE TAG/EDGE statement of t.
func createStatement(t Type) string {
	var b strings.Builder
	b.WriteString("CREATE TAG IF NOT EXISTS ")
	if t.Edge {
		b.Reset()
		b.WriteString("CREATE EDGE IF NOT EXISTS ")
	}
	b.WriteString(nebula.QuoteName(t.Name))
	b.WriteByte('(')
	for i, p := range t.Props {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name(p.Name) + " " + p.Type)
	}
	b.WriteByte(')')
	return b.String()
}

// SchemaStatements create the tags and edge types of Types and the load
// record's tag (inside USE space).
func SchemaStatements() []string {
	var out []string
	for _, t := range Types() {
		out = append(out, createStatement(t))
	}
	return append(out, createStatement(Type{Name: MetaTag, Props: metaProps}))
}

// CreateSpace is the statement creating space.
func CreateSpace(space string, partitions, replicas int) string {
	return fmt.Sprintf("CREATE SPACE IF NOT EXISTS %s(partition_num = %d, replica_factor = %d, vid_type = INT64)", nebula.QuoteName(space), partitions, replicas)
}

// metaStatement records a completed load: m and the rows written by
// type (counts, as "Person=8,KNOWS=6,...", in Types order).
func metaStatement(m loader.Meta, counts map[string]int64) string {
	var b []byte
	b = append(b, "INSERT VERTEX "+MetaTag+"(`format`, fingerprint, persons, knows, failed, loaded_at, data, counts, max_person_id, layout) VALUES "...)
	b = strconv.AppendInt(b, MetaVID, 10)
	b = append(b, `:("ldbc-snb-csvbasic/1", `...)
	b = nebula.AppendString(b, m.Fingerprint)
	b = fmt.Appendf(b, ", %d, %d, %d, ", m.Persons, m.Knows, m.Failed)
	b = nebula.AppendString(b, m.LoadedAt.UTC().Format(time.RFC3339))
	b = append(b, ", "...)
	b = nebula.AppendString(b, m.Data)
	b = append(b, ", "...)
	b = nebula.AppendString(b, formatCounts(counts))
	b = fmt.Appendf(b, ", %d, ", m.MaxPersonID)
	b = nebula.AppendString(b, m.Layout)
	return string(append(b, ')'))
}

// formatCounts writes counts as "Person=8,KNOWS=6,..." in Types order.
func formatCounts(counts map[string]int64) string {
	var parts []string
	for _, t := range Types() {
		parts = append(parts, t.Name+"="+strconv.FormatInt(counts[t.Name], 10))
	}
	return strings.Join(parts, ",")
}

// parseCounts reads formatCounts' text.
func parseCounts(s string) map[string]int64 {
	out := map[string]int64{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if n, err := strconv.ParseInt(v, 10, 64); ok && err == nil {
			out[k] = n
		}
	}
	return out
}

// fetchMeta reads the load record back.
var fetchMeta = "FETCH PROP ON " + MetaTag + " " + strconv.FormatInt(MetaVID, 10) +
	" YIELD " + strings.Join([]string{MetaTag + ".fingerprint", MetaTag + ".persons", MetaTag + ".knows", MetaTag + ".failed", MetaTag + ".loaded_at", MetaTag + ".data",
	MetaTag + ".counts", MetaTag + ".max_person_id", MetaTag + ".layout"}, ", ")

// FormatCounts writes rows by type for people, in Types order:
// "vertices: Person 8, Place 0, ...; edges: KNOWS 6, ...".
func FormatCounts(counts map[string]int64) string {
	var vs, es []string
	for _, t := range Types() {
		x := t.Name + " " + strconv.FormatInt(counts[t.Name], 10)
		if t.Edge {
			es = append(es, x)
		} else {
			vs = append(vs, x)
		}
	}
	return "vertices: " + strings.Join(vs, ", ") + "; edges: " + strings.Join(es, ", ")
}
