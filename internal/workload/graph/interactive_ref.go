package graph

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// refNet is the in-memory answer key of the Interactive scenarios: the
// persons, the knows graph with dates, and the messages with their
// creators, reply trees, forums and likes, read from a data set's CSV
// files independently of the loader.
//
// Memory is planned: message text is kept as a 64-bit hash (answers
// compare text by hash), messages are one 40-byte record in a slice sorted
// by id (looked up by binary search, no map), and the per-person, reply
// and like lists are CSR arrays of int32. SF1 (3.8M messages, 3.2M likes)
// takes about 300 MB; SF10 about ten times that. IC1's person attributes
// (e-mails and languages as one joined string each, studyAt/workAt as
// 16-byte records) and the place and organisation names add about 2 MB
// at SF1.
type refNet struct {
	g       *refGraph
	persons []refPerson // index: refGraph vertex
	knowsAt map[[2]int32]int64
	msgs    []refMsg // sorted by id
	byMsgCreator,
	replies csr
	likes   []refLike // grouped by message (likeOff)
	likeOff []int32
	forums  map[int64]refForum
	// places and orgs are the names (and organisations' places) IC1
	// reports, by id.
	places map[int64]string
	orgs   map[int64]refOrg
}

type refPerson struct {
	first, last, gender, ip, browser string
	birthday, created                int64 // Unix ms
	city                             int64
	// emails and languages are IC1's cells: sorted, joined by ';'.
	emails, languages string
	study, work       []refAffil
}

type refMsg struct {
	id, created int64
	text        uint64 // hash of content (or imageFile for photos)
	creator     int32  // person vertex
	parent      int32  // message index of the parent, -1 for posts
	forum       int64  // forum id (posts only)
}

type refLike struct {
	person int32
	at     int64
}

type refForum struct {
	title     string
	moderator int32
}

// csr is a compressed list of message indexes per key.
type csr struct {
	off []int32
	val []int32
}

func (c csr) of(k int32) []int32 {
	if int(k)+1 >= len(c.off) {
		return nil
	}
	return c.val[c.off[k]:c.off[k+1]]
}

// buildCSR groups vals by keys (len(keys) == len(vals)) for n keys.
func buildCSR(n int, keys, vals []int32) csr {
	c := csr{off: make([]int32, n+1), val: make([]int32, len(vals))}
	for _, k := range keys {
		c.off[k+1]++
	}
	for i := range n {
		c.off[i+1] += c.off[i]
	}
	pos := slices.Clone(c.off[:n])
	for i, k := range keys {
		c.val[pos[k]] = vals[i]
		pos[k]++
	}
	return c
}

// textHash is the hash answers compare message text by.
func textHash(s []byte) uint64 {
	h := fnv.New64a()
	h.Write(s)
	return h.Sum64()
}

// loadRefNet reads the files of data set dir the Interactive scenarios
// touch.
func loadRefNet(dir string, g *refGraph) (*refNet, error) {
	n := &refNet{g: g, persons: make([]refPerson, len(g.ids)), knowsAt: map[[2]int32]int64{}, forums: map[int64]refForum{}}
	strict := ldbcfile.Reader{}
	read := func(rel, header string, fn func(f [][]byte) error) error {
		f, err := os.Open(filepath.Join(dir, rel))
		if err != nil {
			return fmt.Errorf("reference: %w", err)
		}
		defer f.Close()
		if err := strict.ReadRecords(f, header, fn); err != nil {
			return fmt.Errorf("reference: %s: %w", rel, err)
		}
		return nil
	}
	person := func(b []byte) (int32, error) {
		id, err := ldbcfile.ParseID(b)
		if err != nil {
			return 0, err
		}
		v, ok := g.index[id]
		if !ok {
			return 0, fmt.Errorf("unknown person %d", id)
		}
		return v, nil
	}
	ms := func(b []byte) (int64, error) {
		t, err := ldbcfile.ParseDateTime(b)
		return t.UnixMilli(), err
	}
	err := read(ldbcfile.PersonPath, ldbcfile.PersonHeader, func(f [][]byte) error {
		v, err := person(f[0])
		if err != nil {
			return err
		}
		bd, err := ldbcfile.ParseDate(f[4])
		if err != nil {
			return err
		}
		cr, err := ms(f[5])
		if err != nil {
			return err
		}
		n.persons[v] = refPerson{first: string(f[1]), last: string(f[2]), gender: string(f[3]), birthday: bd.UnixMilli(), created: cr, ip: string(f[6]), browser: string(f[7])}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = read(ldbcfile.PersonIsLocatedInPlacePath, ldbcfile.PersonIsLocatedInPlaceHeader, func(f [][]byte) error {
		v, err := person(f[0])
		if err != nil {
			return err
		}
		n.persons[v].city, err = ldbcfile.ParseID(f[1])
		return err
	})
	if err != nil {
		return nil, err
	}
	err = read(ldbcfile.PersonKnowsPersonPath, ldbcfile.PersonKnowsPersonHeader, func(f [][]byte) error {
		a, err := person(f[0])
		if err != nil {
			return err
		}
		b, err := person(f[1])
		if err != nil {
			return err
		}
		at, err := ms(f[2])
		n.knowsAt[[2]int32{min(a, b), max(a, b)}] = at
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := n.loadPeople(read, person); err != nil {
		return nil, err
	}
	if err := n.loadMessages(read, person, ms); err != nil {
		return nil, err
	}
	return n, nil
}

// loadMessages reads posts, comments, their creators, replies, forums and
// likes.
func (n *refNet) loadMessages(read func(string, string, func([][]byte) error) error, person func([]byte) (int32, error), ms func([]byte) (int64, error)) error {
	err := read(ldbcfile.PostPath, ldbcfile.PostHeader, func(f [][]byte) error {
		id, err := ldbcfile.ParseID(f[0])
		if err != nil {
			return err
		}
		at, err := ms(f[2])
		text := f[6]
		if len(f[1]) > 0 {
			text = f[1]
		}
		n.msgs = append(n.msgs, refMsg{id: id, created: at, text: textHash(text), parent: -1, creator: -1})
		return err
	})
	if err != nil {
		return err
	}
	err = read(ldbcfile.CommentPath, ldbcfile.CommentHeader, func(f [][]byte) error {
		id, err := ldbcfile.ParseID(f[0])
		if err != nil {
			return err
		}
		at, err := ms(f[1])
		n.msgs = append(n.msgs, refMsg{id: id, created: at, text: textHash(f[4]), parent: -2, creator: -1})
		return err
	})
	if err != nil {
		return err
	}
	slices.SortFunc(n.msgs, func(a, b refMsg) int { return cmp.Compare(a.id, b.id) })
	msg := func(b []byte) (int32, error) {
		id, err := ldbcfile.ParseID(b)
		if err != nil {
			return 0, err
		}
		i, ok := n.msgIndex(id)
		if !ok {
			return 0, fmt.Errorf("unknown message %d", id)
		}
		return i, nil
	}
	creator := func(f [][]byte) error {
		m, err := msg(f[0])
		if err != nil {
			return err
		}
		n.msgs[m].creator, err = person(f[1])
		return err
	}
	if err := read(ldbcfile.PostHasCreatorPersonPath, ldbcfile.PostHasCreatorPersonHeader, creator); err != nil {
		return err
	}
	if err := read(ldbcfile.CommentHasCreatorPersonPath, ldbcfile.CommentHasCreatorPersonHeader, creator); err != nil {
		return err
	}
	reply := func(f [][]byte) error {
		c, err := msg(f[0])
		if err != nil {
			return err
		}
		n.msgs[c].parent, err = msg(f[1])
		return err
	}
	if err := read(ldbcfile.CommentReplyOfPostPath, ldbcfile.CommentReplyOfPostHeader, reply); err != nil {
		return err
	}
	if err := read(ldbcfile.CommentReplyOfCommentPath, ldbcfile.CommentReplyOfCommentHeader, reply); err != nil {
		return err
	}
	err = read(ldbcfile.ForumContainerOfPostPath, ldbcfile.ForumContainerOfPostHeader, func(f [][]byte) error {
		p, err := msg(f[1])
		if err != nil {
			return err
		}
		n.msgs[p].forum, err = ldbcfile.ParseID(f[0])
		return err
	})
	if err != nil {
		return err
	}
	err = read(ldbcfile.ForumPath, ldbcfile.ForumHeader, func(f [][]byte) error {
		id, err := ldbcfile.ParseID(f[0])
		n.forums[id] = refForum{title: string(f[1]), moderator: -1}
		return err
	})
	if err != nil {
		return err
	}
	err = read(ldbcfile.ForumHasModeratorPersonPath, ldbcfile.ForumHasModeratorPersonHeader, func(f [][]byte) error {
		id, err := ldbcfile.ParseID(f[0])
		if err != nil {
			return err
		}
		fo, ok := n.forums[id]
		if !ok {
			return fmt.Errorf("unknown forum %d", id)
		}
		fo.moderator, err = person(f[1])
		n.forums[id] = fo
		return err
	})
	if err != nil {
		return err
	}
	// Per-person messages and replies per message.
	var keys, vals, rk, rv []int32
	for i, m := range n.msgs {
		if m.creator < 0 || m.parent == -2 {
			return fmt.Errorf("reference: message %d lacks a creator or a parent", m.id)
		}
		keys = append(keys, m.creator)
		vals = append(vals, int32(i))
		if m.parent >= 0 {
			rk = append(rk, m.parent)
			rv = append(rv, int32(i))
		}
	}
	n.byMsgCreator = buildCSR(len(n.persons), keys, vals)
	n.replies = buildCSR(len(n.msgs), rk, rv)
	return n.loadLikes(read, person, ms, msg)
}

// loadLikes reads both likes files into per-message lists.
func (n *refNet) loadLikes(read func(string, string, func([][]byte) error) error, person func([]byte) (int32, error), ms func([]byte) (int64, error), msg func([]byte) (int32, error)) error {
	type like struct {
		m int32
		l refLike
	}
	var all []like
	fn := func(f [][]byte) error {
		p, err := person(f[0])
		if err != nil {
			return err
		}
		m, err := msg(f[1])
		if err != nil {
			return err
		}
		at, err := ms(f[2])
		all = append(all, like{m, refLike{p, at}})
		return err
	}
	if err := read(ldbcfile.PersonLikesPostPath, ldbcfile.PersonLikesPostHeader, fn); err != nil {
		return err
	}
	if err := read(ldbcfile.PersonLikesCommentPath, ldbcfile.PersonLikesCommentHeader, fn); err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b like) int { return cmp.Compare(a.m, b.m) })
	n.likeOff = make([]int32, len(n.msgs)+1)
	n.likes = make([]refLike, len(all))
	for i, x := range all {
		n.likeOff[x.m+1]++
		n.likes[i] = x.l
	}
	for i := range n.msgs {
		n.likeOff[i+1] += n.likeOff[i]
	}
	return nil
}

// msgIndex finds message id.
func (n *refNet) msgIndex(id int64) (int32, bool) {
	i, ok := slices.BinarySearchFunc(n.msgs, id, func(m refMsg, id int64) int { return cmp.Compare(m.id, id) })
	return int32(i), ok
}

// root is the post at the top of message m's reply tree.
func (n *refNet) root(m int32) int32 {
	for n.msgs[m].parent >= 0 {
		m = n.msgs[m].parent
	}
	return m
}

// knows reports whether persons a and b are friends.
func (n *refNet) knows(a, b int32) bool {
	_, ok := n.knowsAt[[2]int32{min(a, b), max(a, b)}]
	return ok
}

// Canonical answer cells: integers in decimal, instants as "t" and Unix
// ms, text as "s" and the hex of its hash. canonCell turns a target's value
// into the same form.
func cellInt(v int64) string   { return strconv.FormatInt(v, 10) }
func cellTime(ms int64) string { return "t" + strconv.FormatInt(ms, 10) }
func cellHash(h uint64) string { return "s" + strconv.FormatUint(h, 16) }
func cellText(s string) string { return cellHash(textHash([]byte(s))) }
func cellBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
