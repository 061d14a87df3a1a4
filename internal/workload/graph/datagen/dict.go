package datagen

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// dicts is the parsed form of the embedded dictionaries. It is built once
// per Generate call and read-only afterwards, so workers share it freely.
//
// Static entity ids (as written to the static files):
//
//	places:        countries 0..C-1, cities C..C+Y-1, continents after them
//	organisations: companies 0..K-1, universities K..K+U-1
//	tag classes:   line order of tagClassesText; tags: line order of tagsText
type dicts struct {
	continents []string
	countries  []country
	cities     []city
	countryCum []float64 // cumulative person share per country, ends at 1

	nameGroups []nameGroup

	browsers   []string
	browserCum []float64
	emails     []string

	companies    []org // place = country index
	universities []org // place = city index

	tagClasses []tagClass
	tags       []tag
	tagCum     []float64 // cumulative global tag popularity (Zipf)
	classTags  [][]int   // tag indexes per tag class
}

type country struct {
	name         string
	continent    int
	languages    []string
	names        int // index into nameGroups
	cities       []int
	companies    []int
	universities []int
	// hotTags are tags popular in this country: the main interests of
	// half of its persons come from them.
	hotTags []int
	ipA     byte // first octet of addresses in the country
	ipB     byte // base of the second octet
}

type city struct {
	name         string
	country      int
	universities []int
}

type nameGroup struct {
	male, female, last []string
}

type org struct {
	name  string
	place int
}

type tagClass struct {
	name   string
	parent int // -1 for the root
}

type tag struct {
	name  string
	class int
}

// Place and organisation ids.
func (d *dicts) countryID(c int) int   { return c }
func (d *dicts) cityID(c int) int      { return len(d.countries) + c }
func (d *dicts) continentID(c int) int { return len(d.countries) + len(d.cities) + c }
func (d *dicts) companyID(c int) int   { return c }
func (d *dicts) universityID(u int) int {
	return len(d.companies) + u
}

// hotTagsPerCountry is the size of each country's popular-tag set.
const hotTagsPerCountry = 12

// tagZipfExponent shapes global tag popularity: the tag of rank r has weight
// 1/r^tagZipfExponent.
const tagZipfExponent = 1.0

// newDicts parses the embedded dictionaries. It fails only if they are
// malformed, which the package tests rule out.
func newDicts() (*dicts, error) {
	d := &dicts{}
	groups := map[string]int{}
	for line := range strings.SplitSeq(namesText, "\n") {
		f := strings.Split(line, "|")
		if len(f) != 4 {
			return nil, fmt.Errorf("names: bad line %q", line)
		}
		groups[f[0]] = len(d.nameGroups)
		d.nameGroups = append(d.nameGroups, nameGroup{
			male: strings.Fields(f[1]), female: strings.Fields(f[2]), last: strings.Fields(f[3]),
		})
	}
	companyPatterns := strings.Split(companyPatternsText, "|")
	uniPatterns := strings.Split(universityPatternsText, "|")
	continents := map[string]int{}
	var total float64
	for line := range strings.SplitSeq(placesText, "\n") {
		f := strings.Split(line, "|")
		if len(f) != 6 {
			return nil, fmt.Errorf("places: bad line %q", line)
		}
		ci, ok := continents[f[0]]
		if !ok {
			ci = len(d.continents)
			continents[f[0]] = ci
			d.continents = append(d.continents, f[0])
		}
		g, ok := groups[f[3]]
		if !ok {
			return nil, fmt.Errorf("places: %s: unknown name group %q", f[1], f[3])
		}
		share, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			return nil, fmt.Errorf("places: %s: %w", f[1], err)
		}
		c := len(d.countries)
		h := mix64(uint64(c) + 0x51ed)
		co := country{
			name: f[1], continent: ci, languages: strings.Split(f[2], ","), names: g,
			ipA: byte(1 + h%222), ipB: byte(h >> 8 & 0xF0),
		}
		for _, p := range companyPatterns {
			co.companies = append(co.companies, len(d.companies))
			d.companies = append(d.companies, org{name: fmt.Sprintf(p, co.name), place: c})
		}
		for _, name := range strings.Split(f[5], ",") {
			y := len(d.cities)
			ct := city{name: name, country: c}
			for _, p := range uniPatterns {
				ct.universities = append(ct.universities, len(d.universities))
				co.universities = append(co.universities, len(d.universities))
				d.universities = append(d.universities, org{name: fmt.Sprintf(p, name), place: y})
			}
			co.cities = append(co.cities, y)
			d.cities = append(d.cities, ct)
		}
		d.countries = append(d.countries, co)
		total += share
		d.countryCum = append(d.countryCum, total)
	}
	for i := range d.countryCum {
		d.countryCum[i] /= total
	}

	for line := range strings.SplitSeq(browsersText, "\n") {
		name, share, _ := strings.Cut(line, "|")
		w, err := strconv.ParseFloat(share, 64)
		if err != nil {
			return nil, fmt.Errorf("browsers: %q: %w", line, err)
		}
		d.browsers = append(d.browsers, name)
		d.browserCum = append(d.browserCum, w)
	}
	cumulate(d.browserCum)
	d.emails = strings.Fields(emailDomainsText)

	if err := d.parseTags(); err != nil {
		return nil, err
	}
	if err := d.padToSpec(); err != nil {
		return nil, err
	}
	for c := range d.countries {
		hot := make([]int, 0, hotTagsPerCountry)
		for k := uint64(0); len(hot) < min(hotTagsPerCountry, len(d.tags)); k++ {
			t := int(hash3(int64(c), 0x7a65, k) % uint64(len(d.tags)))
			if !slices.Contains(hot, t) {
				hot = append(hot, t)
			}
		}
		d.countries[c].hotTags = hot
	}
	return d, nil
}

func (d *dicts) parseTags() error {
	classes := map[string]int{}
	for line := range strings.SplitSeq(tagClassesText, "\n") {
		name, parent, _ := strings.Cut(line, "|")
		p := -1
		if parent != "" {
			var ok bool
			if p, ok = classes[parent]; !ok {
				return fmt.Errorf("tag classes: %s: unknown parent %q", name, parent)
			}
		}
		classes[name] = len(d.tagClasses)
		d.tagClasses = append(d.tagClasses, tagClass{name: name, parent: p})
	}
	d.classTags = make([][]int, len(d.tagClasses))
	for line := range strings.SplitSeq(tagsText, "\n") {
		class, names, _ := strings.Cut(line, "|")
		c, ok := classes[class]
		if !ok {
			return fmt.Errorf("tags: unknown class %q", class)
		}
		for _, name := range strings.Fields(names) {
			d.classTags[c] = append(d.classTags[c], len(d.tags))
			d.tags = append(d.tags, tag{name: name, class: c})
		}
	}
	// Global popularity: a fixed pseudo-random rank per tag, Zipf weights.
	rank := make([]int, len(d.tags))
	for i := range rank {
		rank[i] = i
	}
	slices.SortFunc(rank, func(a, b int) int {
		return cmpUint64(mix64(uint64(a)^0x7a6), mix64(uint64(b)^0x7a6))
	})
	d.tagCum = make([]float64, len(d.tags))
	for r, t := range rank {
		d.tagCum[t] = 1 / math.Pow(float64(r+1), tagZipfExponent)
	}
	cumulate(d.tagCum)
	return nil
}

// cumulate turns weights into a cumulative distribution ending at 1.
func cumulate(w []float64) {
	var s float64
	for i, x := range w {
		s += x
		w[i] = s
	}
	for i := range w {
		w[i] /= s
	}
}

// pick returns the index i with cum[i-1] <= u < cum[i] for u in [0,1).
func pick(cum []float64, u float64) int {
	i, _ := slices.BinarySearch(cum, u)
	if i < len(cum) && cum[i] == u {
		i++
	}
	return min(i, len(cum)-1)
}

func cmpUint64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
