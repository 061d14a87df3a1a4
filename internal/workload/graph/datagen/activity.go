package datagen

import (
	"context"
	"slices"
	"strconv"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// The activity files, in the order chunks carry them, and the message
// substitution parameters written beside them.
const (
	aForum = iota
	aContainer
	aMember
	aModerator
	aForumTag
	aPost
	aPostCreator
	aPostTag
	aPostPlace
	aComment
	aCommentCreator
	aCommentTag
	aCommentPlace
	aReplyComment
	aReplyPost
	aLikesComment
	aLikesPost
	aMessageParam
	activityFileCount
)

// mergedActivity are the one-to-one relation files CsvMergeForeign
// writes as columns of the forum, post and comment files instead.
var mergedActivity = [activityFileCount]bool{aModerator: true, aContainer: true, aPostCreator: true, aPostPlace: true,
	aCommentCreator: true, aCommentPlace: true, aReplyComment: true, aReplyPost: true}

// activityFileSpecs returns path and header per activity file constant.
func activityFileSpecs() [activityFileCount]ldbcfile.File {
	var out [activityFileCount]ldbcfile.File
	copy(out[:], ldbcfile.ActivityFiles())
	out[aMessageParam] = ldbcfile.InteractiveParamFiles()[0]
	return out
}

// Id spaces: forum ids are owner seq << forumIDBits | forum number; message
// (post and comment) ids are owner seq << messageIDBits | message number,
// where the owner is the forum's moderator. Both are unique and positive.
const (
	forumIDBits   = 16
	messageIDBits = 28
)

// member is one forum membership.
type member struct {
	seq  uint32
	join int64
}

// message is a post or comment of the thread being generated.
type message struct {
	id      int64
	created int64
	author  uint32
}

// actChunk holds the rows of a range of owners and the scratch of the
// goroutine producing them.
type actChunk struct {
	buf       [activityFileCount][]byte
	rows      [activityFileCount]int64
	stamp     []uint32 // stamp[s] == gen: s already chosen in this draw
	gen       uint32
	members   []member
	thread    []message
	interests [interestMax]int
	tags      []int
	postTags  []int
	// forumCreated is the creation instant of the forum being filled.
	forumCreated int64
	ev           evBuf // IU2..IU7 operations (Config.UpdateStreams)
}

func (c *actChunk) reset() {
	for i := range c.buf {
		c.buf[i] = c.buf[i][:0]
		c.rows[i] = 0
	}
	c.ev.reset()
}

// next starts a new de-duplication round.
func (c *actChunk) next() {
	c.gen++
	if c.gen == 0 {
		clear(c.stamp)
		c.gen = 1
	}
}

// generateActivity plans and streams every activity file.
func (g *generator) generateActivity(ctx context.Context, o *outputs) error {
	if err := g.planActivity(ctx); err != nil {
		return err
	}
	g.text = newCorpus()
	specs := activityFileSpecs()
	var files [activityFileCount]*outFile
	for i, f := range specs {
		if g.mergeForeign {
			if mergedActivity[i] {
				continue // a column of its entity file
			}
			switch i {
			case aForum:
				f.Header = ldbcfile.ForumMergeForeignHeader
			case aPost:
				f.Header = ldbcfile.PostMergeForeignHeader
			case aComment:
				f.Header = ldbcfile.CommentMergeForeignHeader
			}
		}
		of, err := o.create(f.Path, f.Header)
		if err != nil {
			return err
		}
		files[i] = of
	}
	n := len(g.persons)
	chunks := (n + activityChunk - 1) / activityChunk
	return ordered(ctx, g.workers, chunks,
		func() *actChunk { return &actChunk{stamp: make([]uint32, n)} },
		func(r *rng, c *actChunk, i int) {
			c.reset()
			for s := i * activityChunk; s < min(n, (i+1)*activityChunk); s++ {
				g.ownerActivity(r, c, uint32(s))
			}
		},
		func(c *actChunk, _ int) error {
			for k, f := range files {
				if f == nil {
					continue
				}
				if err := o.write(f, c.buf[k], c.rows[k]); err != nil {
					return err
				}
			}
			o.report()
			if g.updates {
				return g.sorters[streamForumUpdates].add(&c.ev)
			}
			return nil
		})
}

// forumKind tells walls, albums and groups apart.
type forumKind uint8

const (
	kindWall forumKind = iota
	kindAlbum
	kindGroup
)

// ownerActivity writes the forums person s moderates with everything in
// them.
func (g *generator) ownerActivity(r *rng, c *actChunk, s uint32) {
	p := &g.persons[s]
	r.reset(g.seed, streamAttrs, uint64(s))
	ni := g.drawInterests(r, p, &c.interests)
	r.reset(g.seed, streamActivity, uint64(s))
	pl := g.act
	w := g.weight(s)
	var fk, mk int64 // forum and message numbers
	forum := func(kind forumKind, created int64) int64 {
		id := int64(s)<<forumIDBits | fk
		fk++
		c.forumCreated = created
		g.appendForum(r, c, kind, id, p, created, ni)
		return id
	}
	newMsg := func() int64 {
		id := int64(s)<<messageIDBits | mk
		mk++
		return id
	}

	// Wall: members are the friends, from the day the friendship starts.
	fid := forum(kindWall, p.created)
	c.members = c.members[:0]
	for _, f := range g.graph.friends(s) {
		c.members = append(c.members, member{f, g.knowsDate(s, f)})
	}
	g.appendMembers(c, fid, c.forumCreated)
	for range noisy(r, pl.wallPosts*g.rate(s)) {
		created := uniformAfter(r, p.created, endMs)
		g.post(r, c, fid, newMsg, s, created, false)
	}

	// Albums: some friends; photos by the owner, without comments.
	for range pl.albums[s] {
		created := uniformAfter(r, p.created, endMs)
		fid := forum(kindAlbum, created)
		c.members = c.members[:0]
		for _, f := range g.graph.friends(s) {
			if r.Float64() < pl.albumMemberP {
				base := max(created, g.knowsDate(s, f))
				c.members = append(c.members, member{f, uniformAfter(r, base, min(endMs, base+albumJoinMs))})
			}
		}
		g.appendMembers(c, fid, c.forumCreated)
		for range noisy(r, pl.photos*w) {
			g.post(r, c, fid, newMsg, s, uniformAfter(r, created, min(endMs, created+photoWindowMs)), true)
		}
	}

	// Groups: friends, friends of friends and strangers; posts by members.
	// A group's posts are not a rate but a burst that fades: their number
	// follows the square of the group's remaining lifetime, scaled by 3
	// (a group is created uniformly in its owner's membership, so the
	// mean of the squared share is a third and the expected total is the
	// solver's). Spread uniformly over the group's lifetime, they add up
	// to about the same growth over time as the wall posts.
	for range pl.groups[s] {
		created := uniformAfter(r, p.created, endMs)
		fid := forum(kindGroup, created)
		g.drawGroupMembers(r, c, s, created, min(noisy(r, pl.groupMembers*w), len(g.persons)-1))
		g.appendMembers(c, fid, c.forumCreated)
		life := float64(endMs-created) / float64(endMs-p.created)
		for range noisy(r, pl.groupPosts*w*3*life*life) {
			author, date := s, uniformAfter(r, created, endMs)
			if len(c.members) > 0 {
				// A member who joined by then, preferably; else
				// soon after the member joined.
				m := c.pickMember(r, date)
				author = m.seq
				if m.join >= date {
					date = uniformAfter(r, m.join, min(endMs, m.join+groupJoinMs))
				}
			}
			g.post(r, c, fid, newMsg, author, date, false)
		}
	}
}

// uniformAfter draws an instant in (from, to], or from+1 when the span is
// empty.
func uniformAfter(r *rng, from, to int64) int64 {
	if to-from <= 1 {
		return from + 1
	}
	return from + 1 + r.Int64N(to-from)
}

// drawGroupMembers fills c.members with size distinct persons other than
// the owner s.
func (g *generator) drawGroupMembers(r *rng, c *actChunk, s uint32, created int64, size int) {
	c.members = c.members[:0]
	c.next()
	c.stamp[s] = c.gen
	n := len(g.persons)
	friends := g.graph.friends(s)
	for tries := 0; len(c.members) < size && tries < 4*size+16; tries++ {
		var q uint32
		u := r.Float64()
		switch {
		case u < groupFriends && len(friends) > 0:
			q = friends[r.IntN(len(friends))]
		case u < groupFriends+groupFoF && len(friends) > 0:
			f := friends[r.IntN(len(friends))]
			ff := g.graph.friends(f)
			if len(ff) == 0 {
				continue
			}
			q = ff[r.IntN(len(ff))]
		default:
			q = uint32(r.IntN(n))
		}
		if c.stamp[q] == c.gen {
			continue
		}
		c.stamp[q] = c.gen
		base := max(created, g.persons[q].created)
		c.members = append(c.members, member{q, uniformAfter(r, base, min(endMs, base+groupJoinMs))})
	}
}

// appendForum writes the forum row, its moderator and its tags, or an IU4
// when the forum is created after the update cut-over (Config.UpdateStreams).
func (g *generator) appendForum(r *rng, c *actChunk, kind forumKind, id int64, p *person, created int64, ni int) {
	divert := g.streamed(created)
	var b []byte
	if divert {
		c.ev.begin(created, p.created, ldbcfile.UpdateAddForum)
		b = c.ev.b
	} else {
		b = c.buf[aForum]
	}
	b = strconv.AppendInt(b, id, 10)
	b = append(b, '|')
	switch kind {
	case kindWall:
		b = append(b, "Wall of "...)
	case kindAlbum:
		b = append(b, "Album of "...)
	default:
		b = append(b, "Group for "...)
	}
	b = append(b, g.firstName(p)...)
	b = append(b, ' ')
	b = append(b, g.lastName(p)...)
	b = append(b, '|')
	switch {
	case divert:
		b = strconv.AppendInt(b, created, 10)
		b = append(b, '|')
		b = strconv.AppendInt(b, p.id, 10)
		c.ev.b = append(b, '|')
	default:
		b = ldbcfile.AppendDateTimeMillis(b, created)
		if g.mergeForeign {
			b = append(b, '|')
			b = strconv.AppendInt(b, p.id, 10)
		} else {
			c.buf[aModerator] = appendPair(c.buf[aModerator], id, p.id)
			c.rows[aModerator]++
		}
		c.buf[aForum] = append(b, '\n')
		c.rows[aForum]++
	}

	d := g.dicts
	k := max(1, stochRound(r, g.act.forumTags))
	c.tags = c.tags[:0]
	if kind == kindGroup {
		main := c.interests[r.IntN(ni)]
		c.tags = append(c.tags, main)
		class := d.classTags[d.tags[main].class]
		for tries := 0; len(c.tags) < k && tries < 4*k; tries++ {
			t := class[r.IntN(len(class))]
			if r.Float64() < 0.3 {
				t = pick(d.tagCum, r.Float64())
			}
			if !slices.Contains(c.tags, t) {
				c.tags = append(c.tags, t)
			}
		}
	} else {
		for _, t := range c.interests[:min(k, ni)] {
			c.tags = append(c.tags, t)
		}
	}
	if divert {
		c.ev.tagList(c.tags)
		c.ev.end()
		return
	}
	for _, t := range c.tags {
		c.buf[aForumTag] = appendPair(c.buf[aForumTag], id, int64(t))
	}
	c.rows[aForumTag] += int64(len(c.tags))
}

// appendMembers writes the memberships in c.members of forum fid, created
// at fcreated; a membership after the update cut-over becomes an IU5.
func (g *generator) appendMembers(c *actChunk, fid, fcreated int64) {
	b := c.buf[aMember]
	rows := int64(len(c.members))
	for _, m := range c.members {
		if g.streamed(m.join) {
			c.ev.triple(ldbcfile.UpdateAddForumMembership, max(fcreated, g.persons[m.seq].created), fid, g.persons[m.seq].id, m.join)
			rows--
			continue
		}
		b = strconv.AppendInt(b, fid, 10)
		b = append(b, '|')
		b = strconv.AppendInt(b, g.persons[m.seq].id, 10)
		b = append(b, '|')
		b = ldbcfile.AppendDateTimeMillis(b, m.join)
		b = append(b, '\n')
	}
	c.buf[aMember] = b
	c.rows[aMember] += rows
}

// post writes one post (a photo when photo is set) in forum fid with its
// likes and, for text posts, its comment tree. After the update cut-over
// the post is an IU6 instead of rows (drawn the same way, so the data set
// is the same with and without streams).
func (g *generator) post(r *rng, c *actChunk, fid int64, newMsg func() int64, author uint32, created int64, photo bool) {
	d := g.dicts
	pl := g.act
	a := &g.persons[author]
	id := newMsg()
	// Tags: mostly the forum's, some popular ones.
	c.postTags = c.postTags[:0]
	forumTags := c.tags
	for range stochRound(r, pl.postTags) {
		t := pick(d.tagCum, r.Float64())
		if len(forumTags) > 0 && r.Float64() < 0.7 {
			t = forumTags[r.IntN(len(forumTags))]
		}
		if !slices.Contains(c.postTags, t) {
			c.postTags = append(c.postTags, t)
		}
	}
	start := len(c.buf[aPost])
	b := strconv.AppendInt(c.buf[aPost], id, 10)
	b = append(b, '|')
	if photo {
		b = append(b, "photo"...)
		b = strconv.AppendInt(b, id, 10)
		b = append(b, ".jpg|"...)
	} else {
		b = append(b, '|')
	}
	dateAt := len(b)
	b = ldbcfile.AppendDateTimeMillis(b, created)
	dateEnd := len(b)
	b = append(b, '|')
	b = appendIP(b, a.ip)
	b = append(b, '|')
	b = append(b, d.browsers[a.browser]...)
	b = append(b, '|')
	if photo {
		b = append(b, "||0\n"...)
	} else {
		b = append(b, d.countries[a.country].languages[0]...)
		b = append(b, '|')
		start := len(b)
		b = append(b, "About "...)
		topic := int(a.interest)
		if len(c.postTags) > 0 {
			topic = c.postTags[0]
		}
		b = append(b, d.tags[topic].name...)
		b = append(b, ", "...)
		b = g.text.appendRun(b, r, postTextMin+r.IntN(postTextMax-postTextMin))
		n := len(b) - start
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, '\n')
	}
	place := int64(d.countryID(int(a.country)))
	switch {
	case g.streamed(created):
		// IU6: the row's fields with the date in milliseconds, then
		// author, forum, country and tags; the bulk buffer keeps its
		// length, so the row is dropped from it.
		e := &c.ev
		e.begin(created, max(a.created, c.forumCreated), ldbcfile.UpdateAddPost)
		e.b = append(e.b, b[start:dateAt]...)
		e.num(created)
		e.b = append(e.b, b[dateEnd:len(b)-1]...)
		for _, x := range [...]int64{a.id, fid, place} {
			e.sep()
			e.num(x)
		}
		e.sep()
		e.tagList(c.postTags)
		e.end()
	default:
		if g.mergeForeign {
			b = b[:len(b)-1]
			for _, x := range [...]int64{a.id, fid, place} {
				b = append(b, '|')
				b = strconv.AppendInt(b, x, 10)
			}
			b = append(b, '\n')
		} else {
			c.buf[aContainer] = appendPair(c.buf[aContainer], fid, id)
			c.rows[aContainer]++
			c.buf[aPostCreator] = appendPair(c.buf[aPostCreator], id, a.id)
			c.rows[aPostCreator]++
			c.buf[aPostPlace] = appendPair(c.buf[aPostPlace], id, place)
			c.rows[aPostPlace]++
		}
		c.buf[aPost] = b
		c.rows[aPost]++
		for _, t := range c.postTags {
			c.buf[aPostTag] = appendPair(c.buf[aPostTag], id, int64(t))
		}
		c.rows[aPostTag] += int64(len(c.postTags))
		g.sampleMessage(c, id)
	}
	g.likes(r, c, aLikesPost, message{id, created, author}, pl.likesPerPost)
	if photo {
		return
	}

	// The reply tree: the first comment answers the post, later ones the
	// post or an earlier comment.
	c.thread = c.thread[:0]
	root := message{id, created, author}
	for i := range poisson(r, pl.commentsPerPost) {
		parent, toPost := root, true
		if i > 0 && r.Float64() >= pl.replyPostP {
			parent, toPost = c.thread[r.IntN(len(c.thread))], false
		}
		who, base := author, parent.created
		if len(c.members) > 0 {
			m := c.pickMember(r, base)
			who, base = m.seq, max(base, m.join)
		}
		cm := message{newMsg(), uniformAfter(r, base, min(endMs, base+replyDelayMs)), who}
		if cm.created <= parent.created {
			cm.created = parent.created + 1
		}
		g.comment(r, c, cm, parent.id, parent.created, toPost)
		c.thread = append(c.thread, cm)
	}
}

// comment writes one comment replying to parent (created at
// parentCreated) and its likes; after the update cut-over the comment is
// an IU7 instead of rows.
func (g *generator) comment(r *rng, c *actChunk, cm message, parent, parentCreated int64, toPost bool) {
	d := g.dicts
	pl := g.act
	a := &g.persons[cm.author]
	divert := g.streamed(cm.created)
	rowAt := len(c.buf[aComment])
	b := strconv.AppendInt(c.buf[aComment], cm.id, 10)
	b = append(b, '|')
	dateAt := len(b)
	b = ldbcfile.AppendDateTimeMillis(b, cm.created)
	dateEnd := len(b)
	b = append(b, '|')
	b = appendIP(b, a.ip)
	b = append(b, '|')
	b = append(b, d.browsers[a.browser]...)
	b = append(b, '|')
	start := len(b)
	if r.Float64() < shortComments {
		b = append(b, g.text.short[r.IntN(len(g.text.short))]...)
	} else {
		b = g.text.appendRun(b, r, commentTextMin+r.IntN(commentTextMax-commentTextMin))
	}
	n := len(b) - start
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(n), 10)
	place := int64(d.countryID(int(a.country)))
	switch {
	case divert:
		// IU7: the row's fields with the date in milliseconds, author,
		// country and both reply columns (-1 for the one not used); the
		// tags follow below. The bulk buffer keeps its length.
		e := &c.ev
		e.begin(cm.created, max(a.created, parentCreated), ldbcfile.UpdateAddComment)
		e.b = append(e.b, b[rowAt:dateAt]...)
		e.num(cm.created)
		e.b = append(e.b, b[dateEnd:]...)
		replyPost, replyComment := parent, int64(-1)
		if !toPost {
			replyPost, replyComment = -1, parent
		}
		for _, x := range [...]int64{a.id, place, replyPost, replyComment} {
			e.sep()
			e.num(x)
		}
		e.sep()
	case g.mergeForeign:
		// creator|place|replyOfPost|replyOfComment, one reply column empty.
		for _, x := range [...]int64{a.id, place} {
			b = append(b, '|')
			b = strconv.AppendInt(b, x, 10)
		}
		b = append(b, '|')
		if !toPost {
			b = append(b, '|')
		}
		b = strconv.AppendInt(b, parent, 10)
		if toPost {
			b = append(b, '|')
		}
	default:
		c.buf[aCommentCreator] = appendPair(c.buf[aCommentCreator], cm.id, a.id)
		c.rows[aCommentCreator]++
		c.buf[aCommentPlace] = appendPair(c.buf[aCommentPlace], cm.id, place)
		c.rows[aCommentPlace]++
		if toPost {
			c.buf[aReplyPost] = appendPair(c.buf[aReplyPost], cm.id, parent)
			c.rows[aReplyPost]++
		} else {
			c.buf[aReplyComment] = appendPair(c.buf[aReplyComment], cm.id, parent)
			c.rows[aReplyComment]++
		}
	}
	if !divert {
		c.buf[aComment] = append(b, '\n')
		c.rows[aComment]++
	}
	// Tags: the post's, or popular ones.
	k := stochRound(r, pl.commentTags)
	var tags [8]int
	nt := 0
	for range min(k, len(tags)) {
		t := pick(d.tagCum, r.Float64())
		if len(c.postTags) > 0 && r.Float64() < 0.5 {
			t = c.postTags[r.IntN(len(c.postTags))]
		}
		if !slices.Contains(tags[:nt], t) {
			tags[nt] = t
			nt++
		}
	}
	if divert {
		c.ev.tagList(tags[:nt])
		c.ev.end()
	} else {
		for _, t := range tags[:nt] {
			c.buf[aCommentTag] = appendPair(c.buf[aCommentTag], cm.id, int64(t))
		}
		c.rows[aCommentTag] += int64(nt)
		g.sampleMessage(c, cm.id)
	}
	g.likes(r, c, aLikesComment, cm, pl.likesPerComment)
}

// likes writes Poisson(mean) likes of m by distinct forum members other
// than its author; a like after the update cut-over is an IU2 or IU3.
func (g *generator) likes(r *rng, c *actChunk, file int, m message, mean float64) {
	k := min(poisson(r, mean), len(c.members))
	if k == 0 {
		return
	}
	var seen [16]uint32
	ns := 0
	rows := int64(0) // minus the likes sent to the update stream
	b := c.buf[file]
	for tries := 0; ns < min(k, len(seen)) && tries < 3*k; tries++ {
		mb := c.pickMember(r, m.created)
		if mb.seq == m.author || slices.Contains(seen[:ns], mb.seq) {
			continue
		}
		seen[ns] = mb.seq
		ns++
		base := max(m.created, mb.join)
		liker := &g.persons[mb.seq]
		date := uniformAfter(r, base, min(endMs, base+likeDelayMs))
		if g.streamed(date) {
			typ := ldbcfile.UpdateAddLikeComment
			if file == aLikesPost {
				typ = ldbcfile.UpdateAddLikePost
			}
			c.ev.triple(typ, max(m.created, liker.created), liker.id, m.id, date)
			rows--
			continue
		}
		b = strconv.AppendInt(b, liker.id, 10)
		b = append(b, '|')
		b = strconv.AppendInt(b, m.id, 10)
		b = append(b, '|')
		b = ldbcfile.AppendDateTimeMillis(b, date)
		b = append(b, '\n')
	}
	c.buf[file] = b
	c.rows[file] += int64(ns) + rows
}

// pickMember draws a member of the forum being filled (c.members, not
// empty) to answer or like something created at t: when the draw joined
// after t, up to two more draws may replace it by a member who joined
// earlier. Members who were there already answer most, so a reaction is
// rarely postponed to a late member's joining, which would pile activity
// up at the end of the period.
func (c *actChunk) pickMember(r *rng, t int64) member {
	m := c.members[r.IntN(len(c.members))]
	for range 2 {
		if m.join <= t {
			break
		}
		if x := c.members[r.IntN(len(c.members))]; x.join < m.join {
			m = x
		}
	}
	return m
}

// sampleMessage adds id to the message parameters when its hash falls
// under the plan's threshold.
func (g *generator) sampleMessage(c *actChunk, id int64) {
	if hash3(g.seed, streamParams, uint64(id)) < g.act.sample {
		c.buf[aMessageParam] = strconv.AppendInt(c.buf[aMessageParam], id, 10)
		c.buf[aMessageParam] = append(c.buf[aMessageParam], '\n')
		c.rows[aMessageParam]++
	}
}
