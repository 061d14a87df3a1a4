package nats

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stampede-bench/stampede/internal/driver"
	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/vu"
)

// fetchWait bounds one pull, so that VUs notice the end of the run and
// caught-up consumers record their (zero) lag.
const fetchWait = 500 * time.Millisecond

// durableName is the name of durable consumer c of stream s.
func durableName(stream string, c int) string { return stream + "-consumer-" + strconv.Itoa(c) }

// consumeScenario is nats.Consume: --nats-consumers durable pull consumers
// per stream with explicit acks, shared round-robin by the VUs (several
// clients may pull from one durable); an iteration is one pull.
type consumeScenario struct {
	*base
	// durables lists (stream index, consumer name) pairs.
	durables []durable
}

type durable struct {
	si   int
	name string
}

var (
	_ vu.Scenario   = (*consumeScenario)(nil)
	_ vu.Setupper   = (*consumeScenario)(nil)
	_ vu.Teardowner = (*consumeScenario)(nil)
)

func newConsume(r *run) *consumeScenario {
	s := &consumeScenario{base: newBase(r, ScenarioConsume)}
	for si, st := range r.streams {
		for c := range r.opts.Consumers {
			s.durables = append(s.durables, durable{si, durableName(st, c)})
		}
	}
	return s
}

// Setup creates (or keeps) the durable consumers, delivering from the
// start of each stream with explicit acks.
func (s *consumeScenario) Setup(ctx context.Context) error {
	vc, err := s.vuConn("stampede-consume-setup")
	if err != nil {
		return err
	}
	defer vc.close()
	for _, d := range s.durables {
		_, err := vc.js.CreateOrUpdateConsumer(ctx, s.streams[d.si], jetstream.ConsumerConfig{
			Durable: d.name, AckPolicy: jetstream.AckExplicitPolicy, DeliverPolicy: jetstream.DeliverAllPolicy,
			MaxAckPending: max(1000, 4*s.opts.FetchBatch), AckWait: 30 * time.Second,
		})
		if err != nil {
			return fmt.Errorf("create consumer %s on %s: %s", d.name, s.streams[d.si], natsdrv.ErrorMessage(err))
		}
	}
	return nil
}

func (s *consumeScenario) NewVU(ctx context.Context, id int) (vu.VU, error) {
	d := s.durables[id%len(s.durables)]
	vc, err := s.vuConn("stampede-consume-" + strconv.Itoa(id))
	if err != nil {
		return nil, err
	}
	c, err := vc.js.Consumer(ctx, s.streams[d.si], d.name)
	if err != nil {
		vc.close()
		return nil, fmt.Errorf("consumer %s: %s", d.name, natsdrv.ErrorMessage(err))
	}
	return &consumeVU{s: s, vc: vc, c: c}, nil
}

// Teardown writes the notes.
func (s *consumeScenario) Teardown(context.Context) error {
	s.StopBackground()
	if s.IsStarted() {
		el := s.Elapsed()
		s.Note("consumed and acknowledged %d messages (%s msgs/s) with %d durable pull consumer(s) over %d stream(s)",
			s.Consumed.Load(), fmtRate(float64(s.Consumed.Load())/el.Seconds()), len(s.durables), len(s.streams))
	}
	return nil
}

type consumeVU struct {
	s  *consumeScenario
	vc *vuConn
	c  jetstream.Consumer
	it *vu.Iter
}

func (v *consumeVU) Iterate(ctx context.Context, it *vu.Iter) error {
	s := v.s
	s.Begin(it)
	v.it = it
	start := it.Now()
	batch, err := v.c.Fetch(s.opts.FetchBatch, jetstream.FetchMaxWait(fetchWait))
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		it.Request("fetch", start, driver.Result{Err: natsdrv.Wrap(err)})
		return nil
	}
	var n, lag int64
	r, m := it.Rec, s.ids
	for msg := range batch.Messages() {
		n++
		if st, ok := parseStamp(msg.Data()); ok {
			r.Trend(m.e2e, it.Now(), max(0, (time.Now().UnixNano()-st.SentNs)/1000))
		}
		if md, err := msg.Metadata(); err == nil {
			lag = int64(md.NumPending)
		}
		_ = msg.Ack()
	}
	if err := batch.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		it.Request("fetch", start, driver.Result{Err: natsdrv.Wrap(err)})
	}
	if n == 0 {
		r.Trend(m.lag, it.Now(), 0)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return nil
	}
	end := it.Request("fetch", start, driver.Result{Rows: n})
	r.Add(m.consumed, end, n)
	r.Trend(m.lag, end, lag)
	s.Consumed.Add(n)
	return nil
}

func (v *consumeVU) Close() error { v.s.CloseVU(v.it); v.vc.close(); return nil }
