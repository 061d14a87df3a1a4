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
	return &loop{lp: lp}, nil
}

// loop is a vu.Loop over an httpdrv.Loop; vus are its VUs by id. hs is
// the k6 sample of the request being recorded: one for all the loop's
// VUs, which record one at a time, so that a request's recording touches
// no sample of its VU's own (a cache miss with thousands of VUs).
type loop struct {
	lp  *httpdrv.Loop
	vus []*httpVU
	hs  metrics.HTTPSample
}

func (l *loop) Add(u vu.VU, id int) error {
	v, ok := u.(*httpVU)
	if !ok {
		return errors.New("http: not a VU of this scenario")
	}
	lc, err := l.lp.Adopt(v.conn)
	if err != nil {
		return err
	}
	lc.Owner, v.lc, v.timer = id, lc, lc
	for len(l.vus) <= id {
		l.vus = append(l.vus, nil)
	}
	l.vus[id] = v
	return nil
}

func (l *loop) Start(_ context.Context, id int, it *vu.Iter) (bool, error) {
	v := l.vus[id]
	v.cur, v.it = v.nextOp(), it
	done, res := v.lc.Start(v.cur)
	if done {
		v.record(it, v.cur, 0, v.lc.End().Sub(it.Clock.Base()), res, v.lc, &l.hs)
	}
	return done, nil
}

func (l *loop) Wait(ctx context.Context, d time.Duration, ended func(int, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return l.lp.Wait(d, func(lc *httpdrv.LoopConn, res driver.Result) {
		id := lc.Owner
		v := l.vus[id]
		v.record(v.it, v.cur, 0, lc.End().Sub(v.it.Clock.Base()), res, lc, &l.hs)
		ended(id, nil)
	})
}

func (l *loop) Close() error { return l.lp.Close() }
