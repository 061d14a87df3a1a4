package nebulatest

import (
	"fmt"
	"slices"
)

// MoveEdge points the edge a->b of type edge in space to a->to instead,
// keeping its properties: the graph keeps its number of edges but answers
// differently, so that tests can make a target hold deliberately wrong
// data. It fails when the space or the edge does not exist.
func (s *Store) MoveEdge(spaceName, edge string, a, b, to int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp := s.spaces[spaceName]
	if sp == nil {
		return fmt.Errorf("no space %s", spaceName)
	}
	props, ok := sp.edata[edge][[2]int64{a, b}]
	if !ok {
		return fmt.Errorf("no edge %s %d->%d", edge, a, b)
	}
	delete(sp.edata[edge], [2]int64{a, b})
	sp.out[edge][a] = slices.DeleteFunc(sp.out[edge][a], func(v int64) bool { return v == b })
	sp.in[edge][b] = slices.DeleteFunc(sp.in[edge][b], func(v int64) bool { return v == a })
	sp.putEdge(edge, a, to, props)
	return nil
}

// DropSessions forgets every session, as graphd does when it restarts with
// its connections kept by a proxy, when sessions expire
// (session_idle_timeout_secs) or when an operator runs KILL SESSION: the
// connections stay open, and their next execute answers
// E_SESSION_INVALID until they authenticate again. It returns how many
// sessions it dropped.
func (s *Server) DropSessions() int {
	n := 0
	s.sessions.Range(func(k, _ any) bool {
		s.sessions.Delete(k)
		n++
		return true
	})
	return n
}
