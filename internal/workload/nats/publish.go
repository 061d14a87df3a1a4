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
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// Scenario names.
const (
	ScenarioPublish  = "nats.Publish"
	ScenarioConsume  = "nats.Consume"
	ScenarioEndToEnd = "nats.EndToEnd"
	ScenarioMaxRate  = "nats.MaxRate"
)

// publisher is the publishing half of a VU: its own connection, a payload
// buffer stamped before every publish, and the streams it visits in turn.
type publisher struct {
	b    *base
	vc   *vuConn
	vu   uint32
	seq  uint64
	next int // index of the next stream
	buf  []byte
	// async state, reused across iterations.
	futs []jetstream.PubAckFuture
	sent []time.Duration
	si   []int
	// sentNs is the wall time of the last message published.
	sentNs int64
	// it is the VU's last iteration, for closeVU.
	it *engine.Iter
	// lastSeq is the stream sequence of the last PubAck, lastSi the
	// index of its stream.
	lastSeq uint64
	lastSi  int
	// opts turn nats.go's own retries off: stampede retries and counts.
	opts []jetstream.PublishOpt
	// subjects are the streams' subjects (the scenario's, shared).
	subjects []string
	// hdr is an empty header shared by every message: with options,
	// nats.go would allocate one per message (an empty header is not sent).
	hdr nats.Header
	// msg is the one message every publish hands to nats.go, which copies
	// its subject and data into the connection's buffer during the call
	// and keeps the pointer only for PubAckFuture.Msg (not used here).
	msg nats.Msg
	// jsOpts made vc.js; a fresh JetStream context after an async
	// timeout drops the PubAcks that never came (nats.go keeps them
	// pending otherwise).
	jsOpts []jetstream.JetStreamOpt
	// ackWait bounds the async wait for a window's PubAcks: one timer per
	// VU instead of nats.go's timer per message.
	ackWait *time.Timer
	armed   time.Duration // the run offset ackWait fires at
	// pctx bounds each sync publish.
	pctx *pubCtx
}

// errAckTimeout is an async message whose PubAck did not come within
// --nats-publish-timeout of its publish; it has the sync timeout's label.
var errAckTimeout = fmt.Errorf("%w: no PubAck within the publish timeout", nats.ErrTimeout)

// noResponders tells a publish that no stream answered (its leader is
// gone or not yet elected): the one error a publish is retried on, as
// nats.go does, since the message was stored nowhere.
func noResponders(err error) bool {
	return errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders)
}

// retried counts one retry and waits before it; false when ctx ended.
func (p *publisher) retried(ctx context.Context, it *engine.Iter) bool {
	p.b.Retries.Add(1)
	it.Rec.Add(p.b.ids.retries, it.Now(), 1)
	return msgload.SleepCtx(ctx, p.b.opts.PublishRetryWait)
}

func newPublisher(b *base, id int) (*publisher, error) {
	o := &b.opts
	// No WithPublishAsyncTimeout: it arms a timer per message;
	// publishAsync times the window's PubAcks itself (ackWait).
	jsOpts := []jetstream.JetStreamOpt{
		jetstream.WithDefaultTimeout(o.PublishTimeout),
		jetstream.WithPublishAsyncMaxPending(o.AsyncWindow + 1),
	}
	vc, err := b.vuConn("stampede-"+b.Name+"-"+strconv.Itoa(id), jsOpts...)
	if err != nil {
		return nil, err
	}
	p := &publisher{b: b, vc: vc, vu: uint32(id), next: id % len(b.streams),
		buf:  newPayload(o.MessageSize, uint64(b.seed)+uint64(id)*0x9E3779B97F4A7C15),
		opts: []jetstream.PublishOpt{jetstream.WithRetryAttempts(0)}, hdr: nats.Header{},
		jsOpts: jsOpts, ackWait: time.NewTimer(time.Hour), pctx: newPubCtx()}
	p.ackWait.Stop()
	p.msg = nats.Msg{Data: p.buf, Header: p.hdr}
	p.subjects = b.subjects
	return p, nil
}

// pick returns the next stream index and stamps the payload.
func (p *publisher) pick(it *engine.Iter) (int, time.Duration) {
	p.it = it
	p.b.Sent.Add(1)
	si := p.next
	if !p.b.pinned() {
		p.next++
		if p.next == len(p.b.streams) {
			p.next = 0
		}
	}
	p.seq++
	now := it.Now()
	// The stamp is the message's origin: under --rate its intended send
	// time, so that e2e_latency counts a stall that made the VU late.
	p.sentNs = it.Clock.Wall(msgload.Origin(it, now)).UnixNano()
	putStamp(p.buf, stamp{SentNs: p.sentNs, VU: p.vu, Seq: p.seq})
	return si, now
}

// publishSync publishes one message and waits for its PubAck. ok reports
// an acknowledged message; err is the run's stop.
func (p *publisher) publishSync(ctx context.Context, it *engine.Iter) (ok bool, err error) {
	si, sent := p.pick(it)
	p.lastSi = si
	subj := p.subjects[si]
	var perr error
	for try := 0; ; try++ {
		// The run's context may carry a far deadline (the graceful
		// stop), which would replace the client's default timeout:
		// bound each wait (pctx, reused from publish to publish).
		p.pctx.arm(ctx, p.b.opts.PublishTimeout)
		var ack *jetstream.PubAck
		p.msg.Subject = subj
		ack, perr = p.vc.js.PublishMsg(p.pctx, &p.msg, p.opts...)
		p.pctx.disarm()
		if ack != nil {
			p.lastSeq = ack.Sequence
		}
		if perr == nil || !noResponders(perr) || try >= p.b.opts.PublishRetries || !p.retried(ctx, it) {
			break
		}
	}
	if perr != nil && ctx.Err() != nil {
		return false, ctx.Err()
	}
	p.record(it, si, sent, perr)
	return perr == nil, nil
}

// publishAsync publishes k messages without waiting, then waits for every
// PubAck (or its failure) and records each. A message whose PubAck has not
// come --nats-publish-timeout after its publish fails with errAckTimeout;
// one timer per VU times the window (futures are awaited in publish
// order, so the earliest deadline is always the one awaited).
func (p *publisher) publishAsync(ctx context.Context, it *engine.Iter, k int) error {
	p.futs, p.sent, p.si = p.futs[:0], p.sent[:0], p.si[:0]
	for range k {
		si, sent := p.pick(it)
		p.msg.Subject = p.subjects[si]
		f, err := p.vc.js.PublishMsgAsync(&p.msg, p.opts...)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p.record(it, si, sent, err)
			continue
		}
		p.futs, p.sent, p.si = append(p.futs, f), append(p.sent, sent), append(p.si, si)
	}
	if len(p.futs) == 0 {
		return nil
	}
	timeout := p.b.opts.PublishTimeout
	p.arm(it, p.sent[0]+timeout)
	defer p.ackWait.Stop()
	timedOut := false
	for i, f := range p.futs {
		from := p.sent[i] // the publish the deadline counts from
		for try := 0; ; try++ {
			err, stop := p.await(ctx, it, f, from+timeout)
			if stop != nil {
				return stop
			}
			if err == errAckTimeout {
				timedOut = true
			} else if err != nil && noResponders(err) && try < p.b.opts.PublishRetries && p.retried(ctx, it) {
				p.msg.Subject = p.subjects[p.si[i]]
				if f2, rerr := p.vc.js.PublishMsgAsync(&p.msg, p.opts...); rerr == nil {
					f, from = f2, it.Now()
					continue
				}
			}
			p.record(it, p.si[i], p.sent[i], err)
			break
		}
	}
	if timedOut {
		// nats.go still counts the unanswered messages as pending (they
		// would fill the window): start a fresh JetStream context on the
		// same connection.
		if js, err := jetstream.New(p.vc.nc, p.jsOpts...); err == nil {
			p.vc.js = js
		}
	}
	return nil
}

// arm sets ackWait to fire at deadline (a run offset).
func (p *publisher) arm(it *engine.Iter, deadline time.Duration) {
	p.ackWait.Reset(max(deadline-it.Now(), 0))
	p.armed = deadline
}

// await waits for f's PubAck until deadline (a run offset) and returns
// its error (errAckTimeout past the deadline), or stop when ctx ended.
// ackWait stays armed for the earliest deadline of the window: it is
// re-armed only when it fired early or is set for a later deadline (a
// retried message's).
func (p *publisher) await(ctx context.Context, it *engine.Iter, f jetstream.PubAckFuture, deadline time.Duration) (err, stop error) {
	// A PubAck already there (the common case: they come back while the
	// window is still being published) costs no error channel.
	select {
	case <-f.Ok():
		return nil, nil
	default:
	}
	if p.armed > deadline {
		p.arm(it, deadline)
	}
	for {
		select {
		case <-f.Ok():
			return nil, nil
		case err := <-f.Err():
			return err, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-p.ackWait.C:
			p.armed = 1<<63 - 1 // not armed
			// An answer already there wins over the timer: the VU may
			// look late (a busy machine) at a PubAck that came in time.
			select {
			case <-f.Ok():
				return nil, nil
			case err := <-f.Err():
				return err, nil
			default:
			}
			if deadline-it.Now() <= 0 {
				return errAckTimeout, nil
			}
			p.arm(it, deadline)
		}
	}
}

func (p *publisher) record(it *engine.Iter, si int, sent time.Duration, err error) {
	b := p.b
	b.Published(it, b.streams[si], si, sent, len(p.buf), driver.Result{Rows: 1, Err: natsdrv.Wrap(err)})
}

func (p *publisher) close() {
	if p != nil {
		p.pctx.close()
		p.vc.close()
	}
}

// publishScenario is nats.Publish: sync mode publishes one message per
// iteration and waits for its PubAck; async mode publishes a window of
// --nats-async-window messages and then waits for all their PubAcks. A
// message counts only when its PubAck arrived.
type publishScenario struct{ *base }

var (
	_ engine.Scenario   = (*publishScenario)(nil)
	_ engine.Teardowner = (*publishScenario)(nil)
	_ engine.Noter      = (*publishScenario)(nil)
)

func newPublish(r *run) *publishScenario {
	s := &publishScenario{base: newBase(r, ScenarioPublish)}
	s.addChurn()
	s.addKill()
	return s
}

func (s *publishScenario) NewVU(_ context.Context, id int) (engine.VU, error) {
	p, err := newPublisher(s.base, id)
	if err != nil {
		return nil, err
	}
	return &publishVU{s: s, p: p}, nil
}

// Teardown stops the background work and writes the notes, with how much
// of the publish latency was client-side queueing.
func (s *publishScenario) Teardown(context.Context) error {
	s.StopBackground()
	s.report()
	inflight := s.maxVUs
	if s.opts.PublishMode == "async" {
		inflight *= s.opts.AsyncWindow
	}
	if n := s.QueueingNote(inflight, "PubAck", "--nats-async-window"); n != "" {
		s.Note("%s", n)
	}
	return nil
}

type publishVU struct {
	s *publishScenario
	p *publisher
}

func (v *publishVU) Iterate(ctx context.Context, it *engine.Iter) error {
	v.s.Begin(it)
	if v.s.opts.PublishMode == "sync" {
		_, err := v.p.publishSync(ctx, it)
		return err
	}
	return v.p.publishAsync(ctx, it, v.s.opts.AsyncWindow)
}

func (v *publishVU) Close() error { v.s.CloseVU(v.p.it); v.p.close(); return nil }
