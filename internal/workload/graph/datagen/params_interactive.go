package datagen

import (
	"context"
	"strconv"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// writeInteractiveParams writes interactive_person.csv: the k-hop start
// persons (see curateKHop), each with the first name of a person two hops
// away (a friend when there is none; IC1 searches for it) and a date in the
// last 18 months of the period (IC2 and IC9 look before it).
func (g *generator) writeInteractiveParams(_ context.Context, o *outputs) error {
	f, err := o.create(ldbcfile.InteractivePersonPath, ldbcfile.InteractivePersonHeader)
	if err != nil {
		return err
	}
	r := newRNG()
	var b []byte
	var rows int64
	for _, s := range g.bulkPersons(g.curateKHop()) {
		r.reset(g.seed, streamParams, 1<<40|uint64(s))
		p := &g.persons[s]
		name := p
		if fr := g.graph.friends(s); len(fr) > 0 {
			f1 := fr[r.IntN(len(fr))]
			name = &g.persons[f1]
			if ff := g.graph.friends(f1); len(ff) > 1 {
				if f2 := ff[r.IntN(len(ff))]; f2 != s {
					name = &g.persons[f2]
				}
			}
		}
		from := endMs - 540*dayMs
		b = strconv.AppendInt(b, p.id, 10)
		b = append(b, '|')
		b = append(b, g.firstName(name)...)
		b = append(b, '|')
		b = ldbcfile.AppendDateTimeMillis(b, from+r.Int64N(endMs-from))
		b = append(b, '\n')
		rows++
	}
	if err := o.write(f, b, rows); err != nil {
		return err
	}
	o.report()
	return nil
}
