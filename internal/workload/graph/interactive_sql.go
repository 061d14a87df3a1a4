package graph

import "strings"

// The SQL of the LDBC Interactive short reads IS1-IS7 and complex reads
// IC2, IC7, IC8 and IC9 over the tables package loader creates. Messages
// are posts or comments (one id space); a post's text is its imageFile
// when it is a photo. Every ORDER BY ends with a unique tie-breaker so that
// answers are deterministic and can be compared row by row. $1 is a person
// or message id, $2 a date (IC2, IC9).

// sqlPostText is a post's text: content, or imageFile for photos.
const sqlPostText = "CASE WHEN po.imagefile <> '' THEN po.imagefile ELSE po.content END"

// sqlWalkUp defines up(cur): message $1 and its ancestors up to the post.
const sqlWalkUp = "up(cur) AS (SELECT CAST($1 AS BIGINT) UNION ALL SELECT COALESCE(rc.parentid, rp.postid) FROM up" +
	" LEFT JOIN comment_replyof_comment rc ON rc.commentid = up.cur LEFT JOIN comment_replyof_post rp ON rp.commentid = up.cur" +
	" WHERE rc.parentid IS NOT NULL OR rp.postid IS NOT NULL)"

// sqlFriends defines fr(fid): the friends of person $1.
const sqlFriends = "fr(fid) AS (SELECT person2id FROM person_knows_person WHERE person1id = $1" +
	" UNION SELECT person1id FROM person_knows_person WHERE person2id = $1)"

// sqlKnows is a condition: persons A and B are friends.
func sqlKnows(a, b string) string {
	return "EXISTS (SELECT 1 FROM person_knows_person k WHERE (k.person1id = " + a + " AND k.person2id = " + b +
		") OR (k.person1id = " + b + " AND k.person2id = " + a + "))"
}

// sqlMessagesOf defines name(id, creator, content, created): the messages
// created by the persons of relation who(column), before $2 when dated.
func sqlMessagesOf(name, who, col string, dated bool) string {
	cond := func(t string) string {
		if dated {
			return " AND " + t + ".creationdate < $2"
		}
		return ""
	}
	// CROSS JOIN keeps SQLite's join order: from the persons to their
	// messages through the creator indexes.
	return name + "(id, creator, content, created) AS (" +
		"SELECT po.id, h.personid, " + sqlPostText + ", po.creationdate FROM " + who + " w" +
		" CROSS JOIN post_hascreator_person h CROSS JOIN post po WHERE h.personid = w." + col + " AND po.id = h.postid" + cond("po") +
		" UNION ALL SELECT co.id, h.personid, co.content, co.creationdate FROM " + who + " w" +
		" CROSS JOIN comment_hascreator_person h CROSS JOIN comment co WHERE h.personid = w." + col + " AND co.id = h.commentid" + cond("co") + ")"
}

func sqlIS1() string {
	return "SELECT p.firstname, p.lastname, p.birthday, p.locationip, p.browserused, l.placeid, p.gender, p.creationdate" +
		" FROM person p JOIN person_islocatedin_place l ON l.personid = p.id WHERE p.id = $1"
}

func sqlIS2() string {
	return "WITH RECURSIVE me(id) AS (SELECT CAST($1 AS BIGINT)), " + sqlMessagesOf("m", "me", "id", false) +
		", top AS (SELECT id, content, created FROM m ORDER BY created DESC, id DESC LIMIT 10)" +
		", up(id, cur) AS (SELECT id, id FROM top UNION ALL SELECT up.id, COALESCE(rc.parentid, rp.postid) FROM up" +
		" LEFT JOIN comment_replyof_comment rc ON rc.commentid = up.cur LEFT JOIN comment_replyof_post rp ON rp.commentid = up.cur" +
		" WHERE rc.parentid IS NOT NULL OR rp.postid IS NOT NULL)" +
		" SELECT top.id, top.content, top.created, r.cur, a.id, a.firstname, a.lastname" +
		" FROM top JOIN up r ON r.id = top.id JOIN post po ON po.id = r.cur" +
		" JOIN post_hascreator_person pc ON pc.postid = po.id JOIN person a ON a.id = pc.personid" +
		" ORDER BY top.created DESC, top.id DESC"
}

func sqlIS3() string {
	return "SELECT f.id, f.firstname, f.lastname, k.creationdate FROM (" +
		"SELECT person2id AS fid, creationdate FROM person_knows_person WHERE person1id = $1" +
		" UNION ALL SELECT person1id, creationdate FROM person_knows_person WHERE person2id = $1) k" +
		" JOIN person f ON f.id = k.fid ORDER BY k.creationdate DESC, f.id ASC"
}

func sqlIS4() string {
	return "SELECT po.creationdate, " + sqlPostText + " FROM post po WHERE po.id = $1" +
		" UNION ALL SELECT co.creationdate, co.content FROM comment co WHERE co.id = $1"
}

func sqlIS5() string {
	return "SELECT p.id, p.firstname, p.lastname FROM (" +
		"SELECT personid FROM post_hascreator_person WHERE postid = $1" +
		" UNION ALL SELECT personid FROM comment_hascreator_person WHERE commentid = $1) c JOIN person p ON p.id = c.personid"
}

func sqlIS6() string {
	return "WITH RECURSIVE " + sqlWalkUp +
		" SELECT f.id, f.title, p.id, p.firstname, p.lastname FROM up JOIN forum_containerof_post c ON c.postid = up.cur" +
		" JOIN forum f ON f.id = c.forumid JOIN forum_hasmoderator_person m ON m.forumid = f.id JOIN person p ON p.id = m.personid"
}

func sqlIS7() string {
	return "SELECT c.id, c.content, c.creationdate, p.id, p.firstname, p.lastname, CASE WHEN " + sqlKnows("p.id", "a.aid") + " THEN 1 ELSE 0 END" +
		" FROM (SELECT commentid FROM comment_replyof_post WHERE postid = $1 UNION ALL SELECT commentid FROM comment_replyof_comment WHERE parentid = $1) r" +
		" JOIN comment c ON c.id = r.commentid JOIN comment_hascreator_person h ON h.commentid = c.id JOIN person p ON p.id = h.personid" +
		" CROSS JOIN (SELECT personid AS aid FROM post_hascreator_person WHERE postid = $1" +
		" UNION ALL SELECT personid FROM comment_hascreator_person WHERE commentid = $1) a" +
		" ORDER BY c.creationdate DESC, p.id ASC, c.id ASC"
}

func sqlIC2() string {
	return "WITH " + sqlFriends + ", " + sqlMessagesOf("m", "fr", "fid", true) +
		" SELECT p.id, p.firstname, p.lastname, m.id, m.content, m.created FROM m JOIN person p ON p.id = m.creator" +
		" ORDER BY m.created DESC, m.id ASC LIMIT 20"
}

func sqlIC9() string {
	return "WITH " + sqlFriends + ", fof(fid) AS (SELECT fid FROM fr UNION" +
		" SELECT k.person2id FROM fr JOIN person_knows_person k ON k.person1id = fr.fid UNION" +
		" SELECT k.person1id FROM fr JOIN person_knows_person k ON k.person2id = fr.fid)" +
		", oth(fid) AS (SELECT fid FROM fof WHERE fid <> $1), " + sqlMessagesOf("m", "oth", "fid", true) +
		" SELECT p.id, p.firstname, p.lastname, m.id, m.content, m.created FROM m JOIN person p ON p.id = m.creator" +
		" ORDER BY m.created DESC, m.id ASC LIMIT 20"
}

func sqlIC8() string {
	return "WITH me(id) AS (SELECT CAST($1 AS BIGINT)), " + sqlMessagesOf("mine", "me", "id", false) +
		", r(id) AS (SELECT rp.commentid FROM mine CROSS JOIN comment_replyof_post rp WHERE rp.postid = mine.id" +
		" UNION ALL SELECT rc.commentid FROM mine CROSS JOIN comment_replyof_comment rc WHERE rc.parentid = mine.id)" +
		" SELECT p.id, p.firstname, p.lastname, c.creationdate, c.id, c.content FROM r JOIN comment c ON c.id = r.id" +
		" JOIN comment_hascreator_person h ON h.commentid = c.id JOIN person p ON p.id = h.personid" +
		" ORDER BY c.creationdate DESC, c.id ASC LIMIT 20"
}

// sqlIC7 needs the minutes between two instants, truncated to whole
// seconds first: dialect-specific.
func sqlIC7(postgres bool) string {
	minutes := "(CAST(strftime('%s', substr(l.at, 1, 19)) AS INTEGER) - CAST(strftime('%s', substr(l.created, 1, 19)) AS INTEGER)) / 60"
	if postgres {
		minutes = "CAST(EXTRACT(EPOCH FROM date_trunc('second', l.at)) - EXTRACT(EPOCH FROM date_trunc('second', l.created)) AS BIGINT) / 60"
	}
	q := "WITH me(id) AS (SELECT CAST($1 AS BIGINT)), " + sqlMessagesOf("mine", "me", "id", false) +
		", lk(personid, at, id, created, content) AS (" +
		"SELECT lp.personid, lp.creationdate, mine.id, mine.created, mine.content FROM mine CROSS JOIN person_likes_post lp WHERE lp.postid = mine.id" +
		" UNION ALL SELECT lc.personid, lc.creationdate, mine.id, mine.created, mine.content FROM mine CROSS JOIN person_likes_comment lc WHERE lc.commentid = mine.id)" +
		", l AS (SELECT personid, at, id, created, content, ROW_NUMBER() OVER (PARTITION BY personid ORDER BY at DESC, id ASC) AS rn FROM lk)" +
		" SELECT p.id, p.firstname, p.lastname, l.at, l.id, l.content, MINUTES, CASE WHEN " + sqlKnows("p.id", "CAST($1 AS BIGINT)") + " THEN 0 ELSE 1 END" +
		" FROM l JOIN person p ON p.id = l.personid WHERE l.rn = 1 ORDER BY l.at DESC, p.id ASC LIMIT 20"
	return strings.Replace(q, "MINUTES", minutes, 1)
}
