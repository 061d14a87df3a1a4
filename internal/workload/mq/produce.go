package mq

import (
	"context"
	"errors"
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
// acknowledgement the VU waits for, so VUs = messages in flight.
type sender struct {
	b   *base
	vu  uint32
	seq uint64
	rnd uint64
	cur *inflight
	// guard bounds the wait for a promise to the delivery timeout plus
	// guardSlack, in case the client does not fail the record in time
	// (it checks the timeout only between retries).
	guard *time.Timer
	// ok and sentNs describe the last send: acknowledged, and its wall
	// clock send time (Unix ns, as in the header).
	ok     bool
	sentNs int64
}

// inflight is a record with its promise. A record abandoned before its
// promise ran still belongs to the client, so the sender takes a fresh
// one.
type inflight struct {
	rec     kgo.Record
	hdr     [headerLen]byte
	done    chan error
	promise func(*kgo.Record, error)
}

func newInflight() *inflight {
	f := &inflight{done: make(chan error, 1)}
	f.rec.Headers = []kgo.RecordHeader{{Key: HeaderKey, Value: f.hdr[:]}}
	f.promise = func(_ *kgo.Record, err error) { f.done <- err }
	return f
}

// guardSlack is how much longer than --delivery-timeout a VU waits for the
// client to answer before it counts the message failed itself.
const guardSlack = time.Second

func newSender(b *base, id int) *sender {
	s := &sender{b: b, vu: uint32(id), rnd: uint64(id)*0x9E3779B97F4A7C15 + 1, cur: newInflight(), guard: time.NewTimer(time.Hour)}
	s.guard.Stop()
	return s
}

// errNoAnswer is counted when the client neither acknowledged nor failed
// a record within the delivery timeout and guardSlack.
var errNoAnswer = errors.New("delivery timeout (no answer from the client)")

// send produces one message with cl to topic ti, intended at intended (a
// run offset; equal to the actual send under closed executors), waits for
// the acknowledgement and records it. It returns the ack time and ctx's
// error when the run stopped it; failures are recorded, not returned.
func (s *sender) send(ctx context.Context, it *engine.Iter, cl *kgo.Client, ti int, intended time.Duration) (time.Duration, error) {
	b, f := s.b, s.cur
	s.seq++
	f.rec.Topic = b.topics[ti]
	f.rec.Value = b.pay.value(&s.rnd)
	f.rec.Timestamp = time.Time{}
	s.ok = false
	sent := it.Now()
	s.sentNs = it.Clock.Wall(sent).UnixNano()
	putStamp(f.hdr[:], stamp{SentNs: s.sentNs, VU: s.vu, Seq: s.seq})
	b.sent.Add(1)
	cl.Produce(ctx, &f.rec, f.promise)
	s.guard.Reset(b.opts.DeliveryTimeout + guardSlack)
	var err error
	select {
	case err = <-f.done:
		s.guard.Stop()
	case <-s.guard.C:
		s.cur = newInflight()
		err = errNoAnswer
	case <-ctx.Done():
		s.guard.Stop()
		s.cur = newInflight()
		return it.Now(), ctx.Err()
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
