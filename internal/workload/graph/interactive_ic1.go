package graph

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// LDBC IC1, "transitive friends with a certain name": the persons with
// first name $2 within three KNOWS hops of person $1 (not $1), nearest
// first, then by last name and id, at most 20, each with a summary.
//
// Multi-valued cells are text: e-mails and languages sorted and joined by
// ';'; universities as name|classYear|cityName and companies as
// name|workFrom|countryName, sorted and joined by ';'; empty when there is
// none. Text sorts by bytes (PostgreSQL: COLLATE "C"), as Go compares
// strings, so that the reference can rebuild every cell.

// ic1Limit is IC1's row limit.
const ic1Limit = 20

// sqlIC1 finds the named persons level by level: friends (fr1), friends of
// friends (fr2), and named persons farther away (far) with a friend in fr2
// for distance 3, so that the third level is never materialised (joins,
// not correlated subqueries: SQLite would rebuild fr2's lookup for each).
func sqlIC1(postgres bool) string {
	coll := ""
	if postgres {
		coll = ` COLLATE "C"`
	}
	list := func(expr, from string) string {
		return "(SELECT COALESCE(string_agg(" + expr + ", ';' ORDER BY " + expr + coll + "), '') " + from + ")"
	}
	affil := func(rel, year string) string {
		expr := "o.name || '|' || CAST(r." + year + " AS TEXT) || '|' || pl.name"
		return list(expr, "FROM "+rel+" r JOIN organisation o ON o.id = r.organisationid"+
			" JOIN organisation_islocatedin_place ol ON ol.organisationid = o.id JOIN place pl ON pl.id = ol.placeid WHERE r.personid = top.id")
	}
	return "WITH " + strings.Replace(sqlFriends, "fr(fid)", "fr1(id)", 1) +
		", fr2(id) AS (SELECT k.person2id FROM fr1 CROSS JOIN person_knows_person k WHERE k.person1id = fr1.id" +
		" UNION SELECT k.person1id FROM fr1 CROSS JOIN person_knows_person k WHERE k.person2id = fr1.id)" +
		", named(id) AS (SELECT id FROM person WHERE firstname = $2 AND id <> $1)" +
		", far(id) AS (SELECT id FROM named WHERE id NOT IN (SELECT id FROM fr1) AND id NOT IN (SELECT id FROM fr2))" +
		", hit(id, dist) AS (SELECT id, 1 FROM named WHERE id IN (SELECT id FROM fr1)" +
		" UNION SELECT id, 2 FROM named WHERE id IN (SELECT id FROM fr2) AND id NOT IN (SELECT id FROM fr1)" +
		" UNION SELECT n.id, 3 FROM far n CROSS JOIN person_knows_person k CROSS JOIN fr2 f WHERE k.person1id = n.id AND f.id = k.person2id" +
		" UNION SELECT n.id, 3 FROM far n CROSS JOIN person_knows_person k CROSS JOIN fr2 f WHERE k.person2id = n.id AND f.id = k.person1id)" +
		", top(id, dist, lastname) AS (SELECT h.id, h.dist, p.lastname FROM hit h JOIN person p ON p.id = h.id" +
		" ORDER BY h.dist, p.lastname" + coll + ", h.id LIMIT " + strconv.Itoa(ic1Limit) + ")" +
		" SELECT top.id, p.lastname, top.dist, p.birthday, p.creationdate, p.gender, p.browserused, p.locationip, " +
		list("e.email", "FROM person_email_emailaddress e WHERE e.personid = top.id") + ", " +
		list("s.language", "FROM person_speaks_language s WHERE s.personid = top.id") + ", " +
		"(SELECT pl.name FROM person_islocatedin_place l JOIN place pl ON pl.id = l.placeid WHERE l.personid = top.id), " +
		affil("person_studyat_organisation", "classyear") + ", " + affil("person_workat_organisation", "workfrom") +
		" FROM top JOIN person p ON p.id = top.id ORDER BY top.dist, top.lastname" + coll + ", top.id"
}

// ic1 is IC1's reference answer: a breadth-first search to depth 3.
func (n *refNet) ic1(id int64, first string) [][]string {
	v, ok := n.vertex(id)
	if !ok {
		return nil
	}
	dist := map[int32]int{v: 0}
	level := []int32{v}
	type hit struct {
		v    int32
		dist int
	}
	var hits []hit
	for d := 1; d <= 3; d++ {
		var next []int32
		for _, u := range level {
			for _, w := range n.g.neighbours(u) {
				if _, seen := dist[w]; seen {
					continue
				}
				dist[w] = d
				next = append(next, w)
				if n.persons[w].first == first {
					hits = append(hits, hit{w, d})
				}
			}
		}
		level = next
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), strings.Compare(n.persons[a.v].last, n.persons[b.v].last),
			cmp.Compare(n.g.ids[a.v], n.g.ids[b.v]))
	})
	var out [][]string
	for _, h := range hits[:min(ic1Limit, len(hits))] {
		p := &n.persons[h.v]
		out = append(out, []string{cellInt(n.g.ids[h.v]), cellText(p.last), cellInt(int64(h.dist)),
			cellTime(p.birthday), cellTime(p.created), cellText(p.gender), cellText(p.browser), cellText(p.ip),
			cellText(p.emails), cellText(p.languages), n.placeCell(p.city),
			cellText(n.affiliations(p.study)), cellText(n.affiliations(p.work))})
	}
	return out
}

// affiliations is the IC1 cell of a person's universities or companies:
// name|year|placeName, sorted, joined by ';'.
func (n *refNet) affiliations(as []refAffil) string {
	items := make([]string, 0, len(as))
	for _, a := range as {
		o, ok := n.orgs[a.org]
		place, located := n.places[o.place]
		if ok && located { // as the SQL's inner joins
			items = append(items, o.name+"|"+strconv.Itoa(int(a.year))+"|"+place)
		}
	}
	slices.Sort(items)
	return strings.Join(items, ";")
}

// placeCell is the name of place id, null when there is no such place.
func (n *refNet) placeCell(id int64) string {
	if name, ok := n.places[id]; ok {
		return cellText(name)
	}
	return "null"
}

// refAffil is a person's studyAt or workAt: an organisation and the class
// year or work-from year.
type refAffil struct {
	org  int64
	year int32
}

// refOrg is an organisation's name and place (city of a university,
// country of a company).
type refOrg struct {
	name  string
	place int64
}

// sortedList joins the distinct values sorted by bytes with ';'.
func sortedList(vals []string) string {
	slices.Sort(vals)
	return strings.Join(slices.Compact(vals), ";")
}

// loadPeople reads what IC1 reports beyond the person file: e-mails,
// languages, studyAt, workAt, and the names of places and organisations.
func (n *refNet) loadPeople(read func(string, string, func([][]byte) error) error, person func([]byte) (int32, error)) error {
	emails := make([][]string, len(n.persons))
	langs := make([][]string, len(n.persons))
	list := func(to [][]string) func(f [][]byte) error {
		return func(f [][]byte) error {
			v, err := person(f[0])
			if err != nil {
				return err
			}
			to[v] = append(to[v], string(f[1]))
			return nil
		}
	}
	if err := read(ldbcfile.PersonEmailEmailaddressPath, ldbcfile.PersonEmailEmailaddressHeader, list(emails)); err != nil {
		return err
	}
	if err := read(ldbcfile.PersonSpeaksLanguagePath, ldbcfile.PersonSpeaksLanguageHeader, list(langs)); err != nil {
		return err
	}
	for v := range n.persons {
		n.persons[v].emails = sortedList(emails[v])
		n.persons[v].languages = sortedList(langs[v])
	}
	affil := func(get func(p *refPerson) *[]refAffil) func(f [][]byte) error {
		return func(f [][]byte) error {
			v, err := person(f[0])
			if err != nil {
				return err
			}
			org, err := ldbcfile.ParseID(f[1])
			if err != nil {
				return err
			}
			year, err := strconv.ParseInt(string(f[2]), 10, 32)
			as := get(&n.persons[v])
			*as = append(*as, refAffil{org, int32(year)})
			return err
		}
	}
	if err := read(ldbcfile.PersonStudyAtOrganisationPath, ldbcfile.PersonStudyAtOrganisationHeader, affil(func(p *refPerson) *[]refAffil { return &p.study })); err != nil {
		return err
	}
	if err := read(ldbcfile.PersonWorkAtOrganisationPath, ldbcfile.PersonWorkAtOrganisationHeader, affil(func(p *refPerson) *[]refAffil { return &p.work })); err != nil {
		return err
	}
	n.places, n.orgs = map[int64]string{}, map[int64]refOrg{}
	err := read(ldbcfile.PlacePath, ldbcfile.PlaceHeader, func(f [][]byte) error {
		id, err := ldbcfile.ParseID(f[0])
		n.places[id] = string(f[1])
		return err
	})
	if err != nil {
		return err
	}
	err = read(ldbcfile.OrganisationPath, ldbcfile.OrganisationHeader, func(f [][]byte) error {
		id, err := ldbcfile.ParseID(f[0])
		n.orgs[id] = refOrg{name: string(f[2]), place: -1}
		return err
	})
	if err != nil {
		return err
	}
	return read(ldbcfile.OrganisationIsLocatedInPlacePath, ldbcfile.OrganisationIsLocatedInPlaceHeader, func(f [][]byte) error {
		id, err := ldbcfile.ParseID(f[0])
		if err != nil {
			return err
		}
		o, ok := n.orgs[id]
		if !ok {
			return fmt.Errorf("unknown organisation %d", id)
		}
		o.place, err = ldbcfile.ParseID(f[1])
		n.orgs[id] = o
		return err
	})
}
