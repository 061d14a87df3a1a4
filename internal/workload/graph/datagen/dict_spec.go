package datagen

import (
	"fmt"
	"math"
	"slices"
)

// Dictionary sizes of the LDBC SNB specification (the static part of its
// entity table, the same at every scale factor).
const (
	specContinents   = 6
	specCountries    = 111
	specCities       = 1_343 // 6 + 111 + 1,343 = 1,460 places
	specCompanies    = 1_575
	specUniversities = 6_380 // 1,575 + 6,380 = 7,955 organisations
	specTagClasses   = 71
	specTags         = 16_080
)

// padToSpec grows the embedded dictionaries to the specification's sizes
// with synthesised entries: countries named Country_NNN (no persons live
// in them), cities <Country>_City_N, companies <Country>_Company_N,
// universities <City>_University_N, tag classes <Parent>_Class_N and tags
// <Class>_Tag_N. The real (DBpedia) names come first and stay the most
// popular: global tag popularity is Zipf over the real tags in a fixed
// pseudo-random order, then the synthesised ones. It is deterministic and
// independent of the seed.
func (d *dicts) padToSpec() error {
	if len(d.continents) != specContinents {
		return fmt.Errorf("places: %d continents, want %d", len(d.continents), specContinents)
	}
	for c := len(d.countries); c < specCountries; c++ {
		h := mix64(uint64(c) + 0x51ed)
		co := country{
			name: fmt.Sprintf("Country_%03d", c), continent: c % specContinents,
			languages: []string{"en"}, names: int(h % uint64(len(d.nameGroups))),
			ipA: byte(1 + h%222), ipB: byte(h >> 8 & 0xF0),
		}
		d.countries = append(d.countries, co)
		d.countryCum = append(d.countryCum, 1) // share 0: cumulative stays at 1
	}
	// Every synthesised country gets one city first, then cities go
	// round-robin over all countries.
	for k := 0; len(d.cities) < specCities; k++ {
		c := k % specCountries
		if k < specCountries && len(d.countries[c].cities) > 0 {
			continue
		}
		co := &d.countries[c]
		y := len(d.cities)
		d.cities = append(d.cities, city{name: fmt.Sprintf("%s_City_%d", co.name, len(co.cities)+1), country: c})
		co.cities = append(co.cities, y)
	}
	for k := 0; len(d.companies) < specCompanies; k++ {
		c := k % specCountries
		co := &d.countries[c]
		co.companies = append(co.companies, len(d.companies))
		d.companies = append(d.companies, org{name: fmt.Sprintf("%s_Company_%d", co.name, len(co.companies)), place: c})
	}
	for k := 0; len(d.universities) < specUniversities; k++ {
		y := k % specCities
		ct := &d.cities[y]
		u := len(d.universities)
		ct.universities = append(ct.universities, u)
		d.countries[ct.country].universities = append(d.countries[ct.country].universities, u)
		d.universities = append(d.universities, org{name: fmt.Sprintf("%s_University_%d", ct.name, len(ct.universities)), place: y})
	}
	real := len(d.tagClasses)
	for k := 0; len(d.tagClasses) < specTagClasses; k++ {
		p := 1 + k%(real-1) // any real class but the root
		d.tagClasses = append(d.tagClasses, tagClass{name: fmt.Sprintf("%s_Class_%d", d.tagClasses[p].name, k/(real-1)+1), parent: p})
		d.classTags = append(d.classTags, nil)
	}
	realTags := len(d.tags)
	for k := 0; len(d.tags) < specTags; k++ {
		c := 1 + k%(specTagClasses-1)
		d.classTags[c] = append(d.classTags[c], len(d.tags))
		d.tags = append(d.tags, tag{name: fmt.Sprintf("%s_Tag_%d", d.tagClasses[c].name, len(d.classTags[c])), class: c})
	}
	// Popularity ranks: real tags first, each group in a fixed
	// pseudo-random order.
	rank := make([]int, len(d.tags))
	for i := range rank {
		rank[i] = i
	}
	order := func(a, b int) int { return cmpUint64(mix64(uint64(a)^0x7a6), mix64(uint64(b)^0x7a6)) }
	slices.SortFunc(rank[:realTags], order)
	slices.SortFunc(rank[realTags:], order)
	d.tagCum = make([]float64, len(d.tags))
	for r, t := range rank {
		d.tagCum[t] = 1 / math.Pow(float64(r+1), tagZipfExponent)
	}
	cumulate(d.tagCum)
	return nil
}
