package nebulatest

import (
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// showPath renders a FIND SHORTEST PATH cell as "1>2>3" (vertex ids of
// the path, in order), or "" when the value is no path.
func showPath(v *graphsvc.Value) string {
	if v.PVal == nil {
		return ""
	}
	ids := []string{showVal(v.PVal.Src.Vid)}
	for _, s := range v.PVal.Steps {
		ids = append(ids, showVal(s.Dst.Vid))
	}
	return strings.Join(ids, ">")
}

// TestStatements checks each statement shape the package doc claims the
// stand-in answers, with the rows graphd gives for the same graph.
func TestStatements(t *testing.T) {
	s, space := matchStore(t)
	for _, q := range []string{
		"CREATE TAG INDEX IF NOT EXISTS person_first ON Person(firstName(20))",
		"REBUILD TAG INDEX person_first",
	} {
		if _, err := s.exec(space, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, c := range []struct{ q, want string }{
		{"SHOW SPACES", "g"},
		{"DESCRIBE SPACE g", "1,g,100,1,utf8,utf8_bin,INT64"},
		{"SHOW TAGS", "Comment;Person;Post"},
		{"SHOW EDGES", "HAS_CREATOR;KNOWS;LIKES;REPLY_OF"},
		// GO follows KNOWS out of the start vertex only; BIDIRECT both ways.
		{"GO 1 STEP FROM 3 OVER KNOWS YIELD dst(edge)", "2;4"},
		{"GO 1 STEP FROM 2 OVER KNOWS YIELD dst(edge)", ""},
		{"GO 1 STEP FROM 2 OVER KNOWS BIDIRECT YIELD DISTINCT dst(edge)", "1;3"},
		{"GO 2 STEP FROM 1 OVER KNOWS BIDIRECT YIELD DISTINCT dst(edge)", "1;3"},
		{"GO 1 STEP FROM 3 OVER KNOWS YIELD $$.Person.firstName", "Bob;Ann"},
		{"GO 1 STEP FROM 1 OVER KNOWS YIELD KNOWS.creationDate", "2011-01-01 00:00:00"},
		{"FETCH PROP ON Person 2 YIELD Person.firstName, Person.birthday", "Bob,1991-01-02 00:00:00"},
		{"FETCH PROP ON Person 99 YIELD Person.firstName", ""},
		{"FETCH PROP ON KNOWS 3 -> 4 YIELD KNOWS.creationDate", "2011-01-03 00:00:00"},
		{"SUBMIT JOB STATS", "2"}, // the index rebuild above was job 1
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
	// LOOKUP reads the index; graphd gives its rows in no set order.
	if ds, err := s.exec(space, `LOOKUP ON Person WHERE Person.firstName == "Ann" YIELD id(vertex)`); err != nil || !(show(ds) == "1;4" || show(ds) == "4;1") {
		t.Errorf("LOOKUP: %v %v", show(ds), err)
	}
	// One shortest path (the stand-in's documented difference: graphd
	// returns all of them), of the shortest length, either way along KNOWS.
	ds, err := s.exec(space, "FIND SHORTEST PATH FROM 1 TO 4 OVER KNOWS BIDIRECT UPTO 5 STEPS YIELD path AS p")
	if err != nil || len(ds.Rows) != 1 || showPath(ds.Rows[0].Values[0]) != "1>2>3>4" {
		t.Errorf("shortest path 1 to 4: %v %v", show(ds), err)
	}
	if ds, err := s.exec(space, "FIND SHORTEST PATH FROM 1 TO 4 OVER KNOWS BIDIRECT UPTO 2 STEPS YIELD path AS p"); err != nil || len(ds.Rows) != 0 {
		t.Errorf("shortest path beyond UPTO: %v %v", ds, err)
	}
	// SHOW STATS counts what was inserted, per tag and edge type.
	ds, err = s.exec(space, "SHOW STATS")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Tag,Person,4", "Tag,Post,1", "Tag,Comment,2", "Edge,KNOWS,3", "Edge,LIKES,2", "Space,vertices,7", "Space,edges,10"} {
		if !strings.Contains(";"+show(ds)+";", ";"+want+";") {
			t.Errorf("SHOW STATS lacks %q: %s", want, show(ds))
		}
	}
	if ds, _ := s.exec(space, "SHOW HOSTS GRAPH"); !strings.Contains(show(ds), "not a NebulaGraph server") {
		t.Errorf("SHOW HOSTS does not say it is a stand-in: %s", show(ds))
	}
}

// TestStatementErrors: the error codes graphd gives for the same mistakes.
func TestStatementErrors(t *testing.T) {
	s, space := matchStore(t)
	none := ""
	for _, c := range []struct {
		space *string
		q     string
		code  graphsvc.ErrorCode
		msg   string
	}{
		{space, "", graphsvc.ErrorCode_E_STATEMENT_EMPTY, "StatementEmpty"},
		{space, "USE nosuch", graphsvc.ErrorCode_E_SPACE_NOT_FOUND, "nosuch"},
		{space, "DROP SPACE nosuch", graphsvc.ErrorCode_E_SPACE_NOT_FOUND, "nosuch"},
		{&none, "GO 1 STEP FROM 1 OVER KNOWS YIELD dst(edge)", graphsvc.ErrorCode_E_SEMANTIC_ERROR, "Space was not chosen"},
		{space, "GO 1 STEP FROM 1 OVER FOLLOWS YIELD dst(edge)", graphsvc.ErrorCode_E_SEMANTIC_ERROR, "FOLLOWS"},
		{space, `INSERT VERTEX Forum(title) VALUES 1:("x")`, graphsvc.ErrorCode_E_SEMANTIC_ERROR, "Forum"},
		{space, "UPDATE VERTEX 1 SET x = 1", graphsvc.ErrorCode_E_SYNTAX_ERROR, "near `UPDATE VERTEX 1"},
		{space, "GO 1 STEP FROM 1 OVER KNOWS YIELD dst(edge) |", graphsvc.ErrorCode_E_SYNTAX_ERROR, ""},
	} {
		_, err := s.exec(c.space, c.q)
		if err == nil {
			t.Errorf("%q: accepted", c.q)
			continue
		}
		if err.code != c.code || !strings.Contains(err.msg, c.msg) {
			t.Errorf("%q: %v %q, want %v containing %q", c.q, err.code, err.msg, c.code, c.msg)
		}
	}
}
