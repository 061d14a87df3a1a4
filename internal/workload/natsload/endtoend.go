package natsload

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/engine"
)

// e2eScenario is nats.EndToEnd: an iteration publishes one message, waits
// for its PubAck (publish latency), then for a consumer of the same run to
// receive it (end-to-end latency). A message not received within
// --nats-e2e-timeout is counted lost.
type e2eScenario struct {
	*base
	cons    *vuConn
	ctxs    []jetstream.ConsumeContext
	mu      sync.Mutex
	waiters []*waiter
}

type waiter struct {
	want atomic.Uint64
	ch   chan int64 // wall ns of the delivery
}

var (
	_ engine.Scenario   = (*e2eScenario)(nil)
	_ engine.Setupper   = (*e2eScenario)(nil)
	_ engine.Teardowner = (*e2eScenario)(nil)
)

func newEndToEnd(r *run) *e2eScenario {
	s := &e2eScenario{base: newBase(r, ScenarioEndToEnd)}
	s.addChurn()
	return s
}

// Setup starts one ephemeral consumer per stream that delivers new
// messages to the waiting VUs.
func (s *e2eScenario) Setup(ctx context.Context) error {
	if s.opts.MessageSize < stampLen {
		return fmt.Errorf("nats.EndToEnd needs --nats-message-size ≥ %d (the stamp)", stampLen)
	}
	vc, err := s.vuConn("stampede-e2e-consumer")
	if err != nil {
		return err
	}
	s.cons = vc
	for _, st := range s.streams {
		c, err := vc.js.CreateConsumer(ctx, st, jetstream.ConsumerConfig{
			DeliverPolicy: jetstream.DeliverNewPolicy, AckPolicy: jetstream.AckNonePolicy,
			InactiveThreshold: time.Minute,
		})
		if err != nil {
			return fmt.Errorf("consumer on %s: %s", st, natsdrv.ErrorMessage(err))
		}
		cc, err := c.Consume(s.dispatch, jetstream.PullMaxMessages(1000))
		if err != nil {
			return fmt.Errorf("consume %s: %s", st, natsdrv.ErrorMessage(err))
		}
		s.ctxs = append(s.ctxs, cc)
	}
	return nil
}

func (s *e2eScenario) dispatch(msg jetstream.Msg) {
	now := time.Now().UnixNano()
	s.consumed.Add(1)
	st, ok := parseStamp(msg.Data())
	if !ok {
		return
	}
	s.mu.Lock()
	var w *waiter
	if int(st.VU) < len(s.waiters) {
		w = s.waiters[st.VU]
	}
	s.mu.Unlock()
	if w == nil || w.want.Load() != st.Seq {
		return
	}
	select {
	case w.ch <- now:
	default:
	}
}

func (s *e2eScenario) NewVU(_ context.Context, id int) (engine.VU, error) {
	p, err := newPublisher(s.base, id)
	if err != nil {
		return nil, err
	}
	w := &waiter{ch: make(chan int64, 1)}
	s.mu.Lock()
	for len(s.waiters) <= id {
		s.waiters = append(s.waiters, nil)
	}
	s.waiters[id] = w
	s.mu.Unlock()
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &e2eVU{s: s, p: p, w: w, timer: t}, nil
}

// Teardown stops the consumers and writes the notes.
func (s *e2eScenario) Teardown(context.Context) error {
	s.stopBackground()
	for _, cc := range s.ctxs {
		cc.Stop()
	}
	s.cons.close()
	s.report()
	if s.started.Load() {
		s.note("end to end: %d acknowledged, %d consumed, %d lost (not consumed within %s)",
			s.acked.Load(), s.consumed.Load(), s.lost.Load(), s.opts.E2ETimeout)
	}
	return nil
}

type e2eVU struct {
	s     *e2eScenario
	p     *publisher
	w     *waiter
	timer *time.Timer
}

func (v *e2eVU) Iterate(ctx context.Context, it *engine.Iter) error {
	s := v.s
	s.begin(it)
	v.w.want.Store(v.p.seq + 1)
	defer v.w.want.Store(0)
	select { // drop a late delivery of an earlier message
	case <-v.w.ch:
	default:
	}
	ok, err := v.p.publishSync(ctx, it)
	if err != nil || !ok {
		return err
	}
	v.timer.Reset(s.opts.E2ETimeout)
	defer v.timer.Stop()
	select {
	case ns := <-v.w.ch:
		now := it.Now()
		it.Rec.Trend(s.ids.e2e, now, max(0, (ns-v.p.sentNs)/1000))
		it.Rec.Add(s.ids.consumed, now, 1)
		return nil
	case <-v.timer.C:
		now := it.Now()
		it.Rec.Add(s.ids.lost, now, 1)
		it.Rec.Error(now, "lost: acknowledged but not consumed within --nats-e2e-timeout")
		s.lost.Add(1)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (v *e2eVU) Close() error { v.s.closeVU(v.p.it); v.p.close(); return nil }
