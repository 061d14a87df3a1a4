package datagen

import (
	"context"
	"strconv"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// writeStatic writes the place, organisation, tag and tag class files and
// their relations. They depend on the dictionaries only, not on SF or seed.
func (g *generator) writeStatic(_ context.Context, o *outputs) error {
	d := g.dicts
	type table struct {
		rel, header string
		rows        func(emit func(fields ...string))
	}
	itoa := strconv.Itoa
	// In CsvMergeForeign the relation files are not written; their target
	// becomes the last column of the entity (empty where there is none).
	mf := g.mergeForeign
	col := func(fields []string, v string) []string {
		if mf {
			return append(fields, v)
		}
		return fields
	}
	header := func(basic, merged string) string {
		if mf {
			return merged
		}
		return basic
	}
	tables := []table{
		{ldbcfile.PlacePath, header(ldbcfile.PlaceHeader, ldbcfile.PlaceMergeForeignHeader), func(emit func(...string)) {
			for i, c := range d.countries {
				emit(col([]string{itoa(d.countryID(i)), c.name, ldbcfile.DBpediaResource + c.name, ldbcfile.PlaceCountry}, itoa(d.continentID(c.continent)))...)
			}
			for i, c := range d.cities {
				emit(col([]string{itoa(d.cityID(i)), c.name, ldbcfile.DBpediaResource + c.name, ldbcfile.PlaceCity}, itoa(d.countryID(c.country)))...)
			}
			for i, c := range d.continents {
				emit(col([]string{itoa(d.continentID(i)), c, ldbcfile.DBpediaResource + c, ldbcfile.PlaceContinent}, "")...)
			}
		}},
		{ldbcfile.PlaceIsPartOfPlacePath, ldbcfile.PlaceIsPartOfPlaceHeader, func(emit func(...string)) {
			for i, c := range d.countries {
				emit(itoa(d.countryID(i)), itoa(d.continentID(c.continent)))
			}
			for i, c := range d.cities {
				emit(itoa(d.cityID(i)), itoa(d.countryID(c.country)))
			}
		}},
		{ldbcfile.OrganisationPath, header(ldbcfile.OrganisationHeader, ldbcfile.OrganisationMergeForeignHeader), func(emit func(...string)) {
			for i, c := range d.companies {
				emit(col([]string{itoa(d.companyID(i)), ldbcfile.OrgCompany, c.name, ldbcfile.DBpediaResource + c.name}, itoa(d.countryID(c.place)))...)
			}
			for i, u := range d.universities {
				emit(col([]string{itoa(d.universityID(i)), ldbcfile.OrgUniversity, u.name, ldbcfile.DBpediaResource + u.name}, itoa(d.cityID(u.place)))...)
			}
		}},
		{ldbcfile.OrganisationIsLocatedInPlacePath, ldbcfile.OrganisationIsLocatedInPlaceHeader, func(emit func(...string)) {
			for i, c := range d.companies {
				emit(itoa(d.companyID(i)), itoa(d.countryID(c.place)))
			}
			for i, u := range d.universities {
				emit(itoa(d.universityID(i)), itoa(d.cityID(u.place)))
			}
		}},
		{ldbcfile.TagClassPath, header(ldbcfile.TagClassHeader, ldbcfile.TagClassMergeForeignHeader), func(emit func(...string)) {
			for i, c := range d.tagClasses {
				url := ldbcfile.DBpediaOntology + c.name
				parent := ""
				if c.parent < 0 {
					url = ldbcfile.OWLThing
				} else {
					parent = itoa(c.parent)
				}
				emit(col([]string{itoa(i), c.name, url}, parent)...)
			}
		}},
		{ldbcfile.TagClassIsSubclassOfTagClassPath, ldbcfile.TagClassIsSubclassOfTagClassHeader, func(emit func(...string)) {
			for i, c := range d.tagClasses {
				if c.parent >= 0 {
					emit(itoa(i), itoa(c.parent))
				}
			}
		}},
		{ldbcfile.TagPath, header(ldbcfile.TagHeader, ldbcfile.TagMergeForeignHeader), func(emit func(...string)) {
			for i, t := range d.tags {
				emit(col([]string{itoa(i), t.name, ldbcfile.DBpediaResource + t.name}, itoa(t.class))...)
			}
		}},
		{ldbcfile.TagHasTypeTagClassPath, ldbcfile.TagHasTypeTagClassHeader, func(emit func(...string)) {
			for i, t := range d.tags {
				emit(itoa(i), itoa(t.class))
			}
		}},
	}
	merged := map[string]bool{
		ldbcfile.PlaceIsPartOfPlacePath:           true,
		ldbcfile.OrganisationIsLocatedInPlacePath: true,
		ldbcfile.TagClassIsSubclassOfTagClassPath: true,
		ldbcfile.TagHasTypeTagClassPath:           true,
	}
	var buf []byte
	for _, t := range tables {
		if mf && merged[t.rel] {
			continue
		}
		f, err := o.create(t.rel, t.header)
		if err != nil {
			return err
		}
		buf = buf[:0]
		var rows int64
		t.rows(func(fields ...string) {
			for i, s := range fields {
				if i > 0 {
					buf = append(buf, '|')
				}
				buf = append(buf, s...)
			}
			buf = append(buf, '\n')
			rows++
		})
		if err := o.write(f, buf, rows); err != nil {
			return err
		}
	}
	o.report()
	return nil
}
