package loader

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// colKind is how a column is validated and stored.
type colKind uint8

const (
	cInt      colKind = iota + 1 // non-negative integer: BIGINT
	cText                        // free text: TEXT
	cGender                      // "male" or "female": TEXT
	cDate                        // yyyy-MM-dd: DATE (PostgreSQL) or TEXT (SQLite)
	cDateTime                    // ldbcfile.DateTimeLayout: TIMESTAMPTZ or TEXT
)

// variant is another header a table's file may have (a layout other than
// CsvBasic): the table's columns come first, then extra columns whose
// values become rows of other tables.
type variant struct {
	header string
	extra  []extra
}

// extra is a column of a variant that fills another table with rows
// (id of this row, value).
type extra struct {
	name  string // column name in the header, for messages
	table string // the table it fills
	kind  colKind
	// list: the value is a ';'-separated list, one row each (composite).
	list bool
	// optional: an empty value gives no row (a continent is part of no
	// place, the root tag class has no superclass).
	optional bool
	// person: the value must name a person of the person file (forum
	// moderator, message creator), as the relation file's rows must.
	person bool
	// reverse: the row is (value, id of this row) instead of (id, value)
	// (post.Forum.id fills forum_containerof_post(forumid, postid)).
	reverse bool
}

type column struct {
	name string
	kind colKind
}

// keyKind says which columns make a row unique within its file.
type keyKind uint8

const (
	keyNone   keyKind = iota
	keyFirst          // column 0 (entity id)
	keyPair           // columns 0 and 1
	keyUnpair         // columns 0 and 1 as an unordered pair (knows: a-b = b-a)
)

// table maps one LDBC file to one SQL table.
type table struct {
	file ldbcfile.File
	name string
	cols []column
	key  keyKind
	// personRefs are the columns that must name a person of person_0_0.csv.
	personRefs []int
	// noSelfLoop rejects rows whose first two columns are equal.
	noSelfLoop bool
	// indexes are created after the rows are in, as "name(cols)"; the
	// first is the primary key when primary is set.
	primary string
	indexes []string
	// variants are the headers of the other layouts.
	variants []variant
	// optional tables are loaded only when their file exists.
	optional bool
}

// headers returns the CsvBasic header first, then the variants'.
func (t *table) headers() []string {
	out := []string{t.file.Header}
	for _, v := range t.variants {
		out = append(out, v.header)
	}
	return out
}

// Table names of the graph scenarios.
const (
	PersonTable = "person"
	KnowsTable  = "person_knows_person"
	MetaTable   = "stampede_meta"
)

// tables returns every loaded table, person first (the other person files
// are checked against its ids), then knows, then the rest.
func tables() []*table {
	f := map[string]ldbcfile.File{}
	for _, x := range ldbcfile.Files() {
		f[x.Path] = x
	}
	id := func(n string) column { return column{n, cInt} }
	text := func(n string) column { return column{n, cText} }
	personPlace := extra{name: "place", table: "person_islocatedin_place", kind: cInt}
	language := extra{name: "language", table: "person_speaks_language", kind: cText, list: true}
	email := extra{name: "email", table: "person_email_emailaddress", kind: cText, list: true}
	return append([]*table{
		{file: f[ldbcfile.PersonPath], name: PersonTable, key: keyFirst, primary: "id",
			cols:     []column{id("id"), text("firstname"), text("lastname"), {"gender", cGender}, {"birthday", cDate}, {"creationdate", cDateTime}, text("locationip"), text("browserused")},
			variants: []variant{{ldbcfile.PersonCompositeHeader, []extra{language, email}}, {ldbcfile.PersonMergeForeignHeader, []extra{personPlace}}, {ldbcfile.PersonCompositeMergeForeignHeader, []extra{personPlace, language, email}}}},
		{file: f[ldbcfile.PersonKnowsPersonPath], name: KnowsTable, key: keyUnpair, personRefs: []int{0, 1}, noSelfLoop: true,
			primary: "person1id, person2id", indexes: []string{"person2id, person1id"},
			cols: []column{id("person1id"), id("person2id"), {"creationdate", cDateTime}}},
		{file: f[ldbcfile.PersonIsLocatedInPlacePath], name: "person_islocatedin_place", key: keyPair, personRefs: []int{0}, indexes: []string{"personid"},
			cols: []column{id("personid"), id("placeid")}},
		{file: f[ldbcfile.PersonHasInterestTagPath], name: "person_hasinterest_tag", key: keyPair, personRefs: []int{0},
			cols: []column{id("personid"), id("tagid")}},
		{file: f[ldbcfile.PersonStudyAtOrganisationPath], name: "person_studyat_organisation", key: keyPair, personRefs: []int{0}, indexes: []string{"personid"},
			cols: []column{id("personid"), id("organisationid"), id("classyear")}},
		{file: f[ldbcfile.PersonWorkAtOrganisationPath], name: "person_workat_organisation", key: keyPair, personRefs: []int{0}, indexes: []string{"personid"},
			cols: []column{id("personid"), id("organisationid"), id("workfrom")}},
		{file: f[ldbcfile.PersonEmailEmailaddressPath], name: "person_email_emailaddress", key: keyPair, personRefs: []int{0}, indexes: []string{"personid"},
			cols: []column{id("personid"), text("email")}},
		{file: f[ldbcfile.PersonSpeaksLanguagePath], name: "person_speaks_language", key: keyPair, personRefs: []int{0}, indexes: []string{"personid"},
			cols: []column{id("personid"), text("language")}},
		{file: f[ldbcfile.PlacePath], name: "place", key: keyFirst, primary: "id",
			cols:     []column{id("id"), text("name"), text("url"), text("type")},
			variants: []variant{{ldbcfile.PlaceMergeForeignHeader, []extra{{name: "isPartOf", table: "place_ispartof_place", kind: cInt, optional: true}}}}},
		{file: f[ldbcfile.PlaceIsPartOfPlacePath], name: "place_ispartof_place", key: keyPair,
			cols: []column{id("place1id"), id("place2id")}},
		{file: f[ldbcfile.OrganisationPath], name: "organisation", key: keyFirst, primary: "id",
			cols:     []column{id("id"), text("type"), text("name"), text("url")},
			variants: []variant{{ldbcfile.OrganisationMergeForeignHeader, []extra{{name: "place", table: "organisation_islocatedin_place", kind: cInt}}}}},
		{file: f[ldbcfile.OrganisationIsLocatedInPlacePath], name: "organisation_islocatedin_place", key: keyPair, indexes: []string{"organisationid"},
			cols: []column{id("organisationid"), id("placeid")}},
		{file: f[ldbcfile.TagClassPath], name: "tagclass", key: keyFirst, primary: "id",
			cols:     []column{id("id"), text("name"), text("url")},
			variants: []variant{{ldbcfile.TagClassMergeForeignHeader, []extra{{name: "isSubclassOf", table: "tagclass_issubclassof_tagclass", kind: cInt, optional: true}}}}},
		{file: f[ldbcfile.TagClassIsSubclassOfTagClassPath], name: "tagclass_issubclassof_tagclass", key: keyPair,
			cols: []column{id("tagclass1id"), id("tagclass2id")}},
		{file: f[ldbcfile.TagPath], name: "tag", key: keyFirst, primary: "id",
			cols:     []column{id("id"), text("name"), text("url")},
			variants: []variant{{ldbcfile.TagMergeForeignHeader, []extra{{name: "hasType", table: "tag_hastype_tagclass", kind: cInt}}}}},
		{file: f[ldbcfile.TagHasTypeTagClassPath], name: "tag_hastype_tagclass", key: keyPair,
			cols: []column{id("tagid"), id("tagclassid")}},
	}, markOptional(activityTables())...)
}

// TableNames lists every table Load creates, the metadata table last.
func TableNames() []string {
	var out []string
	for _, t := range tables() {
		out = append(out, t.name)
	}
	return append(out, MetaTable)
}

func (t *table) colNames() []string {
	out := make([]string, len(t.cols))
	for i, c := range t.cols {
		out[i] = c.name
	}
	return out
}

// dialect holds the DDL differences between the SQL targets.
type dialect struct {
	types map[colKind]string
	// personPKInline declares person.id as the primary key in CREATE TABLE
	// (SQLite: a rowid alias, fastest to load in id order).
	personPKInline bool
}

var (
	sqliteDialect = dialect{types: map[colKind]string{cInt: "INTEGER", cText: "TEXT", cGender: "TEXT", cDate: "TEXT", cDateTime: "TEXT"}, personPKInline: true}
	pgDialect     = dialect{types: map[colKind]string{cInt: "BIGINT", cText: "TEXT", cGender: "TEXT", cDate: "DATE", cDateTime: "TIMESTAMPTZ"}}
)

// createSQL is the CREATE TABLE of t, without indexes; q qualifies the
// table name ("" or a quoted schema name and a dot).
func (d dialect) createSQL(t *table, q string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s%s (", q, t.name)
	for i, c := range t.cols {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s NOT NULL", c.name, d.types[c.kind])
		if i == 0 && t.primary == c.name && d.personPKInline {
			b.WriteString(" PRIMARY KEY")
		}
	}
	b.WriteString(")")
	return b.String()
}

// indexSQL are the statements that build t's keys after loading; q
// qualifies the table name as in createSQL (indexes are created in the
// table's schema).
func (d dialect) indexSQL(t *table, q string) []string {
	var out []string
	if t.primary != "" && !(d.personPKInline && !strings.Contains(t.primary, ",")) {
		if d.personPKInline { // SQLite cannot add a primary key later
			out = append(out, fmt.Sprintf("CREATE UNIQUE INDEX %s_pkey ON %s%s (%s)", t.name, q, t.name, t.primary))
		} else {
			out = append(out, fmt.Sprintf("ALTER TABLE %s%s ADD PRIMARY KEY (%s)", q, t.name, t.primary))
		}
	}
	for i, ix := range t.indexes {
		out = append(out, fmt.Sprintf("CREATE INDEX %s_ix%d ON %s%s (%s)", t.name, i+1, q, t.name, ix))
	}
	return out
}

// metaCreateSQL is the CREATE TABLE of stampede_meta, qualified by q.
func metaCreateSQL(q string) string {
	return "CREATE TABLE " + q + MetaTable + " (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
}
