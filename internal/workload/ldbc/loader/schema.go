package loader

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/workload/ldbc/ldbcfile"
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
	// optional tables are loaded only when their file exists.
	optional bool
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
	return append([]*table{
		{file: f[ldbcfile.PersonPath], name: PersonTable, key: keyFirst, primary: "id",
			cols: []column{id("id"), text("firstname"), text("lastname"), {"gender", cGender}, {"birthday", cDate}, {"creationdate", cDateTime}, text("locationip"), text("browserused")}},
		{file: f[ldbcfile.PersonKnowsPersonPath], name: KnowsTable, key: keyUnpair, personRefs: []int{0, 1}, noSelfLoop: true,
			primary: "person1id, person2id", indexes: []string{"person2id, person1id"},
			cols: []column{id("person1id"), id("person2id"), {"creationdate", cDateTime}}},
		{file: f[ldbcfile.PersonIsLocatedInPlacePath], name: "person_islocatedin_place", key: keyPair, personRefs: []int{0},
			cols: []column{id("personid"), id("placeid")}},
		{file: f[ldbcfile.PersonHasInterestTagPath], name: "person_hasinterest_tag", key: keyPair, personRefs: []int{0},
			cols: []column{id("personid"), id("tagid")}},
		{file: f[ldbcfile.PersonStudyAtOrganisationPath], name: "person_studyat_organisation", key: keyPair, personRefs: []int{0},
			cols: []column{id("personid"), id("organisationid"), id("classyear")}},
		{file: f[ldbcfile.PersonWorkAtOrganisationPath], name: "person_workat_organisation", key: keyPair, personRefs: []int{0},
			cols: []column{id("personid"), id("organisationid"), id("workfrom")}},
		{file: f[ldbcfile.PersonEmailEmailaddressPath], name: "person_email_emailaddress", key: keyPair, personRefs: []int{0},
			cols: []column{id("personid"), text("email")}},
		{file: f[ldbcfile.PersonSpeaksLanguagePath], name: "person_speaks_language", key: keyPair, personRefs: []int{0},
			cols: []column{id("personid"), text("language")}},
		{file: f[ldbcfile.PlacePath], name: "place", key: keyFirst, primary: "id",
			cols: []column{id("id"), text("name"), text("url"), text("type")}},
		{file: f[ldbcfile.PlaceIsPartOfPlacePath], name: "place_ispartof_place", key: keyPair,
			cols: []column{id("place1id"), id("place2id")}},
		{file: f[ldbcfile.OrganisationPath], name: "organisation", key: keyFirst, primary: "id",
			cols: []column{id("id"), text("type"), text("name"), text("url")}},
		{file: f[ldbcfile.OrganisationIsLocatedInPlacePath], name: "organisation_islocatedin_place", key: keyPair,
			cols: []column{id("organisationid"), id("placeid")}},
		{file: f[ldbcfile.TagClassPath], name: "tagclass", key: keyFirst, primary: "id",
			cols: []column{id("id"), text("name"), text("url")}},
		{file: f[ldbcfile.TagClassIsSubclassOfTagClassPath], name: "tagclass_issubclassof_tagclass", key: keyPair,
			cols: []column{id("tagclass1id"), id("tagclass2id")}},
		{file: f[ldbcfile.TagPath], name: "tag", key: keyFirst, primary: "id",
			cols: []column{id("id"), text("name"), text("url")}},
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

// createSQL is the CREATE TABLE of t, without indexes.
func (d dialect) createSQL(t *table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", t.name)
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

// indexSQL are the statements that build t's keys after loading.
func (d dialect) indexSQL(t *table) []string {
	var out []string
	if t.primary != "" && !(d.personPKInline && !strings.Contains(t.primary, ",")) {
		if d.personPKInline { // SQLite cannot add a primary key later
			out = append(out, fmt.Sprintf("CREATE UNIQUE INDEX %s_pkey ON %s (%s)", t.name, t.name, t.primary))
		} else {
			out = append(out, fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", t.name, t.primary))
		}
	}
	for i, ix := range t.indexes {
		out = append(out, fmt.Sprintf("CREATE INDEX %s_ix%d ON %s (%s)", t.name, i+1, t.name, ix))
	}
	return out
}

const metaCreateSQL = "CREATE TABLE " + MetaTable + " (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
