package http

import (
	"context"
	"errors"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/vu"
)

var _ vu.Multiplexed = (*scenario)(nil)

// NewLoop implements vu.Multiplexed: plain-HTTP VUs run as the steps of
// an event loop of the driver (httpdrv.Loop), HTTPS ones a goroutine
// each.
func (s *scenario) NewLoop() (vu.Loop, error) {
	d, ok := s.drv.(*httpdrv.Driver)
	if !ok || s.noLoop {
		return nil, nil
	}
	lp, err := d.NewLoop()
	if err != nil || lp == nil {
		return nil, err
	}
	return &loop{lp: lp, s: s}, nil
}

// loop is a vu.Loop over an httpdrv.Loop. slots hold what a request of
// each VU (by id) needs, side by side, so that starting and recording a
// static request touches neither the VU nor a sample of its own (each a
// cache miss once thousands of VUs take turns). hs is the k6 sample of
// the request being recorded: one for all the loop's VUs, which record
// one at a time.
type loop struct {
	lp    *httpdrv.Loop
	s     *scenario
	slots []slot
	hs    metrics.HTTPSample
}

// slot is a VU of a loop: its connection, the request in flight (cur) and
// the iteration that records it.
type slot struct {
	lc  *httpdrv.LoopConn
	cur *driver.Op
	it  *vu.Iter
	v   *httpVU // renders a templated request (nextOp)
}

func (l *loop) Add(u vu.VU, id int) error {
	v, ok := u.(*httpVU)
	if !ok {
		return errors.New("http: not a VU of this scenario")
	}
	if v.conn != nil {
		v.conn.Close() // made by an iteration of its own: the loop's replaces it
	}
	lc := l.lp.NewConn()
	lc.Owner, v.lc, v.timer, v.conn = id, lc, lc, nil
	for len(l.slots) <= id {
		l.slots = append(l.slots, slot{})
	}
	l.slots[id] = slot{lc: lc, v: v}
	return nil
}

func (l *loop) Start(_ context.Context, id int, it *vu.Iter) (bool, error) {
	sl := &l.slots[id]
	op := l.s.static
	if op == nil {
		op = sl.v.nextOp()
	}
	sl.cur, sl.it = op, it
	done, res := sl.lc.Start(op)
	if done {
		l.s.record(it, op, 0, sl.lc.End().Sub(it.Clock.Base()), res, sl.lc, &l.hs)
	}
	return done, nil
}

func (l *loop) Wait(ctx context.Context, d time.Duration, ended func(int, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return l.lp.Wait(d, func(lc *httpdrv.LoopConn, res driver.Result) {
		id := lc.Owner
		sl := &l.slots[id]
		l.s.record(sl.it, sl.cur, 0, lc.End().Sub(sl.it.Clock.Base()), res, lc, &l.hs)
		ended(id, nil)
	})
}

func (l *loop) Close() error { return l.lp.Close() }
