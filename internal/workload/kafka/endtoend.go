package kafka

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
	"github.com/stampede-bench/stampede/vu"
)

// background consumers read what the scenario produces, from the end
// offsets at setup, in goroutines of their own.
type background struct {
	clients []*kgo.Client
}

// startConsumers starts one goroutine per consumer assignment that calls
// each with the records of every poll and the poll's wall time.
func (b *base) startConsumers(ctx context.Context, each func(recs []*kgo.Record, nowNs int64)) (*background, error) {
	from, err := b.endOffsets(ctx)
	if err != nil {
		return nil, err
	}
	bg := &background{}
	for _, a := range b.assignments(from) {
		cl, err := b.consumerClient(a)
		if err != nil {
			bg.close()
			return nil, err
		}
		bg.clients = append(bg.clients, cl)
		b.Go(func(ctx context.Context) { b.consumeLoop(ctx, cl, each) })
	}
	return bg, nil
}

func (b *base) consumeLoop(ctx context.Context, cl *kgo.Client, each func([]*kgo.Record, int64)) {
	var recs []*kgo.Record
	for ctx.Err() == nil {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			return
		}
		now := time.Now().UnixNano()
		recs = recs[:0]
		fs.EachPartition(func(p kgo.FetchTopicPartition) {
			if p.Err != nil && !errors.Is(p.Err, context.Canceled) && !errors.Is(p.Err, kgo.ErrClientClosed) {
				b.Pending.Error("consume: " + kafkadrv.ErrorMessage(p.Err))
			}
			recs = append(recs, p.Records...)
		})
		b.Consumed.Add(int64(len(recs)))
		if each != nil && len(recs) > 0 {
			each(recs, now)
		}
	}
}

func (bg *background) close() {
	if bg == nil {
		return
	}
	for _, c := range bg.clients {
		c.Close()
	}
}

// e2eScenario is kafka.EndToEnd: an iteration produces one message, waits
// for its acknowledgement (publish latency) and then for a consumer of the
// same run to receive it (end-to-end latency). A message not received
// within --e2e-timeout is counted lost; a received message nobody waits
// for (a duplicate, or one already counted lost) is counted unmatched.
type e2eScenario struct {
	*base
	prod    *producers
	cons    *background
	waiters msgload.Waiters
	ledger  *msgload.Ledger
	index   map[string]int
}

var (
	_ vu.Scenario   = (*e2eScenario)(nil)
	_ vu.Setupper   = (*e2eScenario)(nil)
	_ vu.Teardowner = (*e2eScenario)(nil)
)

func newEndToEnd(r *run) *e2eScenario {
	s := &e2eScenario{base: newBase(r, ScenarioEndToEnd), ledger: msgload.NewLedger(), index: map[string]int{}}
	for i, t := range r.topics {
		s.index[t] = i
	}
	s.addChurn()
	s.AtClose = append(s.AtClose, s.account)
	s.EverySecond(s.backlog)
	return s
}

// Setup positions the consumers at the current end of every partition and
// creates the producers.
func (s *e2eScenario) Setup(ctx context.Context) error {
	if s.opts.Consumers < 1 {
		return errors.New("kafka.EndToEnd needs --consumers ≥ 1")
	}
	cons, err := s.startConsumers(ctx, s.dispatch)
	if err != nil {
		return err
	}
	s.cons = cons
	s.prod, err = newProducers(s.run)
	return err
}

// dispatch hands consumed records to the VUs waiting for them.
func (s *e2eScenario) dispatch(recs []*kgo.Record, nowNs int64) {
	var unmatched int64
	for _, rec := range recs {
		st, ok := recordStamp(rec)
		if !ok {
			unmatched++
			continue
		}
		if !s.waiters.Deliver(st.VU, st.Seq, nowNs) &&
			!s.ledger.ConsumedLate(msgload.Ref{Part: s.index[rec.Topic], Partition: rec.Partition, Seq: rec.Offset}) {
			unmatched++
		}
	}
	if unmatched > 0 {
		s.Pending.Add(s.ids.unmatched, unmatched)
		s.unmatched.Add(unmatched)
	}
}

func recordStamp(rec *kgo.Record) (stamp, bool) {
	for _, h := range rec.Headers {
		if h.Key == HeaderKey {
			return parseStamp(h.Value)
		}
	}
	return stamp{}, false
}

// Teardown stops the consumers and producers and writes the notes.
func (s *e2eScenario) Teardown(context.Context) error {
	s.StopBackground()
	s.cons.close()
	if s.prod != nil {
		s.prod.close()
	}
	s.report()
	return nil
}

// account runs once the VUs stopped: it asks the cluster about every
// message not consumed in time (the core's ledger) and writes the
// end-to-end note; only a message the partition confirms it does not hold
// (its offset at or past the end of the log) counts as lost.
func (s *e2eScenario) account() {
	if s.ledger.Account().Overdue > 0 {
		time.Sleep(time.Second) // deliveries still on their way
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s.ledger.Verify(ctx, &offsetHolder{adm: s.admin, topics: s.topics}, 5*time.Second)
	a := s.ledger.Account()
	if a.Lost > 0 {
		s.Pending.Add(s.ids.lost, a.Lost)
		s.Lost.Store(a.Lost)
	}
	line := a.Describe(s.opts.E2ETimeout, -1, "")
	if n := s.unmatched.Load(); n > 0 {
		line += sprintf("; %d unmatched (consumed messages nobody waited for: duplicates)", n)
	}
	s.Note("%s", line)
}

func (s *e2eScenario) NewVU(_ context.Context, id int) (vu.VU, error) {
	v := &e2eVU{s: s, snd: newSender(s.base, id, 1), pick: s.picker(s.prod, id), w: s.waiters.Add(id), timer: time.NewTimer(time.Hour)}
	v.timer.Stop()
	return v, nil
}

type e2eVU struct {
	s     *e2eScenario
	snd   *sender
	pick  func() (*kgo.Client, int)
	w     *msgload.Waiter
	timer *time.Timer
}

// backlog samples acknowledged but not yet consumed messages.
func (s *e2eScenario) backlog(time.Duration) {
	s.Pending.Trend(s.ids.backlog, max(0, s.Acked.Load()-s.Consumed.Load()))
}

func (v *e2eVU) Iterate(ctx context.Context, it *vu.Iter) error {
	s := v.s
	s.Begin(it)
	seq := v.snd.seq + 1
	v.w.Expect(seq)
	defer v.w.Expect(0)
	if err := v.snd.send(ctx, it, v.pick, it.Intended); err != nil {
		return err
	}
	if !v.snd.ok {
		return nil // the produce failed and was recorded
	}
	s.ledger.Acked()
	ref := v.snd.lastRef()
	v.timer.Reset(s.opts.E2ETimeout)
	defer v.timer.Stop()
	for {
		select {
		case d := <-v.w.C():
			if d.Seq != seq {
				continue // late delivery of an earlier message
			}
			now := it.Now()
			r, m := it.Rec, s.ids
			r.Trend(m.e2e, now, max(0, (d.Ns-v.snd.sentNs)/1000))
			r.Add(m.consumed, now, 1)
			r.Add(m.consumedBytes, now, int64(v.snd.lastValueLen()))
			s.ledger.Consumed()
			return nil
		case <-v.timer.C:
			now := it.Now()
			s.ledger.Overdue(ref)
			it.Rec.Add(s.ids.overdue, now, 1)
			it.Rec.Error(now, "e2e timeout: acknowledged, not consumed within --e2e-timeout (the partition is asked at the end whether it holds it)")
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (v *e2eVU) Close() error {
	v.s.CloseVU(v.snd.it)
	return nil
}
