package ldbcfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const personsCSV = PersonHeader + `
933|Mahinda|Perera|male|1989-12-03|2010-02-14T15:32:10.447+0000|119.235.7.103|Firefox
4398046511104|Jan|Zakrzewski|female|1986-07-05|2010-03-20T04:18:23.102+0000|31.192.0.2|Chrome
`

func TestReadPersons(t *testing.T) {
	var got []Person
	if err := (Reader{}).ReadPersons(strings.NewReader(personsCSV), func(p Person) error {
		got = append(got, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := Person{
		ID: 933, FirstName: "Mahinda", LastName: "Perera", Gender: GenderMale,
		Birthday:     time.Date(1989, 12, 3, 0, 0, 0, 0, time.UTC),
		CreationDate: time.Date(2010, 2, 14, 15, 32, 10, 447e6, time.UTC),
		LocationIP:   "119.235.7.103", BrowserUsed: "Firefox",
	}
	if len(got) != 2 || got[0] != want || got[1].ID != 4398046511104 {
		t.Fatalf("got %+v", got)
	}
	// Round trip through AppendPerson.
	var b []byte
	for _, p := range got {
		b = AppendPerson(b, p)
	}
	if PersonHeader+"\n"+string(b) != personsCSV {
		t.Errorf("AppendPerson round trip:\n%s", b)
	}
}

func TestReaderBadLines(t *testing.T) {
	input := PersonKnowsPersonHeader + "\r\n" +
		"1|2|2010-03-04T05:06:07.089+0000\r\n" +
		"x|2|2010-03-04T05:06:07.089+0000\n" + // line 3: bad id
		"1|2\n" + // line 4: field count
		"\n" + // skipped
		"3|4|2010-13-04T05:06:07.089+0000\n" + // line 6: bad date
		"5|6|2011-01-01T00:00:00.000+0000" // line 7, no final newline
	tests := []struct {
		name      string
		lenient   bool
		wantRows  int
		wantBad   []int
		wantErrAt int
	}{
		{name: "strict stops at first bad line", wantRows: 1, wantErrAt: 3},
		{name: "lenient reports and goes on", lenient: true, wantRows: 2, wantBad: []int{3, 4, 6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rd Reader
			var bad []int
			if tc.lenient {
				rd.OnBadLine = func(e *LineError) error {
					if !errors.Is(e, ErrMalformed) || e.Text == "" {
						t.Errorf("line error %+v", e)
					}
					bad = append(bad, e.Line)
					return nil
				}
			}
			rows := 0
			err := rd.ReadKnows(strings.NewReader(input), func(a, b int64, c time.Time) error {
				rows++
				return nil
			})
			if tc.wantErrAt > 0 {
				var le *LineError
				if !errors.As(err, &le) || le.Line != tc.wantErrAt {
					t.Fatalf("err = %v, want line %d", err, tc.wantErrAt)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if rows != tc.wantRows || fmt.Sprint(bad) != fmt.Sprint(tc.wantBad) {
				t.Errorf("rows %d bad %v, want %d %v", rows, bad, tc.wantRows, tc.wantBad)
			}
		})
	}
}

func TestReaderStopsOnCallbackAndHeaderErrors(t *testing.T) {
	stop := errors.New("stop")
	tests := []struct {
		name, input string
		fn          func(int64) error
		onBad       func(*LineError) error
		want        string
	}{
		{"wrong header", "id\n1\n", nil, nil, `header "id": want "personId"`},
		{"empty", "", nil, nil, "empty file"},
		{"callback error", "personId\n1\n2\n", func(int64) error { return stop }, nil, "stop"},
		{"OnBadLine error", "personId\nx\n", nil, func(*LineError) error { return stop }, "stop"},
		{"bom accepted", "\xef\xbb\xbfpersonId\n1\n", nil, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fn := tc.fn
			if fn == nil {
				fn = func(int64) error { return nil }
			}
			err := Reader{OnBadLine: tc.onBad}.ReadKHopPersons(strings.NewReader(tc.input), fn)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestReadParams(t *testing.T) {
	var pairs [][2]int64
	err := Reader{}.ReadShortestPathPairs(strings.NewReader(ShortestPathHeader+"\n933|4398046511104\n1|2\n"),
		func(a, b int64) error { pairs = append(pairs, [2]int64{a, b}); return nil })
	if err != nil || fmt.Sprint(pairs) != "[[933 4398046511104] [1 2]]" {
		t.Fatalf("pairs %v, err %v", pairs, err)
	}
	n := 0
	if err := (Reader{}).ReadInsertPersons(strings.NewReader(personsCSV), func(Person) error { n++; return nil }); err != nil || n != 2 {
		t.Fatalf("insert persons %d, err %v", n, err)
	}
}

// A line over MaxLineBytes is malformed, reported with its line number and
// a cut prefix, and skipped without being held in memory; the next line is
// read normally.
func TestReadLongLine(t *testing.T) {
	long := strings.Repeat("a", 3*readBufSize)
	in := PersonEmailEmailaddressHeader + "\n1|" + long + "\n2|b\n"
	var got []string
	var bad []*LineError
	rd := Reader{OnBadLine: func(le *LineError) error { bad = append(bad, le); return nil }}
	err := rd.ReadRecords(strings.NewReader(in), PersonEmailEmailaddressHeader, func(f [][]byte) error {
		got = append(got, string(f[1]))
		return nil
	})
	if err != nil || len(got) != 1 || got[0] != "b" || len(bad) != 1 {
		t.Fatalf("err %v, rows %d, bad %d", err, len(got), len(bad))
	}
	if bad[0].Line != 2 || len(bad[0].Text) > MaxValueBytes+64 || !strings.Contains(bad[0].Err.Error(), "3145730 bytes is longer than") {
		t.Errorf("bad line %d, text %d bytes, err %v", bad[0].Line, len(bad[0].Text), bad[0].Err)
	}
	// Strict: the long line stops the read with its line number.
	err = Reader{}.ReadRecords(strings.NewReader(in), PersonEmailEmailaddressHeader, func([][]byte) error { return nil })
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("strict: %v", err)
	}
}

// Epoch-millisecond dates (LDBC's LongDateFormatter) read as the same
// instants as the ISO ones, detected per value or forced by Dates.
func TestReadMillisDates(t *testing.T) {
	iso := PersonHeader + "\n933|Mahinda|Perera|male|1989-12-03|2010-02-14T15:32:10.447+0000|119.235.7.103|Firefox\n"
	millis := PersonHeader + "\n933|Mahinda|Perera|male|628646400000|1266161530447|119.235.7.103|Firefox\n"
	read := func(rd Reader, in string) (Person, error) {
		var got Person
		err := rd.ReadPersons(strings.NewReader(in), func(p Person) error { got = p; return nil })
		return got, err
	}
	want, err := read(Reader{}, iso)
	if err != nil {
		t.Fatal(err)
	}
	for _, rd := range []Reader{{}, {Dates: DatesMillis}} {
		got, err := read(rd, millis)
		if err != nil || got != want {
			t.Errorf("dates %v: %+v, %v; want %+v", rd.Dates, got, err, want)
		}
	}
	if _, err := read(Reader{Dates: DatesISO}, millis); err == nil {
		t.Error("iso accepted epoch milliseconds")
	}
	if _, err := read(Reader{Dates: DatesMillis}, iso); err == nil {
		t.Error("millis accepted an ISO date")
	}
	for _, in := range []string{"", "-", "12a", "1234567890123456"} {
		if _, err := ParseMillis([]byte(in)); err == nil {
			t.Errorf("ParseMillis(%q) accepted", in)
		}
	}
}

func TestParts(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"social_network/dynamic/person_1_0.csv", "social_network/dynamic/person_0_0.csv",
		"social_network/dynamic/person_10_0.csv", "social_network/dynamic/person_knows_person_0_0.csv",
		"social_network/person_knows_person_0_0.csv", "social_network/person_knows_person_1_0.csv"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), nil, 0o644)
	}
	got, err := Parts(dir, PersonPath)
	if err != nil || fmt.Sprint(got) != "[social_network/dynamic/person_0_0.csv social_network/dynamic/person_1_0.csv social_network/dynamic/person_10_0.csv]" {
		t.Errorf("persons: %v, %v", got, err)
	}
	got, err = Parts(dir, PersonKnowsPersonPath)
	if err != nil || fmt.Sprint(got) != "[social_network/dynamic/person_knows_person_0_0.csv]" {
		t.Errorf("knows: %v, %v", got, err)
	}
	got, err = Parts(dir, TagPath) // flat layout of older datagen versions
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("tag: %v, %v", got, err)
	}
	os.WriteFile(filepath.Join(dir, "social_network/tag_0_0.csv"), nil, 0o644)
	if got, err = Parts(dir, TagPath); err != nil || fmt.Sprint(got) != "[social_network/tag_0_0.csv]" {
		t.Errorf("flat tag: %v, %v", got, err)
	}
}

func BenchmarkReadKnows(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(PersonKnowsPersonHeader + "\n")
	for i := range 10_000 {
		fmt.Fprintf(&sb, "%d|%d|2011-07-04T05:06:07.089+0000\n", 4398046511104+i, 8796093022208+i)
	}
	input := sb.String()
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	for b.Loop() {
		if err := (Reader{}).ReadKnows(strings.NewReader(input), func(int64, int64, time.Time) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
