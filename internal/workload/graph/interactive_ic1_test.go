package graph

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
)

// ic1Graph is a hand-built network for IC1. From person 1 ("Ann Start"):
// 2, 3 and 5 are friends (distance 1); 4, 8, 9 and 10 at distance 2; 6 at
// 3; 7 at 4, out of reach. Persons 2, 4, 5, 6, 7, 8 and 9 are named Bob;
// 8 and 9 share a last name (ordered by id), and 4's lower-case last name
// sorts after theirs by bytes (it would not in a natural-language
// collation). Person 2 has two e-mails, two languages, two universities
// and a company, listed out of order; person 5 has none.
func ic1Graph() map[string]string {
	files := map[string]string{}
	add := func(path, header string, rows ...string) {
		files[path] = header + "\n" + strings.Join(append(rows, ""), "\n")
		if len(rows) == 0 {
			files[path] = header + "\n"
		}
	}
	person := func(id, first, last string) string {
		return id + "|" + first + "|" + last + "|male|" + ic1Birthday(id) + "|2010-01-01T00:00:00.000+0000|1.2.3." + id + "|Firefox"
	}
	add(ldbcfile.PersonPath, ldbcfile.PersonHeader,
		person("1", "Ann", "Start"), person("2", "Bob", "A"), person("3", "Carl", "B"), person("4", "Bob", "b"),
		person("5", "Bob", "C"), person("6", "Bob", "M"), person("7", "Bob", "X"), person("8", "Bob", "Y"),
		person("9", "Bob", "Y"), person("10", "Ann", "Other"))
	var knows []string
	for _, e := range []string{"1|2", "1|3", "5|1", "2|4", "4|5", "3|8", "9|2", "4|6", "6|7", "3|10"} {
		knows = append(knows, e+"|2011-01-01T00:00:00.000+0000")
	}
	add(ldbcfile.PersonKnowsPersonPath, ldbcfile.PersonKnowsPersonHeader, knows...)
	var located []string
	for _, id := range []string{"1", "2", "3", "4", "6", "7", "8", "9", "10"} {
		located = append(located, id+"|100")
	}
	add(ldbcfile.PersonIsLocatedInPlacePath, ldbcfile.PersonIsLocatedInPlaceHeader, append(located, "5|101")...)
	add(ldbcfile.PersonEmailEmailaddressPath, ldbcfile.PersonEmailEmailaddressHeader, "2|b@x", "2|a@x", "4|bob4@x")
	add(ldbcfile.PersonSpeaksLanguagePath, ldbcfile.PersonSpeaksLanguageHeader, "2|en", "2|de")
	add(ldbcfile.PersonStudyAtOrganisationPath, ldbcfile.PersonStudyAtOrganisationHeader, "2|200|2005", "2|201|2001")
	add(ldbcfile.PersonWorkAtOrganisationPath, ldbcfile.PersonWorkAtOrganisationHeader, "2|300|2010", "6|300|2012")
	add(ldbcfile.PersonHasInterestTagPath, ldbcfile.PersonHasInterestTagHeader)
	add(ldbcfile.PlacePath, ldbcfile.PlaceHeader, "100|Berlin|u|city", "101|Paris|u|city", "110|Germany|u|country")
	add(ldbcfile.PlaceIsPartOfPlacePath, ldbcfile.PlaceIsPartOfPlaceHeader, "100|110")
	add(ldbcfile.OrganisationPath, ldbcfile.OrganisationHeader, "200|university|Uni Z|u", "201|university|Uni A|u", "300|company|Acme|u")
	add(ldbcfile.OrganisationIsLocatedInPlacePath, ldbcfile.OrganisationIsLocatedInPlaceHeader, "200|100", "201|101", "300|110")
	for _, f := range []ldbcfile.File{{Path: ldbcfile.TagPath, Header: ldbcfile.TagHeader}, {Path: ldbcfile.TagHasTypeTagClassPath, Header: ldbcfile.TagHasTypeTagClassHeader},
		{Path: ldbcfile.TagClassPath, Header: ldbcfile.TagClassHeader}, {Path: ldbcfile.TagClassIsSubclassOfTagClassPath, Header: ldbcfile.TagClassIsSubclassOfTagClassHeader}} {
		add(f.Path, f.Header)
	}
	for _, f := range ldbcfile.ActivityFiles() {
		add(f.Path, f.Header)
	}
	return files
}

// ic1Birthday is person id's birthday in ic1Graph: January, day id.
func ic1Birthday(id string) string {
	if len(id) == 1 {
		id = "0" + id
	}
	return "1990-01-" + id
}

// IC1's SQL on both databases and the reference give the hand-computed
// answers on ic1Graph.
func TestIC1HandBuilt(t *testing.T) {
	data := t.TempDir()
	ldbctest.WriteFiles(t, data, ic1Graph())
	ref, err := loadRefGraph(data, 0)
	if err != nil {
		t.Fatal(err)
	}
	net, err := loadRefNet(data, ref)
	if err != nil {
		t.Fatal(err)
	}
	row := func(id, last string, dist int64, emails, langs, city, unis, companies string) []string {
		bd, _ := time.Parse(ldbcfile.DateLayout, ic1Birthday(id))
		cr, _ := time.Parse(ldbcfile.DateLayout, "2010-01-01")
		return []string{id, cellText(last), cellInt(dist), cellTime(bd.UnixMilli()), cellTime(cr.UnixMilli()), cellText("male"),
			cellText("Firefox"), cellText("1.2.3." + id), cellText(emails), cellText(langs), cellText(city), cellText(unis), cellText(companies)}
	}
	cases := []struct {
		name  string
		id    int64
		first string
		want  [][]string
	}{
		{"nearest first, then last name by bytes, then id; 4 hops away is out", 1, "Bob", [][]string{
			row("2", "A", 1, "a@x;b@x", "de;en", "Berlin", "Uni A|2001|Paris;Uni Z|2005|Berlin", "Acme|2010|Germany"),
			row("5", "C", 1, "", "", "Paris", "", ""),
			row("8", "Y", 2, "", "", "Berlin", "", ""),
			row("9", "Y", 2, "", "", "Berlin", "", ""),
			row("4", "b", 2, "bob4@x", "", "Berlin", "", ""),
			row("6", "M", 3, "", "", "Berlin", "", "Acme|2012|Germany"),
		}},
		{"the start person is not its own match", 1, "Ann", [][]string{row("10", "Other", 2, "", "", "Berlin", "", "")}},
		{"nobody within three hops", 7, "Ann", nil},
		{"no such name", 1, "Zed", nil},
		{"no such person", 99, "Bob", nil},
	}
	for _, c := range cases {
		if got := net.ic1(c.id, c.first); !equalRows(got, c.want) {
			t.Errorf("reference %s: %v\ngot  %v\nwant %v", c.name, answerDiff(got, c.want), got, c.want)
		}
	}
	for name, tgt := range loadedTargets(t, data) {
		t.Run(name, func(t *testing.T) {
			u, _ := drivers().ParseTarget(tgt)
			drv, err := drivers().Open(t.Context(), u, driver.Options{PoolSize: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer drv.Close()
			conn, err := drv.Conn(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			for _, c := range cases {
				var got [][]string
				res := conn.(rowsDoer).DoRows(t.Context(), &driver.Op{Query: sqlIC1(name == "postgres"), Args: []any{c.id, c.first}}, func(vals []any) error {
					cells := make([]string, len(vals))
					for k, v := range vals {
						cells[k] = canonCell(v)
					}
					got = append(got, cells)
					return nil
				})
				if res.Err != nil {
					t.Fatalf("%s: %v", c.name, res.Err)
				}
				if !equalRows(got, c.want) {
					t.Errorf("%s: %v\ngot  %v\nwant %v", c.name, answerDiff(got, c.want), got, c.want)
				}
			}
		})
	}
}

// IC1's limit keeps the 20 nearest.
func TestIC1Limit(t *testing.T) {
	files := ic1Graph()
	var persons, knows []string
	for i := 20; i < 45; i++ { // 25 more friends of person 1, all named Bob
		id := strconv.Itoa(i)
		persons = append(persons, id+"|Bob|L"+id+"|male|1990-01-01|2010-01-01T00:00:00.000+0000|1.2.3.4|Firefox")
		knows = append(knows, "1|"+id+"|2011-01-01T00:00:00.000+0000")
	}
	files[ldbcfile.PersonPath] += strings.Join(persons, "\n") + "\n"
	files[ldbcfile.PersonKnowsPersonPath] += strings.Join(knows, "\n") + "\n"
	data := t.TempDir()
	ldbctest.WriteFiles(t, data, files)
	ref, err := loadRefGraph(data, 0)
	if err != nil {
		t.Fatal(err)
	}
	net, err := loadRefNet(data, ref)
	if err != nil {
		t.Fatal(err)
	}
	got := net.ic1(1, "Bob")
	if len(got) != ic1Limit {
		t.Fatalf("%d rows, want %d", len(got), ic1Limit)
	}
	for _, r := range got {
		if r[2] != "1" {
			t.Errorf("row %v: distance %s, want only friends", r[0], r[2])
		}
	}
}

// The embedded target loads the forum and message tables only for the
// Interactive scenarios that read them.
func TestNeedsActivity(t *testing.T) {
	for name, want := range map[string]bool{IC1: false, IC13: false, IS1: true, IC2: true, IC9: true, Go1Step: false, FetchTag: false} {
		if got := needsActivity(name); got != want {
			t.Errorf("needsActivity(%s) = %v, want %v", name, got, want)
		}
	}
}

// On LDBC's own data sets (no interactive_person.csv) IC1 takes its rows
// from LDBC's interactive_1_param.txt; with neither file it is a usage
// error naming both, before any query.
func TestIC1OnLDBCParams(t *testing.T) {
	data := t.TempDir()
	ldbctest.WriteFiles(t, data, ldbctest.Official("CsvBasic", false))
	tgt := loadedTargets(t, data)["sqlite"]
	env, _ := testEnv(t, tgt)
	f := newFamily(t, "--data", data, "--check-sample", "0")
	opened, err := f.Open(t.Context(), env, []string{IC1})
	if err != nil {
		t.Fatal(err)
	}
	snap := run(t, env.Metrics, IC1, opened.Scenarios[IC1], 1, 4)
	opened.Close()
	if len(snap.Errors) > 0 || snap.Counters[metrics.Requests] != 4 {
		t.Errorf("IC1 on LDBC's parameters: %d requests, errors %v", snap.Counters[metrics.Requests], snap.Errors)
	}
	if err := os.Remove(filepath.Join(data, filepath.FromSlash(ldbcfile.InteractiveParamPath(1)))); err != nil {
		t.Fatal(err)
	}
	_, err = newFamily(t, "--data", data, "--check-sample", "0").Open(t.Context(), env, []string{IC1})
	if err == nil || !strings.Contains(err.Error(), "interactive_1_param.txt") || !strings.Contains(err.Error(), "interactive_person.csv") {
		t.Errorf("without parameter files: %v", err)
	}
}

// Answer checks of the Interactive scenarios need the CsvBasic files: on
// a CsvMergeForeign data set they are a usage error naming the way out.
func TestInteractiveChecksNeedCsvBasic(t *testing.T) {
	data := t.TempDir()
	ldbctest.WriteFiles(t, data, ldbctest.Official("CsvMergeForeign", false))
	tgt := loadedTargets(t, data)["sqlite"]
	env, _ := testEnv(t, tgt)
	_, err := newFamily(t, "--data", data, "--check-sample", "1").Open(t.Context(), env, []string{IC1})
	if err == nil || !strings.Contains(err.Error(), "is CsvMergeForeign: run with --check-sample 0") {
		t.Errorf("err = %v", err)
	}
}
