package kafka

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/vu"
	"github.com/twmb/franz-go/pkg/kgo"
)

// producers are the shared producer clients of a scenario: --producers per
// topic (client i writes topic i mod T). With at least as many VUs as
// topics each VU writes one topic (msgload.Pinned), so that the per-topic
// counts measure the topics; otherwise messages go to the clients
// round-robin, and consecutive messages visit every topic.
type producers struct {
	clients []*kgo.Client
	topic   []int // topic index of each client
	rr      atomic.Uint64
}

func newProducers(r *run) (*producers, error) {
	p := &producers{}
	n := len(r.topics) * r.opts.Producers
	opts := producerOpts(&r.opts, r.maxVUs)
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

// picker is how VU vu picks its client and topic: pinned, always topic
// vu mod T with one of that topic's clients; else pick.
func (p *producers) picker(vu, topics int, pinned bool) func() (*kgo.Client, int) {
	if !pinned {
		return p.pick
	}
	t := vu % topics
	i := t + topics*((vu/topics)%(len(p.clients)/topics))
	cl, ti := p.clients[i], p.topic[i]
	return func() (*kgo.Client, int) { return cl, ti }
}

// picker is VU id's pick of client and topic (producers.picker).
func (b *base) picker(p *producers, id int) func() (*kgo.Client, int) {
	return p.picker(id, len(b.topics), b.pinned())
}

func (p *producers) close() {
	for _, c := range p.clients {
		c.Close()
	}
}

// ScenarioProduce and the other scenario names.
const (
	ScenarioProduce  = "kafka.Produce"
	ScenarioConsume  = "kafka.Consume"
	ScenarioEndToEnd = "kafka.EndToEnd"
	ScenarioMaxRate  = "kafka.MaxRate"
)

// produceScenario is kafka.Produce: one iteration produces one message
// (--messages-per-iteration K: K messages) and waits for the broker's
// acknowledgement of each.
type produceScenario struct {
	*base
	prod *producers
}

var (
	_ vu.Scenario   = (*produceScenario)(nil)
	_ vu.Setupper   = (*produceScenario)(nil)
	_ vu.Teardowner = (*produceScenario)(nil)
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
	s.StopBackground()
	if s.prod != nil {
		s.prod.close()
	}
	s.report()
	knob, depth := "--produce-window", s.opts.Window
	if s.opts.PerIteration > 1 {
		knob, depth = "--messages-per-iteration", s.opts.PerIteration
	}
	if n := s.QueueingNote(s.maxVUs*depth, "acknowledgement", knob); n != "" {
		s.Note("%s", n)
	}
	return nil
}

func (s *produceScenario) NewVU(_ context.Context, id int) (vu.VU, error) {
	if s.opts.Window > 1 {
		return &windowVU{s: s, snd: newWindowSender(s.base, id, s.opts.Window), pick: s.picker(s.prod, id)}, nil
	}
	return &produceVU{s: s, snd: newSender(s.base, id, s.opts.PerIteration), pick: s.picker(s.prod, id)}, nil
}

type produceVU struct {
	s    *produceScenario
	snd  *sender
	pick func() (*kgo.Client, int)
}

func (v *produceVU) Iterate(ctx context.Context, it *vu.Iter) error {
	v.s.Begin(it)
	return v.snd.send(ctx, it, v.pick, it.Intended)
}

func (v *produceVU) Close() error {
	v.s.CloseVU(v.snd.it)
	return nil
}

// windowVU is a kafka.Produce VU with --produce-window > 1.
type windowVU struct {
	s    *produceScenario
	snd  *windowSender
	pick func() (*kgo.Client, int)
}

func (v *windowVU) Iterate(ctx context.Context, it *vu.Iter) error {
	v.s.Begin(it)
	return v.snd.send(ctx, it, v.pick, it.Intended)
}

// Close records the messages still in flight (acknowledged within
// windowFinish after the VU's last iteration), then what is pending.
func (v *windowVU) Close() error {
	if v.snd.finish(min(v.s.opts.DeliveryTimeout+guardSlack, windowFinish)) {
		v.snd.it.Rec.Flush()
	}
	v.s.CloseVU(v.snd.it)
	return nil
}

// windowFinish bounds how long a closing VU waits for its messages in
// flight, so that Ctrl+C still ends a run within about 2 s.
const windowFinish = 1500 * time.Millisecond
