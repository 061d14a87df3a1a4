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
	"github.com/stampede-bench/stampede/internal/workload/msgload"
	"github.com/stampede-bench/stampede/vu"
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
	// The window's state, reused across iterations: the PubAcks, each
	// message's first send, last send (a retry's), stream index and
	// stamp sequence.
	acks   *pubAcks
	sent   []time.Duration
	from   []time.Duration
	si     []int
	stamps []uint64
	// sentNs is the wall time of the last message published.
	sentNs int64
	// it is the VU's last iteration, for closeVU.
	it *vu.Iter
	// lastSeq is the stream sequence of the last PubAck, lastSi the
	// index of its stream.
	lastSeq uint64
	lastSi  int
	// subjects are the streams' subjects (the scenario's, shared).
	subjects []string
	// msg is the one message every publish hands to nats.go, which copies
	// its subject and data into the connection's buffer during the call.
	msg nats.Msg
	// ackWait bounds the wait for a window's PubAcks (sync: a window of
	// one): one timer per VU, not one per message.
	ackWait *time.Timer
}

// errAckTimeout is a message whose PubAck did not come within
// --nats-publish-timeout of its publish; it has the sync timeout's label.
var errAckTimeout = fmt.Errorf("%w: no PubAck within the publish timeout", nats.ErrTimeout)

// noResponders tells a publish that no stream answered (its leader is
// gone or not yet elected): the one error a publish is retried on, as
// nats.go does, since the message was stored nowhere.
func noResponders(err error) bool {
	return errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders)
}

func newPublisher(b *base, id int) (*publisher, error) {
	o := &b.opts
	vc, err := b.vuConn("stampede-"+b.Name+"-"+strconv.Itoa(id), jetstream.WithDefaultTimeout(o.PublishTimeout))
	if err != nil {
		return nil, err
	}
	p := &publisher{b: b, vc: vc, vu: uint32(id), next: id % len(b.streams),
		buf:     newPayload(o.MessageSize, uint64(b.seed)+uint64(id)*0x9E3779B97F4A7C15),
		ackWait: time.NewTimer(time.Hour)}
	p.ackWait.Stop()
	p.msg = nats.Msg{Data: p.buf}
	p.subjects = b.subjects
	writes := []int{p.next} // a pinned VU writes one stream, else all in turn
	if !b.pinned() {
		writes = writes[:0]
		for si := range b.streams {
			writes = append(writes, si)
		}
	}
	b.pubNodes.add(vc.nc.ConnectedServerName(), writes)
	return p, nil
}

// pick returns the next stream index and stamps the payload.
func (p *publisher) pick(it *vu.Iter) (int, time.Duration) {
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

// publishSync publishes one message and waits for its PubAck: a window
// of one (publishAsync). ok reports an acknowledged message; err is the
// run's stop.
func (p *publisher) publishSync(ctx context.Context, it *vu.Iter) (ok bool, err error) {
	if err := p.publishAsync(ctx, it, 1); err != nil {
		return false, err
	}
	r := p.acks.result(0)
	p.lastSi = p.si[0]
	if r.err == nil {
		p.lastSeq = r.seq
	}
	return r.err == nil, nil
}

// publishAsync publishes k messages without waiting, then waits for every
// PubAck (or its failure) and records each, timed to when its PubAck came
// (pubAcks). A message whose PubAck has not come --nats-publish-timeout
// after its publish fails with errAckTimeout; one timer per VU times the
// window. A message that found no stream to answer is sent again, up to
// --nats-publish-retries times, after one --nats-publish-retry-wait for
// all of the window's.
func (p *publisher) publishAsync(ctx context.Context, it *vu.Iter, k int) error {
	if p.acks == nil {
		// The async publish takes its PubAcks itself, not through
		// nats.go's PublishMsgAsync.
		a, err := newPubAcks(p.vc.nc, k)
		if err != nil {
			return fmt.Errorf("nats: subscribing for PubAcks: %w", err)
		}
		p.acks = a
	}
	a := p.acks
	a.begin(k, it.Clock)
	p.sent, p.from, p.si, p.stamps = p.sent[:0], p.from[:0], p.si[:0], p.stamps[:0]
	for i := range k {
		si, sent := p.pick(it)
		p.sent, p.from, p.si, p.stamps = append(p.sent, sent), append(p.from, sent), append(p.si, si), append(p.stamps, p.seq)
		if err := p.send(i, false); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			a.fail(i, it.Now(), err)
		}
	}
	timeout := p.b.opts.PublishTimeout
	timedOut := false
	for try := 0; ; try++ {
		to, stop := p.wait(ctx, it, timeout)
		if stop != nil {
			return stop
		}
		timedOut = timedOut || to
		if try >= p.b.opts.PublishRetries || !p.resend(ctx, it) {
			break
		}
	}
	for i := range k {
		r := a.result(i)
		p.b.PublishedEnd(it, p.b.streams[p.si[i]], p.si[i], p.sent[i], r.at, len(p.buf), driver.Result{Rows: 1, Err: natsdrv.Wrap(r.err)})
	}
	if timedOut {
		// A PubAck that comes now must not count for the next window.
		if err := a.subscribe(); err != nil {
			return fmt.Errorf("nats: resubscribing for PubAcks: %w", err)
		}
	}
	return nil
}

// send publishes the window's message i with slot i's reply subject; a
// retry (restamp) stamps the payload again as when it was first sent.
func (p *publisher) send(i int, restamp bool) error {
	if restamp {
		putStamp(p.buf, stamp{SentNs: p.it.Clock.Wall(msgload.Origin(p.it, p.sent[i])).UnixNano(), VU: p.vu, Seq: p.stamps[i]})
	}
	p.msg.Subject, p.msg.Reply = p.subjects[p.si[i]], p.acks.replies[i]
	return p.vc.nc.PublishMsg(&p.msg)
}

// wait waits until every message of the window is answered, failing with
// errAckTimeout those whose PubAck did not come within timeout of their
// last publish (from); timedOut tells that one did, stop that ctx ended.
func (p *publisher) wait(ctx context.Context, it *vu.Iter, timeout time.Duration) (timedOut bool, stop error) {
	a := p.acks
	if a.complete() {
		return false, nil
	}
	p.ackWait.Reset(max(p.from[0]+timeout-it.Now(), 0))
	defer p.ackWait.Stop()
	for {
		select {
		case <-a.done:
			return timedOut, nil
		case <-ctx.Done():
			return timedOut, ctx.Err()
		case <-p.ackWait.C:
			// Fail what is overdue; wait for the earliest of the rest.
			now := it.Now()
			next := time.Duration(-1)
			for i, from := range p.from {
				if a.result(i).ok {
					continue
				}
				if from+timeout <= now {
					a.fail(i, now, errAckTimeout)
					timedOut = true
				} else if next < 0 || from+timeout < next {
					next = from + timeout
				}
			}
			if next < 0 || a.complete() {
				return timedOut, nil
			}
			p.ackWait.Reset(next - now)
		}
	}
}

// resend sends again, after one --nats-publish-retry-wait, the window's
// messages that found no stream to answer, each counted as a retry; false
// when there were none or ctx ended.
func (p *publisher) resend(ctx context.Context, it *vu.Iter) bool {
	a := p.acks
	n := 0
	for i := range p.from {
		if r := a.result(i); r.err != nil && noResponders(r.err) {
			n++
		}
	}
	if n == 0 {
		return false
	}
	p.b.Retries.Add(int64(n))
	it.Rec.Add(p.b.ids.retries, it.Now(), int64(n))
	if !msgload.SleepCtx(ctx, p.b.opts.PublishRetryWait) {
		return false
	}
	for i := range p.from {
		if r := a.result(i); r.err == nil || !noResponders(r.err) {
			continue
		}
		a.retry(i)
		p.from[i] = it.Now()
		if err := p.send(i, true); err != nil {
			a.fail(i, it.Now(), err)
		}
	}
	return true
}

func (p *publisher) record(it *vu.Iter, si int, sent time.Duration, err error) {
	b := p.b
	b.Published(it, b.streams[si], si, sent, len(p.buf), driver.Result{Rows: 1, Err: natsdrv.Wrap(err)})
}

func (p *publisher) close() {
	if p != nil {
		p.acks.close()
		p.vc.close()
	}
}

// publishScenario is nats.Publish: sync mode publishes one message per
// iteration and waits for its PubAck; async mode publishes a window of
// --nats-async-window messages and then waits for all their PubAcks. A
// message counts only when its PubAck arrived.
type publishScenario struct{ *base }

var (
	_ vu.Scenario   = (*publishScenario)(nil)
	_ vu.Teardowner = (*publishScenario)(nil)
	_ vu.Noter      = (*publishScenario)(nil)
)

func newPublish(r *run) *publishScenario {
	s := &publishScenario{base: newBase(r, ScenarioPublish)}
	s.addChurn()
	s.addKill()
	return s
}

func (s *publishScenario) NewVU(_ context.Context, id int) (vu.VU, error) {
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

func (v *publishVU) Iterate(ctx context.Context, it *vu.Iter) error {
	v.s.Begin(it)
	if v.s.opts.PublishMode == "sync" {
		_, err := v.p.publishSync(ctx, it)
		return err
	}
	return v.p.publishAsync(ctx, it, v.s.opts.AsyncWindow)
}

func (v *publishVU) Close() error { v.s.CloseVU(v.p.it); v.p.close(); return nil }
