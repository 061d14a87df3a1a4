package graph

import (
	"slices"
	"strings"

	"github.com/stampede-bench/stampede/internal/workload/graph/ngqlload"
)

// The nGQL of the LDBC Interactive reads IS1-IS7, IC1, IC2, IC7, IC8 and
// IC9 for the space package ngqlload loads (every LDBC entity a tag, every
// relation an edge type in LDBC's direction, vids from ngqlload.VID):
// openCypher MATCH statements as NebulaGraph 3.x runs them, each the
// same answer as the SQL of interactive_sql.go, column for column, with
// the same orderings and tie-breakers. $1 is the vid of the person or
// message, $2 a first name (IC1) or a datetime (IC2, IC9); the scenarios
// render them into the text (nGQL has no bind parameters).
//
// Messages are posts or comments: one vid space (ngqlload.KindMessage),
// read through properties(m), which holds the properties of whichever tag
// the vertex has. Ids come back as vids; ngqlCell turns them into LDBC
// ids, so ordering by a vid orders by the LDBC id (vids of one kind are
// kind<<56 | id).

// ngqlMsgText is a message's text: a photo post's imageFile, else content.
// (A comment has no imageFile: NULL, made "" so that the condition is a
// boolean either way.)
const ngqlMsgText = `CASE WHEN coalesce(properties(m).imageFile, "") <> "" THEN properties(m).imageFile ELSE properties(m).content END`

// ngqlReplyDepth bounds the walk from a comment up its reply chain to the
// post (the generator's threads are far shallower).
const ngqlReplyDepth = "100"

// ngqlInteractive is one scenario's statement and how to read its answer.
type ngqlInteractive struct {
	query string
	// vids are the columns holding vids (reported as LDBC ids).
	vids []int
	// sets are the columns holding sets: a ";"-joined string (Person.email,
	// Person.speaks) or a list, compared sorted and ";"-joined as the SQL
	// answers them.
	sets []int
}

// ngqlInteractiveQueries returns the nGQL of the Interactive scenarios by
// name (IC13 is the dialect's ShortestPath).
func ngqlInteractiveQueries() map[string]ngqlInteractive {
	person := func(v string) string {
		return "id(" + v + ") AS personId, " + v + ".Person.firstName AS personFirstName, " + v + ".Person.lastName AS personLastName"
	}
	recent := " RETURN " + person("f") + ", id(m) AS messageId, " + ngqlMsgText + " AS messageContent, properties(m).creationDate AS messageCreationDate" +
		" ORDER BY messageCreationDate DESC, messageId ASC LIMIT 20"
	return map[string]ngqlInteractive{
		IS1: {query: "MATCH (n:Person)-[:IS_LOCATED_IN]->(c:Place) WHERE id(n) == $1" +
			" RETURN n.Person.firstName AS firstName, n.Person.lastName AS lastName, n.Person.birthday AS birthday," +
			" n.Person.locationIP AS locationIP, n.Person.browserUsed AS browserUsed, id(c) AS cityId, n.Person.gender AS gender," +
			" n.Person.creationDate AS creationDate", vids: []int{5}},
		IS2: {query: "MATCH (n:Person)<-[:HAS_CREATOR]-(m) WHERE id(n) == $1" +
			" WITH m, properties(m).creationDate AS created, id(m) AS mid ORDER BY created DESC, mid DESC LIMIT 10" +
			" MATCH (m)-[:REPLY_OF*0.." + ngqlReplyDepth + "]->(o:Post)-[:HAS_CREATOR]->(a:Person)" +
			" RETURN id(m) AS messageId, " + ngqlMsgText + " AS messageContent, created AS messageCreationDate, id(o) AS originalPostId, " +
			"id(a) AS originalPostAuthorId, a.Person.firstName AS originalPostAuthorFirstName, a.Person.lastName AS originalPostAuthorLastName" +
			" ORDER BY messageCreationDate DESC, messageId DESC", vids: []int{0, 3}},
		IS3: {query: "MATCH (n:Person)-[k:KNOWS]-(f:Person) WHERE id(n) == $1" +
			" RETURN " + person("f") + ", k.creationDate AS friendshipCreationDate ORDER BY friendshipCreationDate DESC, personId ASC"},
		IS4: {query: "MATCH (m) WHERE id(m) == $1 RETURN properties(m).creationDate AS messageCreationDate, " + ngqlMsgText + " AS messageContent"},
		IS5: {query: "MATCH (m)-[:HAS_CREATOR]->(p:Person) WHERE id(m) == $1 RETURN " + person("p")},
		IS6: {query: "MATCH (m)-[:REPLY_OF*0.." + ngqlReplyDepth + "]->(:Post)<-[:CONTAINER_OF]-(f:Forum)-[:HAS_MODERATOR]->(p:Person) WHERE id(m) == $1" +
			" RETURN id(f) AS forumId, f.Forum.title AS forumTitle, " + person("p"), vids: []int{0}},
		IS7: {query: "MATCH (m)<-[:REPLY_OF]-(c:Comment)-[:HAS_CREATOR]->(p:Person) WHERE id(m) == $1" +
			" MATCH (m)-[:HAS_CREATOR]->(a:Person) OPTIONAL MATCH (p)-[k:KNOWS]-(a)" +
			" RETURN id(c) AS commentId, c.Comment.content AS commentContent, c.Comment.creationDate AS commentCreationDate, " + person("p") +
			", k IS NOT NULL AS replyAuthorKnowsOriginalMessageAuthor ORDER BY commentCreationDate DESC, personId ASC, commentId ASC", vids: []int{0}},
		IC1: {query: "MATCH (n:Person)-[e:KNOWS*1..3]-(f:Person) WHERE id(n) == $1 AND f.Person.firstName == $2 AND id(f) <> $1" +
			" WITH f, f.Person.lastName AS lastName, id(f) AS fid, min(size(e)) AS distance ORDER BY distance, lastName, fid LIMIT 20" +
			" OPTIONAL MATCH (f)-[:IS_LOCATED_IN]->(city:Place) " +
			"OPTIONAL MATCH (f)-[s:STUDY_AT]->(u:Organisation)-[:IS_LOCATED_IN]->(uc:Place)" +
			` WITH f, distance, city, collect(u.Organisation.name + "|" + toString(s.classYear) + "|" + uc.Place.name) AS universities` +
			" OPTIONAL MATCH (f)-[w:WORK_AT]->(c:Organisation)-[:IS_LOCATED_IN]->(cc:Place)" +
			` WITH f, distance, city, universities, collect(c.Organisation.name + "|" + toString(w.workFrom) + "|" + cc.Place.name) AS companies` +
			" RETURN id(f) AS friendId, f.Person.lastName AS friendLastName, distance AS distanceFromPerson, f.Person.birthday AS friendBirthday," +
			" f.Person.creationDate AS friendCreationDate, f.Person.gender AS friendGender, f.Person.browserUsed AS friendBrowserUsed," +
			" f.Person.locationIP AS friendLocationIp, f.Person.email AS friendEmails, f.Person.speaks AS friendLanguages," +
			" city.Place.name AS friendCityName, universities AS friendUniversities, companies AS friendCompanies" +
			" ORDER BY distanceFromPerson, friendLastName, friendId", sets: []int{8, 9, 11, 12}},
		IC2: {query: "MATCH (n:Person)-[:KNOWS]-(f:Person)<-[:HAS_CREATOR]-(m) WHERE id(n) == $1 AND properties(m).creationDate < $2" + recent,
			vids: []int{3}},
		IC7: {query: "MATCH (n:Person)<-[:HAS_CREATOR]-(m)<-[l:LIKES]-(f:Person) WHERE id(n) == $1" +
			" WITH n, f, m, l.creationDate AS likeTime, id(m) AS mid ORDER BY likeTime DESC, mid ASC" +
			" WITH n, f, head(collect(m)) AS m, head(collect(likeTime)) AS likeTime" +
			" OPTIONAL MATCH (f)-[k:KNOWS]-(n)" +
			" RETURN " + person("f") + ", likeTime AS likeCreationDate, id(m) AS messageId, " + ngqlMsgText + " AS messageContent," +
			" (timestamp(likeTime) - timestamp(properties(m).creationDate)) / 60 AS minutesLatency, k IS NULL AS isNew" +
			" ORDER BY likeCreationDate DESC, personId ASC LIMIT 20", vids: []int{4}},
		IC8: {query: "MATCH (n:Person)<-[:HAS_CREATOR]-(m)<-[:REPLY_OF]-(c:Comment)-[:HAS_CREATOR]->(f:Person) WHERE id(n) == $1" +
			" RETURN " + person("f") + ", c.Comment.creationDate AS commentCreationDate, id(c) AS commentId, c.Comment.content AS commentContent" +
			" ORDER BY commentCreationDate DESC, commentId ASC LIMIT 20", vids: []int{4}},
		IC9: {query: "MATCH (n:Person)-[:KNOWS*1..2]-(f:Person) WHERE id(n) == $1 AND id(f) <> $1 WITH DISTINCT f" +
			" MATCH (f)<-[:HAS_CREATOR]-(m) WHERE properties(m).creationDate < $2" + recent, vids: []int{3}},
	}
}

// ngqlCell is the canonical cell of column k of an nGQL answer (see
// canonCell): vids become LDBC ids, sets are sorted.
func (q *ngqlInteractive) cell(k int, x any) string {
	if slices.Contains(q.vids, k) {
		if vid, ok := x.(int64); ok {
			_, id := ngqlload.SplitVID(vid)
			return cellInt(id)
		}
	}
	if slices.Contains(q.sets, k) {
		var items []string
		switch v := x.(type) {
		case string:
			if v != "" {
				items = strings.Split(v, ";")
			}
		case []any:
			for _, it := range v {
				s, ok := it.(string)
				if !ok {
					return canonCell(x) // not a list of text: differs
				}
				items = append(items, s)
			}
		case nil:
		default:
			return canonCell(x)
		}
		slices.Sort(items)
		if _, isList := x.([]any); !isList {
			items = slices.Compact(items) // as sortedList
		}
		return cellText(strings.Join(items, ";"))
	}
	return canonCell(x)
}

// ngqlParam is the vid of an Interactive parameter row's person or message.
func ngqlParam(kind interactiveKind, id int64) int64 {
	if kind == onMessage {
		return ngqlload.VID(ngqlload.KindMessage, id)
	}
	return ngqlload.VID(ngqlload.KindPerson, id)
}
