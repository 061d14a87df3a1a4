// Package ldbctest writes tiny, hand-checkable LDBC data sets for tests.
package ldbctest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// Tiny is a graph small enough to check by hand:
//
//	1 - 2 - 3 - 4 - 5      plus the chord 1 - 3
//	6 - 7                   a second component
//	8                       alone
//
// Its k-hop parameters are persons 1, 6 and 8; its shortest-path pairs
// (1,5), (1,6), (2,2), (5,1) and (1,4); three insert persons 100-102.
var Tiny = map[string][]string{
	ldbcfile.PersonPath: {
		person(1), person(2), person(3), person(4), person(5), person(6), person(7), person(8),
	},
	ldbcfile.PersonKnowsPersonPath: {
		knows(1, 2), knows(2, 3), knows(3, 4), knows(4, 5), knows(1, 3), knows(6, 7),
	},
	ldbcfile.KHopPersonPath:           {"1", "6", "8"},
	ldbcfile.ShortestPathPath:         {"1|5", "1|6", "2|2", "5|1", "1|4"},
	ldbcfile.InsertPersonPath:         {person(100), person(101), person(102)},
	ldbcfile.PersonSpeaksLanguagePath: {"1|en", "1|fr", "2|de"},
}

// TinyGoStep are the expected go.GoNStep rows of Tiny's k-hop persons:
// distinct ends of KNOWS walks of exactly N steps.
var TinyGoStep = map[int64][3]int64{
	1: {2, 4, 5}, // {2,3}; {1,2,3,4}; {1,2,3,4,5}
	6: {1, 1, 1}, // {7}; {6}; {7}
	8: {0, 0, 0},
}

// TinyShortest are the expected path lengths of Tiny's pairs.
var TinyShortest = map[[2]int64]int64{{1, 5}: 3, {1, 6}: -1, {2, 2}: 0, {5, 1}: 3, {1, 4}: 2}

func person(id int) string {
	s := []string{itoa(id), "First" + itoa(id), "Last", "female", "1985-01-02", "2011-02-03T04:05:06.789+0000", "10.0.0." + itoa(id), "Firefox"}
	if id%2 == 0 {
		s[3] = "male"
	}
	return strings.Join(s, "|")
}

func knows(a, b int) string { return itoa(a) + "|" + itoa(b) + "|2012-01-01T00:00:00.000+0000" }

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}

// Write writes every file of the layout into dir: each with its header,
// then rows[path] (other files stay empty).
func Write(t testing.TB, dir string, rows map[string][]string) {
	t.Helper()
	for _, f := range ldbcfile.Files() {
		p := filepath.Join(dir, f.Path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := f.Header + "\n"
		for _, r := range rows[f.Path] {
			body += r + "\n"
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// With returns a copy of base with extra rows appended to some files.
func With(base map[string][]string, extra map[string][]string) map[string][]string {
	out := map[string][]string{}
	for k, v := range base {
		out[k] = append([]string(nil), v...)
	}
	for k, v := range extra {
		out[k] = append(out[k], v...)
	}
	return out
}
