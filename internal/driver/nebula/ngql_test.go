package nebula

import (
	"strings"
	"testing"
	"time"
)

func TestRender(t *testing.T) {
	when := time.Date(2010, 3, 4, 5, 6, 7, 89e6, time.UTC)
	cases := []struct {
		name, query string
		args        []any
		want, err   string
	}{
		{name: "ids", query: "GO 1 STEP FROM $1 OVER KNOWS", args: []any{int64(933)}, want: "GO 1 STEP FROM 933 OVER KNOWS"},
		{name: "two digits and reuse", query: "$1->$2 $10 $1", args: []any{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, want: "1->2 10 1"},
		{name: "strings escaped", query: "LOOKUP ON Person WHERE Person.firstName == $1", args: []any{"a\"b\\c\nd"}, want: `LOOKUP ON Person WHERE Person.firstName == "a\"b\\c\nd"`},
		{name: "nGQL references untouched", query: `GO FROM $1 OVER KNOWS YIELD $$.Person.firstName, $-.x, $^.Person.id`, args: []any{int64(1)}, want: `GO FROM 1 OVER KNOWS YIELD $$.Person.firstName, $-.x, $^.Person.id`},
		{name: "placeholders in literals untouched", query: `YIELD "$1", '$2', ` + "`$1`" + `, $1`, args: []any{int64(7), int64(8)}, want: `YIELD "$1", '$2', ` + "`$1`" + `, 7`},
		{name: "escaped quote in literal", query: `YIELD "a\"$1", $1`, args: []any{int64(7)}, want: `YIELD "a\"$1", 7`},
		{name: "time", query: "datetime() $1", args: []any{when}, want: `datetime() datetime("2010-03-04T05:06:07.089")`},
		{name: "nil and bool", query: "$1 $2", args: []any{nil, true}, want: "NULL true"},
		{name: "missing parameter", query: "$1 $3", args: []any{1, 2}, err: "uses $3 but has 2 parameters"},
		{name: "unsupported type", query: "$1", args: []any{struct{}{}}, err: "cannot send a struct {}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Render(nil, tc.query, tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// FuzzRender: rendering never panics, and a string parameter never
// escapes its literal (the rendered text holds exactly the quotes the
// query had plus two).
func FuzzRender(f *testing.F) {
	f.Add("GO 1 STEP FROM $1 OVER KNOWS", "x")
	f.Add(`YIELD "$1\"", $1, $2`, `a"b\`)
	f.Fuzz(func(t *testing.T, query, arg string) {
		out, err := Render(nil, query, []any{arg})
		if err != nil || strings.ContainsAny(query, "'`\\") || strings.Count(query, "$1") != 1 || strings.Contains(query, "$1") && strings.ContainsAny(query, `"`) {
			return
		}
		// One unquoted $1 replaced by a quoted string: count unescaped quotes.
		if got, want := unescapedQuotes(string(out)), unescapedQuotes(query)+2; got != want {
			t.Fatalf("Render(%q, %q) = %q: %d quotes, want %d", query, arg, out, got, want)
		}
	})
}

func unescapedQuotes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '"' {
			n++
		}
	}
	return n
}
