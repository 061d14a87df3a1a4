package nebulatest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// matchStore is a small forum: persons 1-4 (1-2, 2-3, 3-4 friends), a
// post 10 by 1 with comments 11 (by 2, replying to 10) and 12 (by 3,
// replying to 11), likes of 10 by 3 and 4.
func matchStore(t testing.TB) (*Store, *string) {
	t.Helper()
	s := NewStore()
	space := ""
	for _, q := range []string{
		"CREATE SPACE g(vid_type = INT64)", "USE g",
		"CREATE TAG Person(firstName string, birthday date, creationDate datetime)",
		"CREATE TAG Post(content string, imageFile string, creationDate datetime)",
		"CREATE TAG Comment(content string, creationDate datetime)",
		"CREATE EDGE KNOWS(creationDate datetime)", "CREATE EDGE HAS_CREATOR()", "CREATE EDGE REPLY_OF()",
		"CREATE EDGE LIKES(creationDate datetime)",
		`INSERT VERTEX Person(firstName, birthday, creationDate) VALUES 1:("Ann", date("1990-01-02"), datetime("2010-01-01T00:00:00.000")),` +
			` 2:("Bob", date("1991-01-02"), datetime("2010-01-02T00:00:00.000")), 3:("Cid", NULL, datetime("2010-01-03T00:00:00.000")),` +
			` 4:("Ann", NULL, datetime("2010-01-04T00:00:00.000"))`,
		`INSERT EDGE KNOWS(creationDate) VALUES 1->2:(datetime("2011-01-01T00:00:00.000")), 3->2:(datetime("2011-01-02T00:00:00.000")), 3->4:(datetime("2011-01-03T00:00:00.000"))`,
		`INSERT VERTEX Post(content, imageFile, creationDate) VALUES 10:("hello", "", datetime("2012-01-01T10:00:00.000"))`,
		`INSERT VERTEX Comment(content, creationDate) VALUES 11:("re", datetime("2012-01-01T11:00:00.000")), 12:("re re", datetime("2012-01-01T12:30:59.999"))`,
		"INSERT EDGE HAS_CREATOR() VALUES 10->1:(), 11->2:(), 12->3:()",
		"INSERT EDGE REPLY_OF() VALUES 11->10:(), 12->11:()",
		`INSERT EDGE LIKES(creationDate) VALUES 3->10:(datetime("2012-01-02T00:00:00.000")), 4->10:(datetime("2012-01-03T00:00:00.000"))`,
	} {
		if _, err := s.exec(&space, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return s, &space
}

// show renders a data set as "a,b;c,d".
func show(ds *graphsvc.DataSet) string {
	var rows []string
	for _, r := range ds.Rows {
		var cells []string
		for _, v := range r.Values {
			cells = append(cells, showVal(v))
		}
		rows = append(rows, strings.Join(cells, ","))
	}
	return strings.Join(rows, ";")
}

func showVal(v *graphsvc.Value) string {
	switch {
	case v.IVal != nil:
		return fmt.Sprint(*v.IVal)
	case v.SVal != nil:
		return string(v.SVal)
	case v.BVal != nil:
		return fmt.Sprint(*v.BVal)
	case v.DtVal != nil, v.DVal != nil:
		x := fromGS(v)
		return time.UnixMicro(x.i).UTC().Format(time.DateTime)
	case v.LVal != nil:
		var items []string
		for _, x := range v.LVal.Values {
			items = append(items, showVal(x))
		}
		return "[" + strings.Join(items, " ") + "]"
	}
	return "null"
}

func TestMatch(t *testing.T) {
	s, space := matchStore(t)
	for _, c := range []struct{ q, want string }{
		{`MATCH (n:Person) WHERE id(n) == 1 RETURN n.Person.firstName, n.Person.birthday`, "Ann,1990-01-02 00:00:00"},
		{`MATCH (n:Person) WHERE id(n) IN [1, 3, 99] RETURN id(n) AS i ORDER BY i DESC`, "3;1"},
		{`MATCH (n:Post) WHERE id(n) == 1 RETURN id(n)`, ""},
		{`MATCH (n) WHERE id(n) == 99 RETURN id(n), n.Person.firstName`, ""},
		{`MATCH (n) WHERE id(n) == "x" RETURN id(n)`, ""},
		// KNOWS either way, ordered by the edge's date.
		{`MATCH (n:Person)-[k:KNOWS]-(f:Person) WHERE id(n) == 3 RETURN id(f) AS f, k.creationDate AS d ORDER BY d DESC, f`,
			"4,2011-01-03 00:00:00;2,2011-01-02 00:00:00"},
		{`MATCH (n)<-[:KNOWS]-(f) WHERE id(n) == 2 RETURN id(f) AS f ORDER BY f`, "1;3"},
		// Variable length: trails, distances by min(size(e)).
		{`MATCH (p:Person)-[e:KNOWS*1..3]-(f:Person) WHERE id(p) == 1 AND id(f) <> 1 WITH f, min(size(e)) AS d RETURN id(f), d ORDER BY d`,
			"2,1;3,2;4,3"},
		{`MATCH (p:Person)-[e:KNOWS*1..3]-(f:Person) WHERE id(p) == 1 AND f.Person.firstName == "Ann" RETURN id(f), size(e)`, "4,3"},
		{`MATCH (p)-[:KNOWS*2]-(f) WHERE id(p) == 2 RETURN DISTINCT id(f) AS f ORDER BY f`, "4"},
		// Reply chains up to the post, messages of either tag.
		{`MATCH (m)-[:REPLY_OF*0..10]->(o:Post)-[:HAS_CREATOR]->(a) WHERE id(m) IN [10, 11, 12] RETURN id(m) AS m, id(o), id(a) ORDER BY m`,
			"10,10,1;11,10,1;12,10,1"},
		{`MATCH (m) WHERE id(m) == 12 RETURN properties(m).creationDate, CASE WHEN properties(m).imageFile <> "" THEN properties(m).imageFile ELSE properties(m).content END`,
			"2012-01-01 12:30:59,re re"},
		{`MATCH (m) WHERE id(m) == 10 RETURN coalesce(m.Comment.content, m.Post.content), m.Comment.content IS NULL`, "hello,true"},
		// OPTIONAL MATCH and the knows test of IS7.
		{`MATCH (m)<-[:REPLY_OF]-(c:Comment)-[:HAS_CREATOR]->(p:Person) WHERE id(m) == 11 MATCH (m)-[:HAS_CREATOR]->(a:Person)
		  OPTIONAL MATCH (p)-[k:KNOWS]-(a) RETURN id(c), id(p), id(a), k IS NOT NULL`, "12,3,2,true"},
		{`MATCH (m)<-[:REPLY_OF]-(c:Comment)-[:HAS_CREATOR]->(p:Person) WHERE id(m) == 10 MATCH (m)-[:HAS_CREATOR]->(a:Person)
		  OPTIONAL MATCH (p)-[k:KNOWS]-(a) RETURN id(c), id(p), id(a), k IS NOT NULL`, "11,2,1,true"},
		{`MATCH (a:Person) WHERE id(a) == 4 OPTIONAL MATCH (a)<-[:HAS_CREATOR]-(m) RETURN id(a), count(m), collect(id(m))`, "4,0,[]"},
		// Aggregates, ordered collect, head, arithmetic on timestamps.
		{`MATCH (p:Person)<-[:HAS_CREATOR]-(m)<-[l:LIKES]-(x:Person) WHERE id(p) == 1
		  WITH x, m, l, l.creationDate AS likeTime, id(m) AS mid ORDER BY likeTime DESC, mid
		  WITH x, head(collect(m)) AS m, head(collect(likeTime)) AS at
		  RETURN id(x) AS x, id(m), (timestamp(at) - timestamp(m.Post.creationDate)) / 60 AS minutes ORDER BY x`,
			"3,10,840;4,10,2280"},
		{`MATCH (p:Person)-[:KNOWS]-(f) WHERE id(p) == 3 RETURN count(*), collect(f.Person.firstName + "|" + toString(id(f)))`, "2,[Bob|2 Ann|4]"},
		{`MATCH (p:Person)-[:KNOWS]-(f) WHERE id(p) == 3 WITH f, id(f) AS i ORDER BY i LIMIT 1 RETURN id(f)`, "2"},
		{`MATCH (p:Person)-[:KNOWS]-(f) WHERE id(p) == 3 RETURN id(f) ORDER BY id(f) DESC`, "4;2"},
		{`MATCH (p:Person)-[:KNOWS]-(f) WHERE id(p) == 3 WITH f SKIP 1 RETURN id(f)`, "4"},
		{`MATCH (p:Person)-[:KNOWS]-(f) WHERE id(p) == 3 WITH f WHERE f.Person.firstName == "Ann" RETURN id(f)`, "4"},
		{`MATCH (m:Comment) WHERE id(m) == 12 AND m.Comment.creationDate < datetime("2012-01-01T12:31:00.000") RETURN id(m)`, "12"},
		{`MATCH (m:Comment) WHERE id(m) == 12 AND m.Comment.creationDate < datetime("2012-01-01T12:30:59.999") RETURN id(m)`, ""},
		{`MATCH (p) WHERE id(p) == 1 RETURN 7 / 2, 7 % 2, -7 / 2, 1 + 2 * 3, "a" + 1, NOT (1 < 2 AND NULL), null OR true`, "3,1,-3,7,a1,null,true"},
	} {
		ds, err := s.exec(space, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if got := show(ds); got != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.q, got, c.want)
		}
	}
}

// Statements graphd would refuse are refused.
func TestMatchErrors(t *testing.T) {
	s, space := matchStore(t)
	for q, want := range map[string]string{
		`MATCH (n:Person) RETURN n`:                                 "Can't solve the start vids",
		`MATCH (n:Forum) WHERE id(n) == 1 RETURN n`:                 "`Forum': Unknown tag",
		`MATCH (n)-[:LIKES|HAS_TAG]->(m) WHERE id(n) == 1 RETURN n`: "`HAS_TAG': Unknown edge type",
		`MATCH (n) WHERE id(n) == 1 RETURN m`:                       "`m' is not defined",
		`MATCH (n) WHERE id(n) == 1 RETURN nosuch(n)`:               "no function nosuch",
		`MATCH (n) WHERE id(n) == 1`:                                "ends with RETURN",
		`MATCH p = (n)-[:KNOWS]-(m) WHERE id(n) == 1 RETURN p`:      "path variables",
		`MATCH (n) WHERE id(n) == 1 RETURN id(n) RETURN id(n)`:      "RETURN must be the last",
		`MATCH (n)<-[:KNOWS]->(m) WHERE id(n) == 1 RETURN id(m)`:    "both ways",
		`MATCH (n) WHERE id(n) == 1 RETURN 1 / 0`:                   "Division by zero",
		`MATCH (n) WHERE id(n) == 1 RETURN count(n) + id(n) AS x`:   "",
		`MATCH (n) WHERE id(n) == 1 UNWIND [1] AS x RETURN x`:       "does not know this clause",
		`MATCH (n {name: "x"}) WHERE id(n) == 1 RETURN id(n)`:       "property maps",
		`MATCH (n) WHERE id(n) == 1 RETURN id(n) ORDER BY nope(1)`:  "Order by with invalid expression `nope(1)'",
		`MATCH (n) WHERE id(n) == 1 WITH n ORDER BY id(n) RETURN n`: "Order by with invalid expression `id(n)'",
	} {
		_, err := s.exec(space, q)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", q, err)
		case want != "" && (err == nil || !strings.Contains(err.msg, want)):
			t.Errorf("%s: error %v, want %q", q, err, want)
		}
	}
}

// FuzzMatch: no statement makes the stand-in panic or hang.
func FuzzMatch(f *testing.F) {
	for _, q := range []string{
		`MATCH (p:Person)-[e:KNOWS*1..3]-(f:Person) WHERE id(p) == 1 WITH f, min(size(e)) AS d RETURN id(f), d ORDER BY d`,
		`MATCH (m)-[:REPLY_OF*0..10]->(o:Post)-[:HAS_CREATOR]->(a) WHERE id(m) IN [10, 11, 12] RETURN id(m) AS m ORDER BY m`,
		`MATCH (m) WHERE id(m) == 12 RETURN CASE WHEN properties(m).imageFile <> "" THEN 1 ELSE {a: [1, 2][0]} END`,
		`MATCH (a) WHERE id(a) == 4 OPTIONAL MATCH (a)<-[:HAS_CREATOR]-(m) WITH a, collect(m) AS c RETURN head(c), count(*) SKIP 1 LIMIT 2`,
	} {
		f.Add(q)
	}
	s, space := matchStore(f)
	f.Fuzz(func(t *testing.T, q string) {
		if strings.Count(q, "*") > 2 {
			return // unbounded walks over many patterns take long, not forever
		}
		s.exec(space, q)
	})
}
