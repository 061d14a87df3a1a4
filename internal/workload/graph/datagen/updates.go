package datagen

import (
	"bytes"
	"context"
	"slices"
	"strconv"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// Update streams (Config.UpdateStreams), as ldbc_snb_datagen_hadoop writes
// them: the network is cut at updateCutMs, 90% into the simulated period
// (LDBC's update portion is the last 10%). Whatever was created after the
// cut-over (a person with their attributes, a friendship, a forum with its
// tags, a membership, a post or comment with its tags and relations, a
// like) is left out of the bulk files and written as one insert operation
// (IU1..IU8) of an update stream instead. Causality makes the cut clean:
// everything refers only to things created before it, so nothing in the
// bulk files refers to the streams.
const updateCutMs = endMs - (endMs-startMs)/10 // 2012-09-13T09:36:00Z

// The two streams.
const (
	streamPersonUpdates = iota // IU1 and IU8
	streamForumUpdates         // IU2..IU7
	updateStreamCount
)

// evBuf collects the update operations of one chunk, each a full stream
// line, in generation order.
type evBuf struct {
	b    []byte
	keys []evKey
}

// evKey is one operation in an evBuf: its scheduled time and where its
// line ends in evBuf.b.
type evKey struct {
	t   int64
	end int
}

func (e *evBuf) reset() {
	e.b = e.b[:0]
	e.keys = e.keys[:0]
}

// begin starts an operation line: "t|dep|typ|".
func (e *evBuf) begin(t, dep int64, typ int) {
	b := strconv.AppendInt(e.b, t, 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, dep, 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(typ), 10)
	e.b = append(b, '|')
	e.keys = append(e.keys, evKey{t: t, end: -1})
}

// end finishes the operation begun last.
func (e *evBuf) end() {
	e.b = append(e.b, '\n')
	e.keys[len(e.keys)-1].end = len(e.b)
}

// num appends x.
func (e *evBuf) num(x int64) {
	e.b = strconv.AppendInt(e.b, x, 10)
}

// sep appends a field separator.
func (e *evBuf) sep() { e.b = append(e.b, '|') }

// triple writes a whole operation of three id|id|date fields (IU2, IU3,
// IU5, IU8).
func (e *evBuf) triple(typ int, dep, a, b, t int64) {
	e.begin(t, dep, typ)
	e.num(a)
	e.sep()
	e.num(b)
	e.sep()
	e.num(t)
	e.end()
}

// tagList appends ids joined by ';'.
func (e *evBuf) tagList(tags []int) {
	for i, t := range tags {
		if i > 0 {
			e.b = append(e.b, ';')
		}
		e.b = strconv.AppendInt(e.b, int64(t), 10)
	}
}

// streamed reports whether something created at t (Unix ms) goes to an
// update stream rather than to the bulk files.
func (g *generator) streamed(t int64) bool { return g.updates && t > updateCutMs }

// inBulk reports whether person s is in the bulk files.
func (g *generator) inBulk(s uint32) bool { return !g.streamed(g.persons[s].created) }

// bulkPersons drops from ss the persons that are not in the bulk files
// (with update streams, the substitution parameters name only those).
func (g *generator) bulkPersons(ss []uint32) []uint32 {
	if !g.updates {
		return ss
	}
	return slices.DeleteFunc(ss, func(s uint32) bool { return !g.inBulk(s) })
}

// bulkPairs drops the pairs with a person not in the bulk files.
func (g *generator) bulkPairs(pairs [][2]uint32) [][2]uint32 {
	if !g.updates {
		return pairs
	}
	return slices.DeleteFunc(pairs, func(p [2]uint32) bool { return !g.inBulk(p[0]) || !g.inBulk(p[1]) })
}

// appendListFromRows appends, from rows formatted "owner|a\n" or
// "owner|a|b\n", the items "a" or "a,b" joined by ';': how IU1 carries a
// person's interests, e-mails, languages, studyAt and workAt.
func appendListFromRows(dst, rows []byte) []byte {
	first := true
	for len(rows) > 0 {
		line := rows
		if i := bytes.IndexByte(rows, '\n'); i >= 0 {
			line, rows = rows[:i], rows[i+1:]
		} else {
			rows = nil
		}
		_, item, _ := bytes.Cut(line, []byte{'|'})
		if !first {
			dst = append(dst, ';')
		}
		first = false
		for _, c := range item {
			if c == '|' {
				c = ','
			}
			dst = append(dst, c)
		}
	}
	return dst
}

// personEvent writes IU1 for person p from the rows its secondary
// attributes were just formatted into (interests, study, work, e-mail and
// language rows, each from the given offset of the chunk's buffers).
func (g *generator) personEvent(e *evBuf, p *person, c *rowChunk, from *[dynamicFiles]int) {
	d := g.dicts
	e.begin(p.created, 0, ldbcfile.UpdateAddPerson)
	b := strconv.AppendInt(e.b, p.id, 10)
	b = append(b, '|')
	b = append(b, g.firstName(p)...)
	b = append(b, '|')
	b = append(b, g.lastName(p)...)
	if p.female {
		b = append(b, "|female|"...)
	} else {
		b = append(b, "|male|"...)
	}
	b = strconv.AppendInt(b, int64(p.birthday)*dayMs, 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, p.created, 10)
	b = append(b, '|')
	b = appendIP(b, p.ip)
	b = append(b, '|')
	b = append(b, d.browsers[p.browser]...)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(d.cityID(int(p.city))), 10)
	for _, k := range [...]int{fileSpeaks, fileEmail, fileInterest, fileStudyAt, fileWorkAt} {
		b = append(b, '|')
		b = appendListFromRows(b, c.buf[k][from[k]:])
	}
	e.b = b
	e.end()
}

// startUpdates makes the sorters of the update streams (when enabled).
func (g *generator) startUpdates(tmpRoot string) {
	if !g.updates {
		return
	}
	for i := range g.sorters {
		g.sorters[i] = newSorter(tmpRoot, updateCutMs, g.sortBudget)
	}
}

// writeUpdateStreams writes each stream's operations sorted by scheduled
// time (ties in generation order), headerless, as the Hadoop datagen does,
// then updateStream.properties for the LDBC driver.
func (g *generator) writeUpdateStreams(ctx context.Context, o *outputs) error {
	var sum streamSummary
	for i, path := range ldbcfile.UpdateStreamFiles() {
		s := g.sorters[i]
		f, err := o.create(path, "")
		if err != nil {
			return err
		}
		err = s.drain(ctx, func(t int64, line []byte) error {
			if err := o.write(f, line, 1); err != nil {
				return err
			}
			if sum.add(t); sum.n%65536 == 0 {
				o.report()
			}
			return nil
		})
		if err != nil {
			return err
		}
		o.report()
	}
	f, err := o.create(ldbcfile.UpdateStreamPropertiesPath, "")
	if err != nil {
		return err
	}
	return o.write(f, sum.properties(), 0)
}

// streamSummary is what updateStream.properties says about the streams.
type streamSummary struct {
	n, min, max int64
}

func (s *streamSummary) add(t int64) {
	if s.n == 0 || t < s.min {
		s.min = t
	}
	s.max = max(s.max, t)
	s.n++
}

// gctDeltaMs is the Hadoop datagen's default delta time (its
// ldbc.snb.datagen.generator.deltaTime), which it reports as the
// driver's gct_delta_duration.
const gctDeltaMs = 10_000

// properties formats the driver properties as the Hadoop datagen writes
// them: "key:value" lines; update_interleave is the mean time between two
// operations (ms).
func (s *streamSummary) properties() []byte {
	interleave := int64(0)
	if s.n > 0 {
		interleave = (s.max - s.min) / s.n
	}
	var b []byte
	for _, kv := range []struct {
		k string
		v int64
	}{
		{"gct_delta_duration", gctDeltaMs},
		{"min_write_event_start_time", s.min},
		{"max_write_event_start_time", s.max},
		{"update_interleave", interleave},
		{"num_events", s.n},
	} {
		b = append(b, "ldbc.snb.interactive."...)
		b = append(b, kv.k...)
		b = append(b, ':')
		b = strconv.AppendInt(b, kv.v, 10)
		b = append(b, '\n')
	}
	return b
}

// closeUpdates removes the sorters' temporary files.
func (g *generator) closeUpdates() {
	for _, s := range g.sorters {
		if s != nil {
			s.close()
		}
	}
}
