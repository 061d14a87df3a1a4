// Package ldbcfile holds what every stampede component must agree on about
// LDBC SNB data in the CsvBasic layout of ldbc_snb_datagen_hadoop: the
// relative path of every file, its header line, the date layouts, row
// formatting and streaming readers. The generator writes with it; the
// importer and the correctness checker read with it.
//
// All files are UTF-8, '|'-separated, one header line, '\n' line ends.
package ldbcfile

// Directories, relative to a data set's root (the --out of `stampede gen ldbc`).
const (
	DirSocialNetwork = "social_network"
	DirStatic        = "social_network/static"
	DirDynamic       = "social_network/dynamic"
	DirParams        = "substitution_parameters"
)

// Relative paths of the dynamic (person) files.
const (
	PersonPath                    = DirDynamic + "/person_0_0.csv"
	PersonKnowsPersonPath         = DirDynamic + "/person_knows_person_0_0.csv"
	PersonIsLocatedInPlacePath    = DirDynamic + "/person_isLocatedIn_place_0_0.csv"
	PersonHasInterestTagPath      = DirDynamic + "/person_hasInterest_tag_0_0.csv"
	PersonStudyAtOrganisationPath = DirDynamic + "/person_studyAt_organisation_0_0.csv"
	PersonWorkAtOrganisationPath  = DirDynamic + "/person_workAt_organisation_0_0.csv"
	PersonEmailEmailaddressPath   = DirDynamic + "/person_email_emailaddress_0_0.csv"
	PersonSpeaksLanguagePath      = DirDynamic + "/person_speaks_language_0_0.csv"
)

// Relative paths of the static files.
const (
	PlacePath                        = DirStatic + "/place_0_0.csv"
	PlaceIsPartOfPlacePath           = DirStatic + "/place_isPartOf_place_0_0.csv"
	OrganisationPath                 = DirStatic + "/organisation_0_0.csv"
	OrganisationIsLocatedInPlacePath = DirStatic + "/organisation_isLocatedIn_place_0_0.csv"
	TagPath                          = DirStatic + "/tag_0_0.csv"
	TagHasTypeTagClassPath           = DirStatic + "/tag_hasType_tagclass_0_0.csv"
	TagClassPath                     = DirStatic + "/tagclass_0_0.csv"
	TagClassIsSubclassOfTagClassPath = DirStatic + "/tagclass_isSubclassOf_tagclass_0_0.csv"
)

// Relative paths of the substitution-parameter files.
const (
	// KHopPersonPath lists start persons for go.Go1Step/Go2Step/Go3Step
	// and fetch.FetchTag.
	KHopPersonPath = DirParams + "/khop_person.csv"
	// ShortestPathPath lists person pairs for find_path.FindShortestPath.
	ShortestPathPath = DirParams + "/shortest_path.csv"
	// InsertPersonPath lists new persons (ids not in the data set) for
	// insert.InsertPersonScenario.
	InsertPersonPath = DirParams + "/insert_person.csv"
)

// Header lines (without the trailing newline).
const (
	PersonHeader                    = "id|firstName|lastName|gender|birthday|creationDate|locationIP|browserUsed"
	PersonKnowsPersonHeader         = "Person.id|Person.id|creationDate"
	PersonIsLocatedInPlaceHeader    = "Person.id|Place.id"
	PersonHasInterestTagHeader      = "Person.id|Tag.id"
	PersonStudyAtOrganisationHeader = "Person.id|Organisation.id|classYear"
	PersonWorkAtOrganisationHeader  = "Person.id|Organisation.id|workFrom"
	PersonEmailEmailaddressHeader   = "Person.id|email"
	PersonSpeaksLanguageHeader      = "Person.id|language"

	PlaceHeader                        = "id|name|url|type"
	PlaceIsPartOfPlaceHeader           = "Place.id|Place.id"
	OrganisationHeader                 = "id|type|name|url"
	OrganisationIsLocatedInPlaceHeader = "Organisation.id|Place.id"
	TagHeader                          = "id|name|url"
	TagHasTypeTagClassHeader           = "Tag.id|TagClass.id"
	TagClassHeader                     = "id|name|url"
	TagClassIsSubclassOfTagClassHeader = "TagClass.id|TagClass.id"

	KHopPersonHeader   = "personId"
	ShortestPathHeader = "person1Id|person2Id"
	InsertPersonHeader = PersonHeader
)

// Separator is the field separator of every file.
const Separator = '|'

// Date layouts (Go reference time) of the CsvBasic serializer: datetimes
// are UTC with millisecond precision (Java yyyy-MM-dd'T'HH:mm:ss.SSS+0000),
// dates are yyyy-MM-dd.
const (
	DateTimeLayout = "2006-01-02T15:04:05.000+0000"
	DateLayout     = "2006-01-02"
)

// Place types (place_0_0.csv "type") and organisation types
// (organisation_0_0.csv "type").
const (
	PlaceCity        = "city"
	PlaceCountry     = "country"
	PlaceContinent   = "continent"
	OrgUniversity    = "university"
	OrgCompany       = "company"
	GenderMale       = "male"
	GenderFemale     = "female"
	DBpediaResource  = "http://dbpedia.org/resource/"
	DBpediaOntology  = "http://dbpedia.org/ontology/"
	OWLThing         = "http://www.w3.org/2002/07/owl#Thing"
	TagClassRootName = "Thing"
)

// File names one data file: its path relative to the data set root and its
// header line.
type File struct {
	Path   string
	Header string
	// Static is true for the files under social_network/static.
	Static bool
	// Param is true for the substitution-parameter files.
	Param bool
}

// Files returns every file a generated data set holds, static files first,
// then the person files, then the substitution parameters. The slice is new
// on each call.
func Files() []File {
	return []File{
		{Path: PlacePath, Header: PlaceHeader, Static: true},
		{Path: PlaceIsPartOfPlacePath, Header: PlaceIsPartOfPlaceHeader, Static: true},
		{Path: OrganisationPath, Header: OrganisationHeader, Static: true},
		{Path: OrganisationIsLocatedInPlacePath, Header: OrganisationIsLocatedInPlaceHeader, Static: true},
		{Path: TagClassPath, Header: TagClassHeader, Static: true},
		{Path: TagClassIsSubclassOfTagClassPath, Header: TagClassIsSubclassOfTagClassHeader, Static: true},
		{Path: TagPath, Header: TagHeader, Static: true},
		{Path: TagHasTypeTagClassPath, Header: TagHasTypeTagClassHeader, Static: true},
		{Path: PersonPath, Header: PersonHeader},
		{Path: PersonKnowsPersonPath, Header: PersonKnowsPersonHeader},
		{Path: PersonIsLocatedInPlacePath, Header: PersonIsLocatedInPlaceHeader},
		{Path: PersonHasInterestTagPath, Header: PersonHasInterestTagHeader},
		{Path: PersonStudyAtOrganisationPath, Header: PersonStudyAtOrganisationHeader},
		{Path: PersonWorkAtOrganisationPath, Header: PersonWorkAtOrganisationHeader},
		{Path: PersonEmailEmailaddressPath, Header: PersonEmailEmailaddressHeader},
		{Path: PersonSpeaksLanguagePath, Header: PersonSpeaksLanguageHeader},
		{Path: KHopPersonPath, Header: KHopPersonHeader, Param: true},
		{Path: ShortestPathPath, Header: ShortestPathHeader, Param: true},
		{Path: InsertPersonPath, Header: InsertPersonHeader, Param: true},
	}
}
