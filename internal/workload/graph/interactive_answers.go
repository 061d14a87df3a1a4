package graph

import (
	"cmp"
	"slices"
)

// Reference answers of the Interactive scenarios, in the canonical cell
// form (see cellInt). Each mirrors the SQL of interactive_sql.go,
// computed over refNet without SQL.

func (n *refNet) vertex(id int64) (int32, bool) {
	v, ok := n.g.index[id]
	return v, ok
}

// personCells are a person's id, first and last name.
func (n *refNet) personCells(v int32) []string {
	p := &n.persons[v]
	return []string{cellInt(n.g.ids[v]), cellText(p.first), cellText(p.last)}
}

func (n *refNet) is1(id int64) [][]string {
	v, ok := n.vertex(id)
	if !ok {
		return nil
	}
	p := &n.persons[v]
	return [][]string{{cellText(p.first), cellText(p.last), cellTime(p.birthday), cellText(p.ip), cellText(p.browser),
		cellInt(p.city), cellText(p.gender), cellTime(p.created)}}
}

func (n *refNet) is2(id int64) [][]string {
	v, ok := n.vertex(id)
	if !ok {
		return nil
	}
	ms := slices.Clone(n.byMsgCreator.of(v))
	slices.SortFunc(ms, func(a, b int32) int {
		x, y := &n.msgs[a], &n.msgs[b]
		if c := cmp.Compare(y.created, x.created); c != 0 {
			return c
		}
		return cmp.Compare(y.id, x.id)
	})
	var out [][]string
	for _, m := range ms[:min(10, len(ms))] {
		x := &n.msgs[m]
		r := &n.msgs[n.root(m)]
		row := []string{cellInt(x.id), cellHash(x.text), cellTime(x.created), cellInt(r.id)}
		out = append(out, append(row, n.personCells(r.creator)...))
	}
	return out
}

func (n *refNet) is3(id int64) [][]string {
	v, ok := n.vertex(id)
	if !ok {
		return nil
	}
	type fr struct {
		v  int32
		at int64
	}
	var fs []fr
	for _, f := range n.g.neighbours(v) {
		fs = append(fs, fr{f, n.knowsAt[[2]int32{min(v, f), max(v, f)}]})
	}
	slices.SortFunc(fs, func(a, b fr) int {
		if c := cmp.Compare(b.at, a.at); c != 0 {
			return c
		}
		return cmp.Compare(n.g.ids[a.v], n.g.ids[b.v])
	})
	var out [][]string
	for _, f := range fs {
		out = append(out, append(n.personCells(f.v), cellTime(f.at)))
	}
	return out
}

func (n *refNet) is4(id int64) [][]string {
	m, ok := n.msgIndex(id)
	if !ok {
		return nil
	}
	return [][]string{{cellTime(n.msgs[m].created), cellHash(n.msgs[m].text)}}
}

func (n *refNet) is5(id int64) [][]string {
	m, ok := n.msgIndex(id)
	if !ok {
		return nil
	}
	return [][]string{n.personCells(n.msgs[m].creator)}
}

func (n *refNet) is6(id int64) [][]string {
	m, ok := n.msgIndex(id)
	if !ok {
		return nil
	}
	fid := n.msgs[n.root(m)].forum
	f, ok := n.forums[fid]
	if !ok || f.moderator < 0 {
		return nil
	}
	return [][]string{append([]string{cellInt(fid), cellText(f.title)}, n.personCells(f.moderator)...)}
}

func (n *refNet) is7(id int64) [][]string {
	m, ok := n.msgIndex(id)
	if !ok {
		return nil
	}
	author := n.msgs[m].creator
	rs := slices.Clone(n.replies.of(m))
	slices.SortFunc(rs, func(a, b int32) int {
		x, y := &n.msgs[a], &n.msgs[b]
		if c := cmp.Compare(y.created, x.created); c != 0 {
			return c
		}
		if c := cmp.Compare(n.g.ids[x.creator], n.g.ids[y.creator]); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
	var out [][]string
	for _, r := range rs {
		x := &n.msgs[r]
		row := []string{cellInt(x.id), cellHash(x.text), cellTime(x.created)}
		row = append(row, n.personCells(x.creator)...)
		out = append(out, append(row, cellBool(n.knows(x.creator, author))))
	}
	return out
}

// recentBy returns the 20 latest messages (created desc, id asc) created
// before maxMs by the given persons, as IC2 and IC9 rows.
func (n *refNet) recentBy(persons []int32, maxMs int64) [][]string {
	var ms []int32
	for _, p := range persons {
		for _, m := range n.byMsgCreator.of(p) {
			if n.msgs[m].created < maxMs {
				ms = append(ms, m)
			}
		}
	}
	slices.SortFunc(ms, n.latestFirst)
	var out [][]string
	for _, m := range ms[:min(20, len(ms))] {
		x := &n.msgs[m]
		out = append(out, append(n.personCells(x.creator), cellInt(x.id), cellHash(x.text), cellTime(x.created)))
	}
	return out
}

// latestFirst orders messages by creation desc, then id asc.
func (n *refNet) latestFirst(a, b int32) int {
	x, y := &n.msgs[a], &n.msgs[b]
	if c := cmp.Compare(y.created, x.created); c != 0 {
		return c
	}
	return cmp.Compare(x.id, y.id)
}

func (n *refNet) ic2(id, maxMs int64) [][]string {
	v, ok := n.vertex(id)
	if !ok {
		return nil
	}
	return n.recentBy(n.g.neighbours(v), maxMs)
}

func (n *refNet) ic9(id, maxMs int64) [][]string {
	v, ok := n.vertex(id)
	if !ok {
		return nil
	}
	seen := map[int32]bool{v: true}
	var ps []int32
	for _, f := range n.g.neighbours(v) {
		if !seen[f] {
			seen[f] = true
			ps = append(ps, f)
		}
		for _, ff := range n.g.neighbours(f) {
			if !seen[ff] {
				seen[ff] = true
				ps = append(ps, ff)
			}
		}
	}
	return n.recentBy(ps, maxMs)
}

func (n *refNet) ic8(id int64) [][]string {
	v, ok := n.vertex(id)
	if !ok {
		return nil
	}
	var rs []int32
	for _, m := range n.byMsgCreator.of(v) {
		rs = append(rs, n.replies.of(m)...)
	}
	slices.SortFunc(rs, n.latestFirst)
	var out [][]string
	for _, r := range rs[:min(20, len(rs))] {
		x := &n.msgs[r]
		out = append(out, append(n.personCells(x.creator), cellTime(x.created), cellInt(x.id), cellHash(x.text)))
	}
	return out
}

func (n *refNet) ic7(id int64) [][]string {
	v, ok := n.vertex(id)
	if !ok {
		return nil
	}
	type best struct {
		at int64
		m  int32
	}
	latest := map[int32]best{}
	for _, m := range n.byMsgCreator.of(v) {
		for _, l := range n.likes[n.likeOff[m]:n.likeOff[m+1]] {
			b, ok := latest[l.person]
			if !ok || l.at > b.at || (l.at == b.at && n.msgs[m].id < n.msgs[b.m].id) {
				latest[l.person] = best{l.at, m}
			}
		}
	}
	likers := make([]int32, 0, len(latest))
	for p := range latest {
		likers = append(likers, p)
	}
	slices.SortFunc(likers, func(a, b int32) int {
		if c := cmp.Compare(latest[b].at, latest[a].at); c != 0 {
			return c
		}
		return cmp.Compare(n.g.ids[a], n.g.ids[b])
	})
	var out [][]string
	for _, p := range likers[:min(20, len(likers))] {
		b := latest[p]
		x := &n.msgs[b.m]
		minutes := (floorDiv(b.at, 1000) - floorDiv(x.created, 1000)) / 60
		row := append(n.personCells(p), cellTime(b.at), cellInt(x.id), cellHash(x.text), cellInt(minutes))
		out = append(out, append(row, cellBool(!n.knows(p, v))))
	}
	return out
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
