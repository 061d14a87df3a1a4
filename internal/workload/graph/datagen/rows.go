package datagen

import (
	"slices"
	"strconv"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// The person files, in the order chunks carry them.
const (
	filePerson = iota
	fileKnows
	fileLocatedIn
	fileInterest
	fileStudyAt
	fileWorkAt
	fileEmail
	fileSpeaks
	dynamicFiles
)

// dynamicFileSpecs returns path and header of each person file, indexed by
// the file constants above.
func dynamicFileSpecs() [dynamicFiles][2]string {
	return [dynamicFiles][2]string{
		filePerson:    {ldbcfile.PersonPath, ldbcfile.PersonHeader},
		fileKnows:     {ldbcfile.PersonKnowsPersonPath, ldbcfile.PersonKnowsPersonHeader},
		fileLocatedIn: {ldbcfile.PersonIsLocatedInPlacePath, ldbcfile.PersonIsLocatedInPlaceHeader},
		fileInterest:  {ldbcfile.PersonHasInterestTagPath, ldbcfile.PersonHasInterestTagHeader},
		fileStudyAt:   {ldbcfile.PersonStudyAtOrganisationPath, ldbcfile.PersonStudyAtOrganisationHeader},
		fileWorkAt:    {ldbcfile.PersonWorkAtOrganisationPath, ldbcfile.PersonWorkAtOrganisationHeader},
		fileEmail:     {ldbcfile.PersonEmailEmailaddressPath, ldbcfile.PersonEmailEmailaddressHeader},
		fileSpeaks:    {ldbcfile.PersonSpeaksLanguagePath, ldbcfile.PersonSpeaksLanguageHeader},
	}
}

// rowChunk holds the formatted rows of a range of persons for every person
// file.
type rowChunk struct {
	buf  [dynamicFiles][]byte
	rows [dynamicFiles]int64
	ev   evBuf // IU1 and IU8 operations (Config.UpdateStreams)
}

func (c *rowChunk) reset() {
	for i := range c.buf {
		c.buf[i] = c.buf[i][:0]
		c.rows[i] = 0
	}
	c.ev.reset()
}

// Secondary attribute shapes.
const (
	interestMean     = 25  // mean number of interests (besides the main one)
	interestMax      = 60  // cap on interests
	interestSameType = 0.5 // share of extra interests of the main interest's class
	englishShare     = 1.0 // share of persons who also speak English
	secondLanguage   = 0.8 // share who speak one more language, of another country
	workInHome       = 0.9 // share of employers in the home country
	lastWorkYear     = 2012
	knowsDelayMs     = 10_000 // a friendship starts at least this long after both persons joined
)

// emailCounts and workCounts are cumulative distributions of the number of
// e-mail addresses (1..4) and employers (0..4) per person.
func emailCounts() [4]float64 { return [4]float64{0.28, 0.68, 0.9, 1} }
func workCounts() [5]float64  { return [5]float64{0.05, 0.24, 0.58, 0.85, 1} }

// appendPersonRow formats the person_0_0.csv row of p.
func (g *generator) appendPersonRow(b []byte, p *person) []byte {
	b = strconv.AppendInt(b, p.id, 10)
	b = append(b, '|')
	b = append(b, g.firstName(p)...)
	b = append(b, '|')
	b = append(b, g.lastName(p)...)
	if p.female {
		b = append(b, "|female|"...)
	} else {
		b = append(b, "|male|"...)
	}
	b = ldbcfile.AppendDateDays(b, int64(p.birthday))
	b = append(b, '|')
	b = ldbcfile.AppendDateTimeMillis(b, p.created)
	b = append(b, '|')
	b = appendIP(b, p.ip)
	b = append(b, '|')
	b = append(b, g.dicts.browsers[p.browser]...)
	return append(b, '\n')
}

// appendIP appends ip in dotted-quad form.
func appendIP(b []byte, ip uint32) []byte {
	for i := 3; i >= 0; i-- {
		b = strconv.AppendUint(b, uint64(ip>>(8*i)&0xff), 10)
		if i > 0 {
			b = append(b, '.')
		}
	}
	return b
}

// appendPair appends "a|b\n".
func appendPair(b []byte, a, x int64) []byte {
	b = strconv.AppendInt(b, a, 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, x, 10)
	return append(b, '\n')
}

// knowsDate is the creation instant (Unix ms) of the friendship of persons
// a and b: between knowsDelayMs after the later of them joined and the end
// of the period, at from + span·x⁴ for x uniform in [0, 1) from a hash of
// the pair (so it needs no storage). Most friendships are made soon after
// the later person joined, as in LDBC's datagen, and about a quarter of
// them fall after the update cut-over (see Config.UpdateStreams).
func (g *generator) knowsDate(a, b uint32) int64 {
	if a > b {
		a, b = b, a
	}
	from := max(g.persons[a].created, g.persons[b].created) + knowsDelayMs
	span := endMs - from
	if span <= 1 {
		return from
	}
	h := hash3(g.seed, streamKnowsDate, uint64(a)<<32|uint64(b))
	x := float64(h>>11) / (1 << 53)
	x *= x
	x *= x
	return from + min(span-1, int64(x*float64(span)))
}

// appendPersonRows formats every row of person s into c. r is reseeded for
// the person's attribute stream. It sorts s's friend list in place. With
// update streams, a person who joined after the cut-over becomes an IU1
// and a friendship made after it an IU8 (in c.ev) instead of rows.
func (g *generator) appendPersonRows(r *rng, c *rowChunk, s uint32) {
	d := g.dicts
	p := &g.persons[s]
	// A person created after the update cut-over is formatted as usual
	// (the same random draws), then moved from the rows into an IU1.
	divert := g.streamed(p.created)
	var mark [dynamicFiles]int
	var markRows [dynamicFiles]int64
	if divert {
		for k := range c.buf {
			mark[k] = len(c.buf[k])
		}
		markRows = c.rows
	}
	c.buf[filePerson] = g.appendPersonRow(c.buf[filePerson], p)
	c.rows[filePerson]++
	if g.mergeForeign {
		pb := c.buf[filePerson]
		pb = append(pb[:len(pb)-1], '|')
		pb = strconv.AppendInt(pb, int64(d.cityID(int(p.city))), 10)
		c.buf[filePerson] = append(pb, '\n')
	}

	friends := g.graph.friends(s)
	slices.Sort(friends)
	kb := c.buf[fileKnows]
	for _, f := range friends {
		q := &g.persons[f]
		if p.id < q.id {
			date := g.knowsDate(s, f)
			if g.streamed(date) {
				c.ev.triple(ldbcfile.UpdateAddFriendship, max(p.created, q.created), p.id, q.id, date)
				continue
			}
			kb = strconv.AppendInt(kb, p.id, 10)
			kb = append(kb, '|')
			kb = strconv.AppendInt(kb, q.id, 10)
			kb = append(kb, '|')
			kb = ldbcfile.AppendDateTimeMillis(kb, date)
			kb = append(kb, '\n')
			c.rows[fileKnows]++
		}
	}
	c.buf[fileKnows] = kb

	if !g.mergeForeign {
		c.buf[fileLocatedIn] = appendPair(c.buf[fileLocatedIn], p.id, int64(d.cityID(int(p.city))))
		c.rows[fileLocatedIn]++
	}

	r.reset(g.seed, streamAttrs, uint64(s))
	g.appendSecondary(r, c, p)
	if divert {
		g.personEvent(&c.ev, p, c, &mark)
		for k := range c.buf {
			c.buf[k] = c.buf[k][:mark[k]]
		}
		c.rows = markRows
	}
}

// appendSecondary formats interests, study, work, e-mail and language rows.
func (g *generator) appendSecondary(r *rng, c *rowChunk, p *person) {
	d := g.dicts
	co := &d.countries[p.country]

	var interests [interestMax]int
	k := g.drawInterests(r, p, &interests)
	for _, t := range interests[:k] {
		c.buf[fileInterest] = appendPair(c.buf[fileInterest], p.id, int64(t))
	}
	c.rows[fileInterest] += int64(k)

	if p.univ >= 0 {
		b := appendPair(c.buf[fileStudyAt], p.id, int64(d.universityID(int(p.univ))))
		b = b[:len(b)-1]
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(p.classYear), 10)
		c.buf[fileStudyAt] = append(b, '\n')
		c.rows[fileStudyAt]++
	}

	wc := workCounts()
	nWork := pick(wc[:], r.Float64())
	var jobs [4]int
	for w := 0; w < nWork; w++ {
		comp := co.companies[r.IntN(len(co.companies))]
		if r.Float64() >= workInHome {
			comp = r.IntN(len(d.companies))
		}
		if slices.Contains(jobs[:w], comp) {
			nWork--
			w--
			continue
		}
		jobs[w] = comp
		from := yearOfDay(int64(p.birthday)) + 19 + r.IntN(8)
		if p.univ >= 0 {
			from = int(p.classYear) + 1 + r.IntN(4)
		}
		b := appendPair(c.buf[fileWorkAt], p.id, int64(d.companyID(comp)))
		b = b[:len(b)-1]
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(min(from, lastWorkYear)), 10)
		c.buf[fileWorkAt] = append(b, '\n')
		c.rows[fileWorkAt]++
	}

	ec := emailCounts()
	nMail := 1 + pick(ec[:], r.Float64())
	first := r.IntN(len(d.emails))
	for e := range nMail {
		b := strconv.AppendInt(c.buf[fileEmail], p.id, 10)
		b = append(b, '|')
		b = append(b, g.firstName(p)...)
		b = strconv.AppendInt(b, p.id, 10)
		b = append(b, '@')
		b = append(b, d.emails[(first+e)%len(d.emails)]...)
		c.buf[fileEmail] = append(b, '\n')
	}
	c.rows[fileEmail] += int64(nMail)

	english := false
	for _, l := range co.languages {
		c.buf[fileSpeaks] = appendLang(c.buf[fileSpeaks], p.id, l)
		english = english || l == "en"
	}
	c.rows[fileSpeaks] += int64(len(co.languages))
	if !english && r.Float64() < englishShare {
		c.buf[fileSpeaks] = appendLang(c.buf[fileSpeaks], p.id, "en")
		c.rows[fileSpeaks]++
	}
	if r.Float64() < secondLanguage {
		o := &d.countries[r.IntN(len(d.countries))]
		l := o.languages[r.IntN(len(o.languages))]
		if l != "en" && !slices.Contains(co.languages, l) {
			c.buf[fileSpeaks] = appendLang(c.buf[fileSpeaks], p.id, l)
			c.rows[fileSpeaks]++
		}
	}
}

// drawInterests draws the interests of p (its main interest first) into
// buf from r, which must be at the start of p's attribute stream, and
// returns how many there are.
func (g *generator) drawInterests(r *rng, p *person, buf *[interestMax]int) int {
	d := g.dicts
	k := 0
	buf[k] = int(p.interest)
	k++
	want := min(1+int(r.ExpFloat64()*interestMean), interestMax, len(d.tags))
	class := d.classTags[d.tags[p.interest].class]
	for tries := 0; k < want && tries < 4*interestMax; tries++ {
		var t int
		if r.Float64() < interestSameType {
			t = class[r.IntN(len(class))]
		} else {
			t = pick(d.tagCum, r.Float64())
		}
		if !slices.Contains(buf[:k], t) {
			buf[k] = t
			k++
		}
	}
	return k
}

func appendLang(b []byte, id int64, lang string) []byte {
	b = strconv.AppendInt(b, id, 10)
	b = append(b, '|')
	b = append(b, lang...)
	return append(b, '\n')
}
