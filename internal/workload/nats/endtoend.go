package nats

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
	"github.com/stampede-bench/stampede/vu"
)

// e2eScenario is nats.EndToEnd: an iteration publishes one message
// synchronously, waits for its PubAck (publish latency), then for the
// run's consumer to receive it (end-to-end latency, from the iteration's
// intended start, so that under --rate a late send is not hidden). The
// consumer of each stream is durable, with explicit acks and as many
// replicas as the stream, so that it survives the loss of a node as the
// stream does. A message not received within --nats-e2e-timeout is
// overdue; when the scenario ends the core's ledger asks the stream about
// every overdue message, and only one the stream confirms it does not
// hold counts as lost.
type e2eScenario struct {
	*base
	cons     *vuConn
	ctxs     []jetstream.ConsumeContext
	durables []string
	index    map[string]int
	waiters  msgload.Waiters
	ledger   *msgload.Ledger
	// seq0 is each stream's last sequence when the scenario set up.
	seq0 []uint64
	// dups counts deliveries nobody waited for that were not overdue
	// (redeliveries after a consumer failover, late duplicates).
	dups atomic.Int64
}

var (
	_ vu.Scenario   = (*e2eScenario)(nil)
	_ vu.Setupper   = (*e2eScenario)(nil)
	_ vu.Teardowner = (*e2eScenario)(nil)
)

func newEndToEnd(r *run) *e2eScenario {
	s := &e2eScenario{base: newBase(r, ScenarioEndToEnd), ledger: msgload.NewLedger(), index: map[string]int{}}
	for i, st := range r.streams {
		s.index[st] = i
	}
	s.addChurn()
	s.addKill()
	s.AtClose = append(s.AtClose, s.account)
	return s
}

// e2eDurable names the durable consumer of stream st.
func e2eDurable(st string) string { return st + "-e2e" }

// Setup creates one durable, replicated consumer per stream (replacing one
// a previous run left) that delivers new messages to the waiting VUs.
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
		info, err := s.admin.Stream(ctx, st)
		if err != nil {
			return fmt.Errorf("stream %s: %s", st, natsdrv.ErrorMessage(err))
		}
		s.seq0 = append(s.seq0, info.CachedInfo().State.LastSeq)
		name := e2eDurable(st)
		if err := vc.js.DeleteConsumer(ctx, st, name); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			return fmt.Errorf("consumer %s on %s: %s", name, st, natsdrv.ErrorMessage(err))
		}
		c, err := vc.js.CreateConsumer(ctx, st, jetstream.ConsumerConfig{
			Durable: name, DeliverPolicy: jetstream.DeliverNewPolicy, AckPolicy: jetstream.AckExplicitPolicy,
			AckWait: 5 * time.Second, MaxAckPending: 100000, Replicas: s.opts.Replicas,
		})
		if err != nil {
			return fmt.Errorf("consumer on %s: %s", st, natsdrv.ErrorMessage(err))
		}
		s.durables = append(s.durables, st)
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
	_ = msg.Ack()
	s.Consumed.Add(1)
	st, ok := parseStamp(msg.Data())
	if !ok {
		return
	}
	if s.waiters.Deliver(st.VU, st.Seq, now) {
		return
	}
	if md, err := msg.Metadata(); err == nil {
		if s.ledger.ConsumedLate(msgload.Ref{Part: s.index[md.Stream], Seq: int64(md.Sequence.Stream)}) {
			return
		}
	}
	s.dups.Add(1)
}

func (s *e2eScenario) NewVU(_ context.Context, id int) (vu.VU, error) {
	p, err := newPublisher(s.base, id)
	if err != nil {
		return nil, err
	}
	w := s.waiters.Add(id)
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &e2eVU{s: s, p: p, w: w, timer: t}, nil
}

// account runs once the VUs stopped: it gives late deliveries a moment,
// stops the consumers, asks the streams about every overdue message and
// writes the end-to-end note with what the streams hold.
func (s *e2eScenario) account() {
	if s.ledger.Account().Overdue > 0 {
		time.Sleep(time.Second) // deliveries still on their way
	}
	for _, cc := range s.ctxs {
		cc.Stop()
	}
	s.ctxs = nil
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s.ledger.Verify(ctx, broker{s.run}, 5*time.Second)
	a := s.ledger.Account()
	if a.Lost > 0 {
		s.Pending.Add(s.ids.lost, a.Lost)
	}
	held := int64(0)
	for i, st := range s.streams {
		info, err := s.admin.Stream(ctx, st)
		if err != nil || i >= len(s.seq0) {
			held = -1
			break
		}
		state := info.CachedInfo().State
		from := max(s.seq0[i], state.FirstSeq-1)
		if state.LastSeq > from {
			held += int64(state.LastSeq - from)
		}
	}
	where := "stream " + strings.Join(s.streams, ", ")
	if len(s.streams) > 3 {
		where = fmt.Sprintf("%d streams", len(s.streams))
	}
	line := a.Describe(s.opts.E2ETimeout, held, where+" (sequences appended since the scenario started; a publish that timed out may be among them)")
	if n := s.dups.Load(); n > 0 {
		line += fmt.Sprintf("; %d deliveries nobody waited for (redeliveries after a consumer failover, duplicates)", n)
	}
	s.Note("%s", line)
}

// Teardown deletes the run's durable consumers and writes the notes.
func (s *e2eScenario) Teardown(ctx context.Context) error {
	s.StopBackground()
	for _, cc := range s.ctxs {
		cc.Stop()
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	for _, st := range s.durables {
		_ = s.cons.js.DeleteConsumer(dctx, st, e2eDurable(st))
	}
	s.cons.close()
	s.report()
	return nil
}

type e2eVU struct {
	s     *e2eScenario
	p     *publisher
	w     *msgload.Waiter
	timer *time.Timer
}

// overdueError is the one label of a message not consumed in time.
const overdueError = "e2e timeout: acknowledged, not consumed within --nats-e2e-timeout (the stream is asked at the end whether it holds it)"

func (v *e2eVU) Iterate(ctx context.Context, it *vu.Iter) error {
	s := v.s
	s.Begin(it)
	v.p.it = it
	v.w.Expect(v.p.seq + 1)
	defer v.w.Expect(0)
	ok, err := v.p.publishSync(ctx, it)
	if err != nil || !ok {
		return err
	}
	s.ledger.Acked()
	ref := msgload.Ref{Part: v.p.lastSi, Seq: int64(v.p.lastSeq)}
	v.timer.Reset(s.opts.E2ETimeout)
	defer v.timer.Stop()
	select {
	case d := <-v.w.C():
		now := it.Now()
		// From the intended start: equal to the actual start under the
		// closed model; under --rate a late send counts in full.
		from := it.Clock.Wall(it.Intended).UnixNano()
		it.Rec.Trend(s.ids.e2e, now, max(0, (d.Ns-from)/1000))
		it.Rec.Add(s.ids.consumed, now, 1)
		s.ledger.Consumed()
		return nil
	case <-v.timer.C:
		now := it.Now()
		s.ledger.Overdue(ref)
		it.Rec.Add(s.ids.overdue, now, 1)
		it.Rec.Error(now, overdueError)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (v *e2eVU) Close() error { v.s.CloseVU(v.p.it); v.p.close(); return nil }
