package mq

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/driver"
	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	"github.com/stampede-bench/stampede/internal/engine"
)

// producers are the shared producer clients of a scenario: --producers per
// topic. Messages go to them round-robin, so consecutive messages visit
// every topic.
type producers struct {
	clients []*kgo.Client
	topic   []int // topic index of each client
	rr      atomic.Uint64
}

func newProducers(r *run) (*producers, error) {
	p := &producers{}
	n := len(r.topics) * r.opts.Producers
	opts := r.opts.producerOpts(r.maxVUs)
	for i := range n {
		cl, err := r.client(opts...)
		if err != nil {
			p.close()
			return nil, err
		}
		p.clients = append(p.clients, cl)
		p.topic = append(p.topic, i%len(r.topics))
	}
	return p, nil
}

// pick returns the next client and its topic index.
func (p *producers) pick() (*kgo.Client, int) {
	i := int((p.rr.Add(1) - 1) % uint64(len(p.clients)))
	return p.clients[i], p.topic[i]
}

func (p *producers) close() {
	for _, c := range p.clients {
		c.Close()
	}
}

// sender is the producing half of a VU: one reusable record whose
// acknowledgement the VU waits for, so VUs = messages in flight. The VU
// waits on one channel only; the scenario's watchdog puts a stop or a
// timeout into it when the client does not answer (see watchdog).
type sender struct {
	b   *base
	vu  uint32
	seq uint64
	rnd uint64
	// cur is the record in use; replaced (rarely) by the VU, read by the
	// watchdog.
	cur atomic.Pointer[inflight]
	// since is the run offset (ns) when the current wait began, 0 when
	// not waiting; the watchdog takes it to 0 before it signals.
	since atomic.Int64
	ctx   atomic.Pointer[context.Context]
	// ok and sentNs describe the last send: acknowledged, and its wall
	// clock send time (Unix ns, as in the header).
	ok     bool
	sentNs int64
}

// inflight is a record with its promise. A record abandoned before its
// promise ran still belongs to the client, so the sender takes a fresh
// one.
type inflight struct {
	rec  kgo.Record
	hdr  [headerLen]byte
	done chan error // room for the promise and one watchdog signal
	// promise is the franz-go callback; it never blocks.
	promise func(*kgo.Record, error)
}

func newInflight() *inflight {
	f := &inflight{done: make(chan error, 2)}
	f.rec.Headers = []kgo.RecordHeader{{Key: HeaderKey, Value: f.hdr[:]}}
	f.promise = func(_ *kgo.Record, err error) { f.done <- err }
	return f
}

func newSender(b *base, id int) *sender {
	s := &sender{b: b, vu: uint32(id), rnd: uint64(id)*0x9E3779B97F4A7C15 + 1}
	s.cur.Store(newInflight())
	b.watch.add(s)
	return s
}

// errNoAnswer is counted when the client neither acknowledged nor failed
// a record within the delivery timeout and guardSlack.
var errNoAnswer = errors.New("delivery timeout (no answer from the client)")

// errStopped is what the watchdog hands a VU whose run was stopped.
var errStopped = errors.New("stopped")

// send produces one message with cl to topic ti, intended at intended (a
// run offset; equal to the actual send under closed executors), waits for
// the acknowledgement and records it. It returns the ack time and ctx's
// error when the run stopped it; failures are recorded, not returned.
func (s *sender) send(ctx context.Context, it *engine.Iter, cl *kgo.Client, ti int, intended time.Duration) (time.Duration, error) {
	b, f := s.b, s.cur.Load()
	if p := s.ctx.Load(); p == nil || *p != ctx {
		s.ctx.Store(&ctx)
	}
	s.seq++
	f.rec.Topic = b.topics[ti]
	f.rec.Value = b.pay.value(&s.rnd)
	f.rec.Timestamp = time.Time{}
	s.ok = false
	sent := it.Now()
	s.sentNs = it.Clock.Wall(sent).UnixNano()
	putStamp(f.hdr[:], stamp{SentNs: s.sentNs, VU: s.vu, Seq: s.seq})
	b.sent.Add(1)
	s.since.Store(int64(sent) | 1) // never 0 while waiting
	cl.Produce(ctx, &f.rec, f.promise)
	err := <-f.done
	switch {
	case err == errStopped:
		s.cur.Store(newInflight())
		return it.Now(), ctx.Err()
	case err == errNoAnswer:
		s.cur.Store(newInflight())
	case !s.since.CompareAndSwap(int64(sent)|1, 0):
		<-f.done // the watchdog signalled meanwhile: drop its signal
	}
	it.Intended = intended
	res := driver.Result{Rows: 1, Err: kafkadrv.Wrap(err)}
	end := it.Request(f.rec.Topic, sent, res)
	if err != nil {
		b.failed.Add(1)
		return end, nil
	}
	s.ok = true
	r := it.Rec
	b.acknowledged(r, end, ti, len(f.rec.Value))
	r.Trend(b.ids.publishLatency, end, int64((end-sent)/time.Microsecond))
	if it.Intended != it.Start {
		// Arrival-rate executor (or the max-rate pacer): how late the
		// send was against its schedule.
		r.Trend(b.ids.publishDelay, end, int64((sent-it.Intended)/time.Microsecond))
	}
	return end, nil
}

// guardSlack is how much longer than --delivery-timeout a VU waits for the
// client before it counts the message failed itself: franz-go checks the
// delivery timeout only between retries, and records written to a
// connection that died may never be retried.
const guardSlack = time.Second

// watchEvery is how often the watchdog looks at the waiting senders.
const watchEvery = 100 * time.Millisecond

// watchdog frees senders whose run was stopped or whose record got no
// answer in time. It runs in the background of a scenario, so that VUs
// wait on their promise alone, without a timer per message.
type watchdog struct {
	mu      sync.Mutex
	senders []*sender
}

func (w *watchdog) add(s *sender) {
	w.mu.Lock()
	w.senders = append(w.senders, s)
	w.mu.Unlock()
}

// run checks the senders every watchEvery until ctx ends.
func (w *watchdog) run(ctx context.Context, clock func() time.Duration, limit time.Duration) {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			w.check(clock(), limit, true)
			return
		case <-t.C:
			w.check(clock(), limit, false)
		}
	}
}

func (w *watchdog) check(now, limit time.Duration, final bool) {
	w.mu.Lock()
	senders := w.senders
	w.mu.Unlock()
	for _, s := range senders {
		since := s.since.Load()
		if since == 0 {
			continue
		}
		var sig error
		if p := s.ctx.Load(); final || (p != nil && (*p).Err() != nil) {
			sig = errStopped
		} else if now-time.Duration(since) > limit {
			sig = errNoAnswer
		}
		if sig != nil && s.since.CompareAndSwap(since, 0) {
			s.cur.Load().done <- sig
		}
	}
}

// ScenarioProduce and the other scenario names.
const (
	ScenarioProduce  = "kafka.Produce"
	ScenarioConsume  = "kafka.Consume"
	ScenarioEndToEnd = "kafka.EndToEnd"
	ScenarioMaxRate  = "kafka.MaxRate"
)

// produceScenario is kafka.Produce: one iteration produces one message and
// waits for the broker's acknowledgement.
type produceScenario struct {
	*base
	prod *producers
}

var (
	_ engine.Scenario   = (*produceScenario)(nil)
	_ engine.Setupper   = (*produceScenario)(nil)
	_ engine.Teardowner = (*produceScenario)(nil)
)

func newProduce(r *run) *produceScenario {
	s := &produceScenario{base: newBase(r, ScenarioProduce)}
	s.addChurn()
	return s
}

// Setup creates the producer clients.
func (s *produceScenario) Setup(context.Context) error {
	p, err := newProducers(s.run)
	s.prod = p
	return err
}

// Teardown closes the clients and writes the scenario's notes.
func (s *produceScenario) Teardown(context.Context) error {
	s.stopBackground()
	if s.prod != nil {
		s.prod.close()
	}
	s.report()
	return nil
}

func (s *produceScenario) NewVU(_ context.Context, id int) (engine.VU, error) {
	return &produceVU{s: s, snd: newSender(s.base, id)}, nil
}

type produceVU struct {
	s   *produceScenario
	snd *sender
}

func (v *produceVU) Iterate(ctx context.Context, it *engine.Iter) error {
	v.s.begin(it, nil)
	cl, ti := v.s.prod.pick()
	_, err := v.snd.send(ctx, it, cl, ti, it.Intended)
	return err
}

func (v *produceVU) Close() error { return nil }
