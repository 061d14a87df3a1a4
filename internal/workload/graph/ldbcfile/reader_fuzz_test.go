package ldbcfile

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// dataLines counts the lines after the first that are not empty once their
// line end ("\n", "\r\n") is cut: the lines a Reader must either accept or
// report.
func dataLines(in []byte) int {
	lines := bytes.Split(in, []byte("\n"))
	n := 0
	for _, l := range lines[1:] {
		if len(trimEOL(l)) > 0 {
			n++
		}
	}
	return n
}

// FuzzReadPersons: a lenient Reader never panics on a person file, accounts
// for every non-empty line exactly once (accepted or reported as bad, in
// line order), quotes at most MaxValueBytes of a bad line, and every person
// it accepts is valid and reads back the same after AppendPerson.
func FuzzReadPersons(f *testing.F) {
	f.Add([]byte(personsCSV))
	f.Add([]byte(PersonHeader + "\r\n933|A|B|female|628646400000|1266161530447|1.2.3.4|Chrome\r\n\r\nx|A|B|male|1989-12-03|2010-02-14T15:32:10.447+0000|1.2.3.4|Firefox"))
	f.Add([]byte("\xef\xbb\xbf" + PersonHeader + "\n1|a|b|other|1989-12-03|2010-02-14T15:32:10.447+0000|ip|br\n2|a|b|male|1989-02-30|2010-02-14T15:32:10.447+0000|ip|br\n3|too|few\n"))
	f.Add([]byte(PersonHeaders[len(PersonHeaders)-1] + "\n"))
	f.Add([]byte("not a header\n1|2\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, in []byte) {
		var persons []Person
		var bad []int
		rd := Reader{OnBadLine: func(le *LineError) error {
			if !errors.Is(le, ErrMalformed) {
				t.Fatalf("line error %v does not wrap ErrMalformed", le)
			}
			if len(bad) > 0 && le.Line <= bad[len(bad)-1] || le.Line < 2 {
				t.Fatalf("bad line %d after %v", le.Line, bad)
			}
			if len(le.Text) > MaxValueBytes+len("…") {
				t.Fatalf("bad line quoted with %d bytes", len(le.Text))
			}
			bad = append(bad, le.Line)
			return nil
		}}
		err := rd.ReadPersons(bytes.NewReader(in), func(p Person) error {
			persons = append(persons, p)
			return nil
		})
		if err != nil {
			if len(persons) > 0 || len(bad) > 0 {
				t.Fatalf("error %v after %d rows and %d bad lines", err, len(persons), len(bad))
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if got, want := len(persons)+len(bad), dataLines(in); got != want {
			t.Fatalf("%d rows + %d bad lines, want %d lines in all from %q", len(persons), len(bad), want, in)
		}
		for _, p := range persons {
			if p.ID < 0 || (p.Gender != GenderMale && p.Gender != GenderFemale) {
				t.Fatalf("accepted invalid person %+v", p)
			}
			if p.Birthday.Hour() != 0 || p.Birthday.Minute() != 0 || p.Birthday.Nanosecond() != 0 {
				t.Fatalf("birthday %v is not a date", p.Birthday)
			}
			row := AppendPerson([]byte(PersonHeader+"\n"), p)
			var back []Person
			if err := (Reader{}).ReadPersons(bytes.NewReader(row), func(q Person) error {
				back = append(back, q)
				return nil
			}); err != nil || len(back) != 1 || !samePerson(back[0], p) {
				t.Fatalf("%+v writes as %q, reads back as %+v, %v", p, row, back, err)
			}
		}
	})
}

func samePerson(a, b Person) bool {
	return a.ID == b.ID && a.FirstName == b.FirstName && a.LastName == b.LastName &&
		a.Gender == b.Gender && a.Birthday.Equal(b.Birthday) && a.CreationDate.Equal(b.CreationDate) &&
		a.LocationIP == b.LocationIP && a.BrowserUsed == b.BrowserUsed
}

// FuzzReadKnows: the strict Reader never panics on a friendship file; it
// either fails on a line (a *LineError naming a line after the header) or
// accepts every non-empty line, each of which writes back with AppendKnows
// to the same friendship.
func FuzzReadKnows(f *testing.F) {
	f.Add([]byte(PersonKnowsPersonHeader + "\n1|2|2010-03-04T05:06:07.089+0000\n3|4|1266161530447"))
	f.Add([]byte(PersonKnowsPersonHeader + "\r\n9223372036854775807|0|2010-03-04T05:06:07.089+0000\r\n"))
	f.Add([]byte(PersonKnowsPersonHeader + "\n9223372036854775808|0|2010-03-04T05:06:07.089+0000\n"))
	f.Add([]byte(PersonKnowsPersonHeader + "\n1|2|2010-13-04T05:06:07.089+0000\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		type knows struct {
			a, b int64
			at   time.Time
		}
		var rows []knows
		err := Reader{}.ReadKnows(bytes.NewReader(in), func(a, b int64, at time.Time) error {
			rows = append(rows, knows{a, b, at})
			return nil
		})
		var le *LineError
		switch {
		case errors.As(err, &le):
			if le.Line < 2 || len(rows) >= le.Line-1 {
				t.Fatalf("line error %v after %d rows", le, len(rows))
			}
			return
		case err != nil:
			return
		}
		if len(rows) != dataLines(in) {
			t.Fatalf("%d rows from %d lines: %q", len(rows), dataLines(in), in)
		}
		for _, k := range rows {
			if k.a < 0 || k.b < 0 {
				t.Fatalf("negative id in %+v", k)
			}
			row := AppendKnows([]byte(PersonKnowsPersonHeader+"\n"), k.a, k.b, k.at)
			n := 0
			if err := (Reader{}).ReadKnows(bytes.NewReader(row), func(a, b int64, at time.Time) error {
				n++
				if a != k.a || b != k.b || !at.Equal(k.at) {
					t.Fatalf("%+v reads back as %d %d %v", k, a, b, at)
				}
				return nil
			}); err != nil || n != 1 {
				t.Fatalf("%q: %d rows, %v", row, n, err)
			}
		}
	})
}
