package datagen

// person is the compact in-memory form of one person: what the knows passes
// and the writers need. Secondary attributes (e-mails, languages,
// interests, employers) are drawn again from the person's own random stream
// when the rows are written, so they cost no memory.
type person struct {
	id        int64
	created   int64 // Unix ms
	birthday  int32 // days since 1970-01-01
	univ      int32 // university index, -1 for none
	ip        uint32
	city      uint16
	country   uint16
	interest  uint16 // main interest: tag index
	degree    uint16 // target number of friends
	classYear uint16
	first     uint8 // index into the name group's first names
	last      uint8 // index into the name group's last names
	female    bool
	browser   uint8
}

// Share of persons who studied at a university, and of those the share
// whose university is in their home city (else elsewhere in their country).
const (
	studyShare      = 0.79
	studyInHomeCity = 0.7
	hotInterest     = 0.5 // share of main interests from the country's hot tags
)

// newPerson draws the core attributes of the person with index seq; r is
// reseeded for (seed, streamPerson, seq). createdFrom and createdSpan bound
// the creation instant (Unix ms).
func (g *generator) newPerson(r *rng, seq int64, createdFrom, createdSpan int64) person {
	d := g.dicts
	r.reset(g.seed, streamPerson, uint64(seq))
	c := pick(d.countryCum, r.Float64())
	co := &d.countries[c]
	names := &d.nameGroups[co.names]
	p := person{
		country:  uint16(c),
		city:     uint16(co.cities[r.IntN(len(co.cities))]),
		female:   r.IntN(2) == 1,
		birthday: int32(birthFirstDay + r.Int64N(birthLastDay-birthFirstDay+1)),
		created:  createdFrom + r.Int64N(createdSpan),
		browser:  uint8(pick(d.browserCum, r.Float64())),
		univ:     -1,
	}
	if p.female {
		p.first = uint8(r.IntN(len(names.female)))
	} else {
		p.first = uint8(r.IntN(len(names.male)))
	}
	p.last = uint8(r.IntN(len(names.last)))
	p.ip = uint32(co.ipA)<<24 | uint32(co.ipB+byte(r.IntN(16)))<<16 | uint32(r.IntN(1<<16))
	if r.Float64() < studyShare {
		unis := co.universities
		if r.Float64() < studyInHomeCity {
			unis = d.cities[p.city].universities
		}
		p.univ = int32(unis[r.IntN(len(unis))])
		p.classYear = uint16(yearOfDay(int64(p.birthday)) + 18 + r.IntN(6))
	}
	if r.Float64() < hotInterest {
		p.interest = uint16(co.hotTags[r.IntN(len(co.hotTags))])
	} else {
		p.interest = uint16(pick(d.tagCum, r.Float64()))
	}
	p.id = personID(seq, p.created)
	return p
}

// yearOfDay is the calendar year of a day count since 1970-01-01.
func yearOfDay(days int64) int {
	y, _, _ := civil(days)
	return int(y)
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date.
func civil(days int64) (y, m, d int64) {
	z := days + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// firstName and lastName resolve a person's name indexes.
func (g *generator) firstName(p *person) string {
	ng := &g.dicts.nameGroups[g.dicts.countries[p.country].names]
	if p.female {
		return ng.female[p.first]
	}
	return ng.male[p.first]
}

func (g *generator) lastName(p *person) string {
	return g.dicts.nameGroups[g.dicts.countries[p.country].names].last[p.last]
}
