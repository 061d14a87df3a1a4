package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/vu"
)

// Names of the LDBC SNB Interactive scenarios.
const (
	IS1  = "interactive.IS1"
	IS2  = "interactive.IS2"
	IS3  = "interactive.IS3"
	IS4  = "interactive.IS4"
	IS5  = "interactive.IS5"
	IS6  = "interactive.IS6"
	IS7  = "interactive.IS7"
	IC1  = "interactive.IC1"
	IC2  = "interactive.IC2"
	IC7  = "interactive.IC7"
	IC8  = "interactive.IC8"
	IC9  = "interactive.IC9"
	IC13 = "interactive.IC13"
)

// interactiveKind is what a scenario's parameter rows hold.
type interactiveKind uint8

const (
	onPerson     interactiveKind = iota + 1 // interactive_person.csv: personId
	onPersonDate                            // interactive_person.csv: personId, maxDate
	onMessage                               // interactive_message.csv: messageId
	onPersonName                            // interactive_person.csv: personId, firstName
)

// interactiveSpec describes one Interactive scenario.
type interactiveSpec struct {
	name, desc string
	kind       interactiveKind
	sql        func(postgres bool) string
	// want is the reference answer for parameter row r.
	want func(n *refNet, r interactiveRow) [][]string
}

func interactiveSpecs() []interactiveSpec {
	fixed := func(q func() string) func(bool) string { return func(bool) string { return q() } }
	byID := func(f func(n *refNet, id int64) [][]string) func(*refNet, interactiveRow) [][]string {
		return func(n *refNet, r interactiveRow) [][]string { return f(n, r.id) }
	}
	return []interactiveSpec{
		{IS1, "LDBC IS1: profile of a person", onPerson, fixed(sqlIS1), byID((*refNet).is1)},
		{IS2, "LDBC IS2: a person's 10 latest messages with their original posts", onPerson, fixed(sqlIS2), byID((*refNet).is2)},
		{IS3, "LDBC IS3: friends of a person with the friendship date", onPerson, fixed(sqlIS3), byID((*refNet).is3)},
		{IS4, "LDBC IS4: content of a message", onMessage, fixed(sqlIS4), byID((*refNet).is4)},
		{IS5, "LDBC IS5: creator of a message", onMessage, fixed(sqlIS5), byID((*refNet).is5)},
		{IS6, "LDBC IS6: forum of a message and its moderator", onMessage, fixed(sqlIS6), byID((*refNet).is6)},
		{IS7, "LDBC IS7: replies to a message, and whether their authors know its author", onMessage, fixed(sqlIS7), byID((*refNet).is7)},
		{IC1, "LDBC IC1: persons with a given first name within 3 KNOWS hops, nearest first, with their summaries", onPersonName, sqlIC1,
			func(n *refNet, r interactiveRow) [][]string { return n.ic1(r.id, r.name) }},
		{IC2, "LDBC IC2: 20 latest messages of a person's friends before a date", onPersonDate, fixed(sqlIC2),
			func(n *refNet, r interactiveRow) [][]string { return n.ic2(r.id, r.maxMs) }},
		{IC7, "LDBC IC7: latest likes of a person's messages, one per liker", onPerson, sqlIC7, byID((*refNet).ic7)},
		{IC8, "LDBC IC8: 20 latest replies to a person's messages", onPerson, fixed(sqlIC8), byID((*refNet).ic8)},
		{IC9, "LDBC IC9: 20 latest messages of friends and friends of friends before a date", onPersonDate, fixed(sqlIC9),
			func(n *refNet, r interactiveRow) [][]string { return n.ic9(r.id, r.maxMs) }},
	}
}

// interactiveInfos lists the Interactive scenarios (not in the default
// set: they need a full data set, see docs/graph.md).
func interactiveInfos() []workload.Info {
	var out []workload.Info
	for _, s := range interactiveSpecs() {
		out = append(out, workload.Info{Name: s.name, Description: s.desc})
	}
	return append(out, workload.Info{Name: IC13, Description: "LDBC IC13: length of a shortest KNOWS path between two persons (-1: none within --max-depth)"})
}

// isInteractive reports whether name is an Interactive scenario.
func isInteractive(name string) bool { return strings.HasPrefix(name, "interactive.") }

// needsActivity reports whether scenario name reads the forum and message
// tables (IC1 and IC13 read persons, knows and the static tables only).
func needsActivity(name string) bool { return isInteractive(name) && name != IC1 && name != IC13 }

// rowsDoer is the driver ability answer checks of the Interactive
// scenarios need: every row's values. The sqlite and postgres drivers have
// it.
type rowsDoer interface {
	DoRows(ctx context.Context, op *driver.Op, each func(vals []any) error) driver.Result
}

// interactiveRow is one parameter row.
type interactiveRow struct {
	id, maxMs int64
	name      string // IC1's first name
}

// loadInteractiveParams reads interactive_person.csv and
// interactive_message.csv.
func loadInteractiveParams(dir string) (persons, messages []interactiveRow, err error) {
	rd := ldbcfile.Reader{}
	read := func(rel, header string, fn func([][]byte) error) error {
		f, err := os.Open(filepath.Join(dir, rel))
		if err != nil {
			return fmt.Errorf("%v: regenerate the data set with stampede gen ldbc (full network)", err)
		}
		defer f.Close()
		if err := rd.ReadRecords(f, header, fn); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	}
	err = read(ldbcfile.InteractivePersonPath, ldbcfile.InteractivePersonHeader, func(f [][]byte) error {
		id, err := ldbcfile.ParseID(f[0])
		if err != nil {
			return err
		}
		t, err := ldbcfile.ParseDateTime(f[2])
		persons = append(persons, interactiveRow{id: id, name: string(f[1]), maxMs: t.UnixMilli()})
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	err = read(ldbcfile.MessagePath, ldbcfile.MessageHeader, func(f [][]byte) error {
		id, err := ldbcfile.ParseID(f[0])
		messages = append(messages, interactiveRow{id: id})
		return err
	})
	if err == nil && (len(persons) == 0 || len(messages) == 0) {
		err = fmt.Errorf("the Interactive parameter files are empty")
	}
	return persons, messages, err
}

// interactiveQuery runs one Interactive read per iteration.
type interactiveQuery struct {
	common
	spec     interactiveSpec
	query    string
	postgres bool
	rows     []interactiveRow
	net      *refNet
	// stmts are the statements of the parameter rows for dialects that
	// render parameters into the text (nGQL); ngql reads their answers.
	stmts []string
	ngql  *ngqlInteractive
}

func (s *interactiveQuery) NewVU(ctx context.Context, id int) (vu.VU, error) {
	b, err := s.newBase(ctx, id, s.query)
	if err != nil {
		return nil, err
	}
	rd, _ := b.conn.(rowsDoer)
	if s.net != nil && rd == nil {
		b.Close()
		return nil, fmt.Errorf("%s: the target's driver cannot return rows for answer checks", s.name)
	}
	return &interactiveVU{baseVU: b, s: s, rd: rd}, nil
}

type interactiveVU struct {
	*baseVU
	s   *interactiveQuery
	rd  rowsDoer
	got [][]string
}

func (v *interactiveVU) Iterate(ctx context.Context, it *vu.Iter) error {
	i := v.feed.pick()
	row := v.s.rows[i]
	v.op.Args = append(v.op.Args[:0], row.id)
	if v.s.stmts != nil {
		v.op.Query, v.op.Args = v.s.stmts[i], v.op.Args[:0]
	}
	if v.s.spec.kind == onPersonName && v.s.stmts == nil {
		v.op.Args = append(v.op.Args, row.name)
	}
	if v.s.spec.kind == onPersonDate && v.s.stmts == nil {
		if v.s.postgres {
			v.op.Args = append(v.op.Args, time.UnixMilli(row.maxMs).UTC())
		} else {
			v.op.Args = append(v.op.Args, string(ldbcfile.AppendDateTimeMillis(nil, row.maxMs)))
		}
	}
	check := v.s.net != nil && v.s.checks(it.N)
	start := it.Now()
	var res driver.Result
	if check {
		v.got = v.got[:0]
		res = v.rd.DoRows(ctx, &v.op, func(vals []any) error {
			cells := make([]string, len(vals))
			for k, x := range vals {
				if v.s.ngql != nil {
					cells[k] = v.s.ngql.cell(k, x)
				} else {
					cells[k] = canonCell(x)
				}
			}
			v.got = append(v.got, cells)
			return nil
		})
	} else {
		res = v.conn.Do(ctx, &v.op)
	}
	end := it.Now()
	a := vu.Audit{Label: v.s.label(i)}
	if v.s.stmts != nil {
		// nGQL: the per-request log's query column holds the statement
		// as sent, the label column the scenario and its parameters.
		a.Op = &v.op
	}
	if res.Err == nil && check {
		// A wrong answer is a failed operation, its difference the error.
		res.Err = answerDiff(v.got, v.s.spec.want(v.s.net, row))
		v.s.check(it, res.Err == nil)
	}
	it.RequestAuditAt(a, start, end, res)
	return nil
}

// answerDiff describes the first difference with a stable message.
func answerDiff(got, want [][]string) error {
	if len(got) != len(want) {
		return wrongResult("rows", int64(len(got)), int64(len(want)))
	}
	for i := range got {
		for k := range min(len(got[i]), len(want[i])) {
			if got[i][k] != want[i][k] {
				return fmt.Errorf("wrong result: column %d of a row differs from the reference", k+1)
			}
		}
		if len(got[i]) != len(want[i]) {
			return fmt.Errorf("wrong result: %d columns, reference has %d", len(got[i]), len(want[i]))
		}
	}
	return nil
}

// canonCell turns a value a target returned into the canonical cell form:
// integers in decimal, booleans as 1/0, instants (time.Time, or text in
// the LDBC date or datetime layout, which SQLite stores) as Unix ms, other
// text as its hash.
func canonCell(x any) string {
	switch v := x.(type) {
	case nil:
		return "null"
	case int64:
		return cellInt(v)
	case int32:
		return cellInt(int64(v))
	case int:
		return cellInt(int64(v))
	case float64:
		if v == float64(int64(v)) {
			return cellInt(int64(v))
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return cellBool(v)
	case time.Time:
		return cellTime(v.UnixMilli())
	case []byte:
		return canonText(string(v))
	case string:
		return canonText(v)
	}
	return fmt.Sprint(x)
}

func canonText(s string) string {
	switch len(s) {
	case len(ldbcfile.DateTimeLayout):
		if t, err := ldbcfile.ParseDateTime([]byte(s)); err == nil {
			return cellTime(t.UnixMilli())
		}
	case len(ldbcfile.DateLayout):
		if t, err := ldbcfile.ParseDate([]byte(s)); err == nil {
			return cellTime(t.UnixMilli())
		}
	}
	return cellText(s)
}

// interactiveLabels are the per-request log labels of parameter rows.
func interactiveLabels(name string, kind interactiveKind, rows []interactiveRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		switch kind {
		case onMessage:
			out[i] = name + " message=" + strconv.FormatInt(r.id, 10)
		case onPersonDate:
			out[i] = name + " person=" + strconv.FormatInt(r.id, 10) + " maxDate=" + string(ldbcfile.AppendDateTimeMillis(nil, r.maxMs))
		case onPersonName:
			out[i] = name + " person=" + strconv.FormatInt(r.id, 10) + " firstName=" + r.name
		default:
			out[i] = name + " person=" + strconv.FormatInt(r.id, 10)
		}
	}
	return out
}
