package ldbcfile

import (
	"strings"
	"testing"
)

// FuzzParseDates: whatever the input, the date parsers return an error or a
// value that formats back to an equivalent input (ISO) or the same instant
// (epoch milliseconds), and never panic.
func FuzzParseDates(f *testing.F) {
	for _, s := range []string{"1989-12-03", "2010-02-14T15:32:10.447+0000", "628646400000", "-1", "", "9999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tm, err := ParseDateTimeIn([]byte(s), DatesAuto); err == nil {
			if isMillis([]byte(s)) {
				if back, err := ParseMillis([]byte(s)); err != nil || !back.Equal(tm) {
					t.Fatalf("%q: %v vs %v, %v", s, tm, back, err)
				}
			} else if got := string(AppendDateTime(nil, tm)); got != s {
				t.Fatalf("%q formats back as %q", s, got)
			}
		}
		if tm, err := ParseDateIn([]byte(s), DatesAuto); err == nil && (tm.Hour() != 0 || tm.Minute() != 0) {
			t.Fatalf("%q: date %v is not midnight", s, tm)
		}
	})
}

// FuzzReadIDColumns: a parameter file never panics the reader, and every
// row it accepts has parsed ids.
func FuzzReadIDColumns(f *testing.F) {
	f.Add("person1Id|person2Id\n933|1129\n")
	f.Add("personId|firstName\n933|Carmen\nx|y\n")
	f.Fuzz(func(t *testing.T, in string) {
		lenient := Reader{OnBadLine: func(*LineError) error { return nil }}
		_ = lenient.ReadIDColumns(strings.NewReader(in), []string{"personId"}, func(ids []int64) error {
			if ids[0] < 0 {
				t.Fatalf("negative id from %q", in)
			}
			return nil
		})
	})
}
