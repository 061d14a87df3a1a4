package ngqlload

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// reject is a row the loader does not insert (an unknown person, a
// repeated person or friendship, an id no vid encodes): it goes to the
// failed file with Reason and the line as read. It wraps
// ldbcfile.ErrMalformed so that the Reader reports the line.
type reject struct{ reason string }

func (r *reject) Error() string        { return r.reason }
func (r *reject) Is(target error) bool { return target == ldbcfile.ErrMalformed }

// reservedWords are NebulaGraph 3.x's reserved keywords (its "Keywords"
// page), lower case. A name that is one (Tag, the load record's format)
// must be written backquoted; keywords are case-insensitive.
var reservedWords = strings.Fields(`across add alter and as asc ascending balance bool by case change
compact create date datetime delete desc descending describe distinct double download drop edge
edges exists explain fetch find fixed_string float flush format from get go grant if
ignore_existed_index in index indexes ingest insert int int16 int32 int64 int8 intersect is limit
list lookup map match minus no not not_in null of offset on or order over overwrite profile prop
rebuild recover remove restart return reversely revoke set show step steps stop string submit tag
tags time timestamp to union update upsert upto use vertex vertices when where with xor yield`)

// name writes a tag, edge type or property name as a statement needs it:
// backquoted when it is a reserved word.
func name(n string) string {
	if slices.Contains(reservedWords, strings.ToLower(n)) {
		return "`" + n + "`"
	}
	return n
}

// insertHead is "INSERT VERTEX T(p, ...) VALUES " of t.
func insertHead(t Type) string {
	var b strings.Builder
	if t.Edge {
		b.WriteString("INSERT EDGE ")
	} else {
		b.WriteString("INSERT VERTEX ")
	}
	b.WriteString(name(t.Name))
	b.WriteByte('(')
	for i, p := range t.Props {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name(p.Name))
	}
	b.WriteString(") VALUES ")
	return b.String()
}

// pending is the batch being built for one type.
type pending struct {
	t     Type
	head  string
	buf   []byte
	rows  int
	first int // line of the first row
}

// plan is what Load reads: the specs of the files present, in order, and
// the layout of the data set.
type plan struct {
	layout string
	files  []plannedFile
	// emailParts and speaksParts are the side files of Person.email and
	// Person.speaks (none in the composite layouts).
	emailParts, speaksParts []string
	activity                bool
}

type plannedFile struct {
	spec  fileSpec
	parts []string
}

// planLoad checks that dir holds a data set Load can read, before any
// work: the person file in a known layout, every file of that layout
// (the activity files all or none). Problems are usage errors.
func planLoad(dir string) (*plan, error) {
	layout, err := ldbcfile.DetectLayout(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usage.Errorf("no LDBC data in %s: generate it with stampede gen ldbc --out %s", dir, dir)
		}
		return nil, usage.Errorf("data set %s: %v", dir, err)
	}
	p := &plan{layout: layout}
	var present, absent []string
	for _, fsp := range fileSpecs() {
		if slices.Contains(fsp.merged, layout) {
			continue
		}
		parts, err := ldbcfile.Parts(dir, fsp.path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, usage.Errorf("data set %s: %v", dir, err)
			}
			if !fsp.activity {
				return nil, usage.Errorf("data set %s (%s layout) lacks %s: generate it again with stampede gen ldbc", dir, layout, fsp.path)
			}
			absent = append(absent, fsp.path)
			continue
		}
		if fsp.activity {
			present = append(present, fsp.path)
		}
		p.files = append(p.files, plannedFile{fsp, parts})
	}
	if len(present) > 0 && len(absent) > 0 {
		return nil, usage.Errorf("data set %s has %s but lacks %s: generate it again with stampede gen ldbc", dir, present[0], absent[0])
	}
	p.activity = len(present) > 0
	if !slices.Contains(composite, layout) {
		for _, side := range []struct {
			path string
			dst  *[]string
		}{{ldbcfile.PersonEmailEmailaddressPath, &p.emailParts}, {ldbcfile.PersonSpeaksLanguagePath, &p.speaksParts}} {
			parts, err := ldbcfile.Parts(dir, side.path)
			if err != nil {
				return nil, usage.Errorf("data set %s (%s layout) lacks %s: generate it again with stampede gen ldbc", dir, layout, side.path)
			}
			*side.dst = parts
		}
	}
	return p, nil
}

// personList is one person's e-mail addresses or languages, joined with
// ";", and where they were read (for the failed file when the person is
// unknown).
type personList struct {
	val   []byte
	file  string
	line  int
	rows  int
	taken bool
}

// readPersonLists reads a side file (Person.id|value) into a map by
// person, values joined with ";" in file order. It holds one entry per
// person: memory grows with the persons, not with the data set.
func (l *load) readPersonLists(parts []string, header string) (map[int64]*personList, error) {
	m := map[int64]*personList{}
	for _, part := range parts {
		rd := ldbcfile.Reader{OnBadLine: func(e *ldbcfile.LineError) error {
			return l.failed.add(part, e.Line, 1, e.Err.Error(), e.Text)
		}}
		err := l.readPart(part, func(f *os.File) error {
			return rd.ReadVariants(f, []string{header}, func(_, line int, fields [][]byte) error {
				id, err := ldbcfile.ParseID(fields[0])
				if err != nil {
					return &reject{"Person.id: " + err.Error()}
				}
				e := m[id]
				if e == nil {
					e = &personList{file: part, line: line}
					m[id] = e
				} else {
					e.val = append(e.val, ldbcfile.ListSeparator)
				}
				e.val = append(e.val, fields[1]...)
				e.rows++
				return nil
			})
		})
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

// unknownListPersons sends the side-file rows of persons the person file
// lacks to the failed file, in file and line order.
func (l *load) unknownListPersons(m map[int64]*personList) error {
	type left struct {
		id int64
		e  *personList
	}
	var ls []left
	for id, e := range m {
		if !e.taken {
			ls = append(ls, left{id, e})
		}
	}
	slices.SortFunc(ls, func(a, b left) int {
		if c := strings.Compare(a.e.file, b.e.file); c != 0 {
			return c
		}
		return a.e.line - b.e.line
	})
	for _, x := range ls {
		if err := l.failed.add(x.e.file, x.e.line, x.e.rows, "unknown person", strconv.FormatInt(x.id, 10)); err != nil {
			return err
		}
	}
	return nil
}

// stream reads every planned file and sends its rows to in as batches of
// cfg.Batch rows of one type. Persons are checked as package loader does
// for SQL targets: a repeated person id, a friendship with oneself or
// repeated (in either direction), and a row naming a person the person
// file lacks go to the failed file. Other references are not checked (a
// NebulaGraph edge may dangle); rows of other kinds are not checked for
// repeats on the client (the generator writes none, and a key set would
// grow with the data set): a repeat overwrites, and verify then fails
// with the counts.
func (l *load) stream(ctx context.Context, p *plan, in *inserter) error {
	email, speaks := map[int64]*personList{}, map[int64]*personList{}
	var err error
	if len(p.emailParts) > 0 {
		if email, err = l.readPersonLists(p.emailParts, ldbcfile.PersonEmailEmailaddressHeader); err != nil {
			return err
		}
	}
	if len(p.speaksParts) > 0 {
		if speaks, err = l.readPersonLists(p.speaksParts, ldbcfile.PersonSpeaksLanguageHeader); err != nil {
			return err
		}
	}
	types := map[string]*pending{}
	for _, t := range Types() {
		types[t.Name] = &pending{t: t, head: insertHead(t)}
	}
	persons := map[int64]struct{}{}
	knows := map[[2]int64]struct{}{}
	var items [][]byte
	for _, pf := range p.files {
		isPerson := pf.spec.path == ldbcfile.PersonPath
		isKnows := pf.spec.path == ldbcfile.PersonKnowsPersonPath
		headers := make([]string, len(pf.spec.variants))
		for i, v := range pf.spec.variants {
			headers[i] = v.header
		}
		for _, part := range pf.parts {
			flush := func(pd *pending) error {
				if pd.rows == 0 {
					return nil
				}
				b := batch{file: part, line: pd.first, rows: pd.rows, typ: pd.t.Name, stmt: string(pd.buf)}
				pd.buf, pd.rows = pd.buf[:0], 0
				return in.send(ctx, b)
			}
			rd := ldbcfile.Reader{OnBadLine: func(e *ldbcfile.LineError) error {
				return l.failed.add(part, e.Line, 1, e.Err.Error(), e.Text)
			}}
			err := l.readPart(part, func(f *os.File) error {
				return rd.ReadVariants(f, headers, func(v, line int, fields [][]byte) error {
					outs := pf.spec.variants[v].outs
					for len(items) < len(outs) {
						items = append(items, nil)
					}
					var src, dst int64
					for i, o := range outs {
						var err error
						items[i], src, dst, err = l.item(items[i][:0], o, fields, !isPerson, persons, email, speaks)
						if err != nil {
							return err
						}
						if i == 0 && isPerson {
							if _, dup := persons[src]; dup {
								return &reject{"duplicate person id"}
							}
						}
						if isKnows {
							key := [2]int64{min(src, dst), max(src, dst)}
							if src == dst {
								return &reject{"friendship with oneself"}
							}
							if _, dup := knows[key]; dup {
								return &reject{"duplicate friendship"}
							}
							knows[key] = struct{}{}
						}
					}
					if isPerson {
						persons[VID(KindPerson, mustID(fields[0]))] = struct{}{}
						l.maxPerson = max(l.maxPerson, mustID(fields[0]))
						for _, m := range []map[int64]*personList{email, speaks} {
							if e := m[mustID(fields[0])]; e != nil {
								e.taken = true
							}
						}
					}
					for i, o := range outs {
						if items[i] == nil {
							continue // an optional edge whose column is empty
						}
						pd := types[o.typ]
						if pd.rows == 0 {
							pd.buf = append(pd.buf, pd.head...)
							pd.first = line
						} else {
							pd.buf = append(pd.buf, ", "...)
						}
						pd.buf = append(pd.buf, items[i]...)
						pd.rows++
						if pd.rows == l.cfg.Batch {
							if err := flush(pd); err != nil {
								return err
							}
						}
					}
					return nil
				})
			})
			if err != nil {
				return err
			}
			for _, t := range Types() {
				if err := flush(types[t.Name]); err != nil {
					return err
				}
			}
		}
		if isPerson {
			for _, m := range []map[int64]*personList{email, speaks} {
				if err := l.unknownListPersons(m); err != nil {
					return err
				}
			}
			email, speaks = nil, nil // the person file was their only reader
		}
	}
	return nil
}

// mustID parses an id the row's item already parsed.
func mustID(b []byte) int64 {
	id, _ := ldbcfile.ParseID(b)
	return id
}

// item appends the VALUES item of out o of a row ("vid:(...)" or
// "src->dst:(...)") to dst and returns it with the vids. With
// checkPersons, a person id must be one of persons (the person file's
// own rows are not checked). It returns nil
// for an optional edge whose column is empty, and a *reject (or an error
// wrapping ldbcfile.ErrMalformed) for a row that is not inserted.
func (l *load) item(dst []byte, o out, fields [][]byte, checkPersons bool, persons map[int64]struct{}, email, speaks map[int64]*personList) ([]byte, int64, int64, error) {
	vid := func(f int, k Kind) (int64, error) {
		id, err := ldbcfile.ParseID(fields[f])
		if err != nil {
			return 0, fmt.Errorf("%w: id: %v", ldbcfile.ErrMalformed, err)
		}
		if !InRange(id) {
			return 0, &reject{fmt.Sprintf("id %d is above %d, the largest a vid encodes", id, MaxID)}
		}
		v := VID(k, id)
		if k == KindPerson && checkPersons {
			if _, ok := persons[v]; !ok {
				return 0, &reject{"unknown person"}
			}
		}
		return v, nil
	}
	if o.optional && (len(fields[o.src]) == 0 || o.dst >= 0 && len(fields[o.dst]) == 0) {
		return nil, 0, 0, nil
	}
	src, err := vid(o.src, o.srcK)
	if err != nil {
		return nil, 0, 0, err
	}
	dst = strconv.AppendInt(dst, src, 10)
	var dstV int64
	if o.dst >= 0 {
		if dstV, err = vid(o.dst, o.dstK); err != nil {
			return nil, 0, 0, err
		}
		dst = append(dst, "->"...)
		dst = strconv.AppendInt(dst, dstV, 10)
	}
	dst = append(dst, ":("...)
	for i, c := range o.props {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if dst, err = l.value(dst, c, fields, email, speaks); err != nil {
			return nil, 0, 0, err
		}
	}
	return append(dst, ')'), src, dstV, nil
}

// value appends the nGQL literal of one property.
func (l *load) value(dst []byte, c col, fields [][]byte, email, speaks map[int64]*personList) ([]byte, error) {
	switch c.conv {
	case cString:
		return nebula.AppendString(dst, fields[c.field]), nil
	case cInt:
		v, err := strconv.ParseInt(string(fields[c.field]), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: column %d: bad integer %q", ldbcfile.ErrMalformed, c.field+1, ldbcfile.Cut(string(fields[c.field])))
		}
		return strconv.AppendInt(dst, v, 10), nil
	case cDateTime:
		t, err := ldbcfile.ParseDateTimeIn(fields[c.field], l.cfg.Dates)
		if err != nil {
			return nil, fmt.Errorf("%w: column %d: %v", ldbcfile.ErrMalformed, c.field+1, err)
		}
		dst = append(dst, `datetime("`...)
		dst = ldbcfile.AppendDateTimeMillis(dst, t.UnixMilli())
		return append(dst[:len(dst)-len("+0000")], `")`...), nil
	case cDate:
		t, err := ldbcfile.ParseDateIn(fields[c.field], l.cfg.Dates)
		if err != nil {
			return nil, fmt.Errorf("%w: column %d: %v", ldbcfile.ErrMalformed, c.field+1, err)
		}
		dst = append(dst, '"')
		dst = ldbcfile.AppendDate(dst, t)
		return append(dst, '"'), nil
	case cEmail, cSpeaks:
		m := email
		if c.conv == cSpeaks {
			m = speaks
		}
		var v []byte
		if e := m[mustID(fields[0])]; e != nil {
			v = e.val
		}
		return nebula.AppendString(dst, v), nil
	}
	return nil, fmt.Errorf("conv %d", c.conv)
}

// readPart opens one part file of the data set.
func (l *load) readPart(rel string, fn func(*os.File) error) error {
	f, err := os.Open(filepath.Join(l.cfg.Data, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := fn(f); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	return nil
}
