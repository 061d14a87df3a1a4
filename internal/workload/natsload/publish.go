package natsload

import (
	"context"
	"errors"
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
}

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
	vc, err := b.vuConn("stampede-"+b.Name+"-"+strconv.Itoa(id),
		jetstream.WithDefaultTimeout(o.PublishTimeout),
		jetstream.WithPublishAsyncTimeout(o.PublishTimeout),
		jetstream.WithPublishAsyncMaxPending(o.AsyncWindow+1))
	if err != nil {
		return nil, err
	}
	p := &publisher{b: b, vc: vc, vu: uint32(id), next: id % len(b.streams),
		buf:  newPayload(o.MessageSize, uint64(b.seed)+uint64(id)*0x9E3779B97F4A7C15),
		opts: []jetstream.PublishOpt{jetstream.WithRetryAttempts(0)}, hdr: nats.Header{}}
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
		// bound each wait.
		pctx, cancel := context.WithTimeout(ctx, p.b.opts.PublishTimeout)
		var ack *jetstream.PubAck
		ack, perr = p.vc.js.PublishMsg(pctx, &nats.Msg{Subject: subj, Data: p.buf, Header: p.hdr}, p.opts...)
		cancel()
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
// PubAck (or its failure) and records each.
func (p *publisher) publishAsync(ctx context.Context, it *engine.Iter, k int) error {
	p.futs, p.sent, p.si = p.futs[:0], p.sent[:0], p.si[:0]
	for range k {
		si, sent := p.pick(it)
		f, err := p.vc.js.PublishMsgAsync(&nats.Msg{Subject: p.subjects[si], Data: p.buf, Header: p.hdr}, p.opts...)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			p.record(it, si, sent, err)
			continue
		}
		p.futs, p.sent, p.si = append(p.futs, f), append(p.sent, sent), append(p.si, si)
	}
	for i, f := range p.futs {
		for try := 0; ; try++ {
			var err error
			select {
			case <-f.Ok():
			case err = <-f.Err():
			case <-ctx.Done():
				return ctx.Err()
			}
			if err != nil && noResponders(err) && try < p.b.opts.PublishRetries && p.retried(ctx, it) {
				m := f.Msg()
				if f2, rerr := p.vc.js.PublishMsgAsync(&nats.Msg{Subject: m.Subject, Data: m.Data, Header: p.hdr}, p.opts...); rerr == nil {
					f = f2
					continue
				}
			}
			p.record(it, p.si[i], p.sent[i], err)
			break
		}
	}
	return nil
}

func (p *publisher) record(it *engine.Iter, si int, sent time.Duration, err error) {
	b := p.b
	b.Published(it, b.streams[si], si, sent, len(p.buf), driver.Result{Rows: 1, Err: natsdrv.Wrap(err)})
}

func (p *publisher) close() {
	if p != nil {
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
