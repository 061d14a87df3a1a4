package ldbctest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// OfficialLayouts are the layouts Official renders, as ldbcfile.Layouts
// names them.
var OfficialLayouts = ldbcfile.Layouts

// Official renders a small network the way LDBC's Hadoop datagen writes it
// in layout (one of ldbcfile.Layouts), with ISO dates or, when millis,
// epoch milliseconds (LongDateFormatter). Every layout holds the same
// network: six persons, each located in a city, with interests, a
// university, an employer, e-mail addresses and languages; seven
// friendships; a place hierarchy (continent, country, city), a university
// and a company, a tag-class tree and two tags; and LDBC's substitution
// parameter files for IC1, IC2 and IC13 (no stampede parameter files),
// plus a post file stampede does not read. The result maps paths relative
// to the data set to file contents.
func Official(layout string, millis bool) map[string]string {
	composite := strings.Contains(layout, "Composite")
	merge := strings.Contains(layout, "MergeForeign")
	date := func(s string) string {
		if !millis {
			return s
		}
		var t time.Time
		var err error
		if len(s) == len(ldbcfile.DateLayout) {
			t, err = time.Parse(ldbcfile.DateLayout, s)
		} else {
			t, err = time.Parse(ldbcfile.DateTimeLayout, s)
		}
		if err != nil {
			panic(err)
		}
		return strconv.FormatInt(t.UnixMilli(), 10)
	}
	files := map[string][]string{}
	add := func(path, header string, rows ...string) {
		if _, ok := files[path]; !ok {
			files[path] = []string{header}
		}
		files[path] = append(files[path], rows...)
	}
	type person struct {
		id          int
		first, last string
		gender      string
		birthday    string
		created     string
		langs       []string
		emails      []string
	}
	persons := []person{
		{933, "Mahinda", "Perera", "male", "1989-12-03", "2010-02-14T15:32:10.447+0000", []string{"si", "en"}, []string{"Mahinda933@boarderzone.com", "Mahinda933@hotmail.com"}},
		{1129, "Carmen", "Lepland", "female", "1984-02-18", "2010-01-28T06:39:58.515+0000", []string{"et"}, []string{"Carmen1129@gmail.com"}},
		{4398046511333, "Jan", "Zakrzewski", "female", "1986-07-05", "2010-03-20T04:18:23.102+0000", []string{"pl", "en"}, []string{"Jan4398046511333@gmx.com"}},
		{4398046512167, "Hossein", "Forouhar", "male", "1985-11-25", "2010-04-11T09:10:11.000+0000", []string{"fa"}, nil},
		{8796093022237, "Chen", "Wang", "female", "1981-03-21", "2010-05-01T00:00:00.000+0000", []string{"zh"}, []string{"Chen8796093022237@yahoo.com"}},
		{8796093022244, "Ali", "Khan", "male", "1988-08-08", "2010-06-30T23:59:59.999+0000", []string{"ur", "en"}, []string{"Ali8796093022244@gmail.com"}},
	}
	const city, country, continent = 1353, 28, 1460
	ph := ldbcfile.PersonHeader
	switch {
	case composite && merge:
		ph = ldbcfile.PersonCompositeMergeForeignHeader
	case composite:
		ph = ldbcfile.PersonCompositeHeader
	case merge:
		ph = ldbcfile.PersonMergeForeignHeader
	}
	for _, p := range persons {
		id := strconv.Itoa(p.id)
		row := strings.Join([]string{id, p.first, p.last, p.gender, date(p.birthday), date(p.created), "10.1.2." + strconv.Itoa(p.id%250), "Firefox"}, "|")
		if merge {
			row += "|" + strconv.Itoa(city)
		} else {
			add(ldbcfile.PersonIsLocatedInPlacePath, ldbcfile.PersonIsLocatedInPlaceHeader, id+"|"+strconv.Itoa(city))
		}
		if composite {
			row += "|" + strings.Join(p.langs, ";") + "|" + strings.Join(p.emails, ";")
		} else {
			for _, l := range p.langs {
				add(ldbcfile.PersonSpeaksLanguagePath, ldbcfile.PersonSpeaksLanguageHeader, id+"|"+l)
			}
			for _, e := range p.emails {
				add(ldbcfile.PersonEmailEmailaddressPath, ldbcfile.PersonEmailEmailaddressHeader, id+"|"+e)
			}
			add(ldbcfile.PersonSpeaksLanguagePath, ldbcfile.PersonSpeaksLanguageHeader)
			add(ldbcfile.PersonEmailEmailaddressPath, ldbcfile.PersonEmailEmailaddressHeader)
		}
		add(ldbcfile.PersonPath, ph, row)
		add(ldbcfile.PersonHasInterestTagPath, ldbcfile.PersonHasInterestTagHeader, id+"|1", id+"|"+strconv.Itoa(2+p.id%2))
		add(ldbcfile.PersonStudyAtOrganisationPath, ldbcfile.PersonStudyAtOrganisationHeader, id+"|5|2007")
		add(ldbcfile.PersonWorkAtOrganisationPath, ldbcfile.PersonWorkAtOrganisationHeader, id+"|6|2009")
	}
	// 933 - 1129 - 4398046511333 - 4398046512167, 933 - 4398046511333,
	// 8796093022237 - 8796093022244; 1129 - 8796093022237 joins them.
	knows := [][2]int{{933, 1129}, {1129, 4398046511333}, {4398046511333, 4398046512167}, {933, 4398046511333},
		{8796093022237, 8796093022244}, {1129, 8796093022237}, {4398046512167, 8796093022244}}
	for i, k := range knows {
		add(ldbcfile.PersonKnowsPersonPath, ldbcfile.PersonKnowsPersonHeader,
			strconv.Itoa(k[0])+"|"+strconv.Itoa(k[1])+"|"+date("2011-0"+strconv.Itoa(1+i)+"-01T10:00:00.000+0000"))
	}
	places := [][5]string{
		{strconv.Itoa(continent), "Asia", "http://dbpedia.org/resource/Asia", "continent", ""},
		{strconv.Itoa(country), "Sri_Lanka", "http://dbpedia.org/resource/Sri_Lanka", "country", strconv.Itoa(continent)},
		{strconv.Itoa(city), "Colombo", "http://dbpedia.org/resource/Colombo", "city", strconv.Itoa(country)},
	}
	for _, p := range places {
		if merge {
			add(ldbcfile.PlacePath, ldbcfile.PlaceMergeForeignHeader, strings.Join(p[:], "|"))
		} else {
			add(ldbcfile.PlacePath, ldbcfile.PlaceHeader, strings.Join(p[:4], "|"))
			add(ldbcfile.PlaceIsPartOfPlacePath, ldbcfile.PlaceIsPartOfPlaceHeader)
			if p[4] != "" {
				add(ldbcfile.PlaceIsPartOfPlacePath, ldbcfile.PlaceIsPartOfPlaceHeader, p[0]+"|"+p[4])
			}
		}
	}
	orgs := [][5]string{
		{"5", "university", "University_of_Colombo", "http://dbpedia.org/resource/University_of_Colombo", strconv.Itoa(city)},
		{"6", "company", "SriLankan_Airlines", "http://dbpedia.org/resource/SriLankan_Airlines", strconv.Itoa(country)},
	}
	for _, o := range orgs {
		if merge {
			add(ldbcfile.OrganisationPath, ldbcfile.OrganisationMergeForeignHeader, strings.Join(o[:], "|"))
		} else {
			add(ldbcfile.OrganisationPath, ldbcfile.OrganisationHeader, strings.Join(o[:4], "|"))
			add(ldbcfile.OrganisationIsLocatedInPlacePath, ldbcfile.OrganisationIsLocatedInPlaceHeader, o[0]+"|"+o[4])
		}
	}
	classes := [][4]string{
		{"211", "Thing", "http://www.w3.org/2002/07/owl#Thing", ""},
		{"212", "Person", "http://dbpedia.org/ontology/Person", "211"},
	}
	for _, c := range classes {
		if merge {
			add(ldbcfile.TagClassPath, ldbcfile.TagClassMergeForeignHeader, strings.Join(c[:], "|"))
		} else {
			add(ldbcfile.TagClassPath, ldbcfile.TagClassHeader, strings.Join(c[:3], "|"))
			add(ldbcfile.TagClassIsSubclassOfTagClassPath, ldbcfile.TagClassIsSubclassOfTagClassHeader)
			if c[3] != "" {
				add(ldbcfile.TagClassIsSubclassOfTagClassPath, ldbcfile.TagClassIsSubclassOfTagClassHeader, c[0]+"|"+c[3])
			}
		}
	}
	for _, tg := range [][4]string{{"1", "Hamid_Karzai", "http://dbpedia.org/resource/Hamid_Karzai", "212"},
		{"2", "Imran_Khan", "http://dbpedia.org/resource/Imran_Khan", "212"}, {"3", "Che_Guevara", "http://dbpedia.org/resource/Che_Guevara", "212"}} {
		if merge {
			add(ldbcfile.TagPath, ldbcfile.TagMergeForeignHeader, strings.Join(tg[:], "|"))
		} else {
			add(ldbcfile.TagPath, ldbcfile.TagHeader, strings.Join(tg[:3], "|"))
			add(ldbcfile.TagHasTypeTagClassPath, ldbcfile.TagHasTypeTagClassHeader, tg[0]+"|"+tg[3])
		}
	}
	add(ldbcfile.InteractiveParamPath(1), "personId|firstName", "933|Carmen", "4398046511333|Chen")
	add(ldbcfile.InteractiveParamPath(2), "personId|maxDate", "1129|"+date("2012-11-01T00:00:00.000+0000"), "933|"+date("2012-10-01T00:00:00.000+0000"))
	add(ldbcfile.InteractiveParamPath(13), "person1Id|person2Id", "933|8796093022244", "4398046512167|1129", "933|933")
	add(ldbcfile.DirDynamic+"/post_0_0.csv", "id|imageFile|creationDate|locationIP|browserUsed|language|content|length",
		"1236950581248||"+date("2011-08-17T14:26:59.961+0000")+"|10.1.2.183|Firefox|uz|About Che Guevara|17")
	out := map[string]string{}
	for p, lines := range files {
		out[p] = strings.Join(lines, "\n") + "\n"
	}
	return out
}

// WriteFiles writes files (paths relative to dir, as Official returns).
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
