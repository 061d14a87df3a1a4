package driver

import (
	"strings"
	"testing"
	"time"
)

func TestAppendStatement(t *testing.T) {
	at := time.Date(2010, 2, 14, 15, 32, 10, 447e6, time.UTC)
	tests := []struct {
		name, query string
		args        []any
		want        string
	}{
		{"ngql text", `GO 2 STEPS FROM 933 OVER KNOWS BIDIRECT YIELD DISTINCT dst(edge)`, nil, `GO 2 STEPS FROM 933 OVER KNOWS BIDIRECT YIELD DISTINCT dst(edge)`},
		{"dollar", "SELECT * FROM person WHERE id = $1", []any{int64(933)}, "SELECT * FROM person WHERE id = 933"},
		{"two digits and casts", "VALUES ($1, $10::date, $2)", []any{int64(1), "x", 3, 4, 5, 6, 7, 8, 9, "1985-01-02"}, "VALUES (1, '1985-01-02'::date, 'x')"},
		{"repeated", "CAST($1 AS BIGINT) = CAST($2 AS BIGINT) OR $1 > 0", []any{int64(5), int64(6)}, "CAST(5 AS BIGINT) = CAST(6 AS BIGINT) OR 5 > 0"},
		{"question marks", "INSERT INTO t VALUES (?, ?, ?2)", []any{"O'Brien", nil, true}, "INSERT INTO t VALUES ('O''Brien', NULL, NULL)"},
		{"numbered question", "SELECT ?1, ?3", []any{1.5, false, []byte{0xab}}, "SELECT 1.5, X'ab'"},
		{"inside literals", `SELECT '$1', "a$1", $1 -- $1 here` + "\n" + `, $1`, []any{int64(7)}, `SELECT '$1', "a$1", 7 -- $1 here` + "\n" + `, 7`},
		{"missing arg", "SELECT $1, $2", []any{int64(1)}, "SELECT 1, $2"},
		{"time", "SELECT $1", []any{at}, "SELECT '2010-02-14T15:32:10.447Z'"},
		{"unterminated quote", "SELECT 'abc $1", []any{int64(1)}, "SELECT 'abc $1"},
		{"dollar alone", "SELECT $ + $1", []any{int64(2)}, "SELECT $ + 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := string((&Op{Query: tc.query, Args: tc.args}).AppendStatement([]byte("> ")))
			if got != "> "+tc.want {
				t.Errorf("got  %q\nwant %q", got, "> "+tc.want)
			}
		})
	}
}

func FuzzAppendStatement(f *testing.F) {
	f.Add("SELECT $1, ?, ?2, '$3' -- $1", "x")
	f.Fuzz(func(t *testing.T, q, arg string) {
		out := string((&Op{Query: q, Args: []any{arg, int64(1)}}).AppendStatement(nil))
		if !strings.Contains(q, "$") && !strings.Contains(q, "?") && out != q {
			t.Fatalf("query without placeholders changed: %q -> %q", q, out)
		}
	})
}

func BenchmarkAppendStatement(b *testing.B) {
	op := &Op{Query: strings.Repeat("SELECT k.person2id FROM person_knows_person k WHERE k.person1id = $1 UNION ", 20) + "SELECT $2",
		Args: []any{int64(4398046511104), int64(933)}}
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		buf = op.AppendStatement(buf[:0])
	}
}
