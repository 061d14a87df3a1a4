package kafka

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/driver"
	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
	"github.com/stampede-bench/stampede/vu"
)

// sender is the producing half of a VU. An iteration hands K records
// (K = --messages-per-iteration, 1 by default) to the producer clients and
// waits until each is acknowledged or failed, recording each as one
// request: VUs × K messages are in flight. The VU waits on one channel;
// the scenario's watchdog puts a stop or a timeout into it when the client
// does not answer (see watchdog).
type sender struct {
	b   *base
	vu  uint32
	k   int
	seq uint64 // sequence number of the last message sent
	rnd uint64
	// cur holds the records in use; replaced (rarely) by the VU when
	// records are abandoned, read by the watchdog.
	cur atomic.Pointer[inflight]
	// since is the run offset (ns) when the current wait began, 0 when
	// not waiting; the watchdog takes it to 0 before it signals.
	since atomic.Int64
	ctx   atomic.Pointer[context.Context]
	// ok and sentNs describe the first message of the last iteration:
	// acknowledged, and its wall-clock send time (Unix ns, as in the
	// header).
	ok     bool
	sentNs int64
	// it is the VU's iteration context, kept for closeVU.
	it *vu.Iter
}

// inflight are a sender's K records with their promises. Records abandoned
// before their promise ran still belong to the client, so the sender then
// takes fresh ones.
type inflight struct {
	recs []kgo.Record
	hdrs [][headerLen]byte
	sent []time.Duration // run offset of each send
	ti   []int           // topic index of each record
	done []bool
	// acks has room for every promise and one watchdog signal, so that
	// franz-go never blocks on a promise.
	acks     chan ack
	promises []func(*kgo.Record, error)
}

// ack is a promise's result for record i, or a watchdog signal (i < 0).
type ack struct {
	i   int
	err error
}

func newInflight(k int) *inflight {
	f := &inflight{
		recs: make([]kgo.Record, k), hdrs: make([][headerLen]byte, k), sent: make([]time.Duration, k),
		ti: make([]int, k), done: make([]bool, k), acks: make(chan ack, k+1), promises: make([]func(*kgo.Record, error), k),
	}
	for i := range k {
		f.recs[i].Headers = []kgo.RecordHeader{{Key: HeaderKey, Value: f.hdrs[i][:]}}
		f.promises[i] = func(_ *kgo.Record, err error) { f.acks <- ack{i, err} }
	}
	return f
}

func newSender(b *base, id, k int) *sender {
	s := &sender{b: b, vu: uint32(id), k: max(k, 1), rnd: uint64(id)*0x9E3779B97F4A7C15 + 1}
	s.cur.Store(newInflight(s.k))
	b.watch.add(s)
	return s
}

// errNoAnswer is counted when the client neither acknowledged nor failed
// a record within the delivery timeout and guardSlack.
var errNoAnswer = errors.New("delivery timeout (no answer from the client)")

// errStopped is what the watchdog hands a VU whose run was stopped.
var errStopped = errors.New("stopped")

// send produces the sender's K messages, each to the client and topic pick
// returns, intended at intended (a run offset; the actual start under
// closed executors), waits for every acknowledgement and records each. It
// returns ctx's error when the run stopped it; failures are recorded, not
// returned.
func (s *sender) send(ctx context.Context, it *vu.Iter, pick func() (*kgo.Client, int), intended time.Duration) error {
	b, f := s.b, s.cur.Load()
	s.it = it
	if p := s.ctx.Load(); p == nil || *p != ctx {
		c := ctx // a copy, so that only a new ctx goes to the heap, not every call's
		s.ctx.Store(&c)
	}
	it.Intended = intended
	first := it.Now()
	s.since.Store(int64(first) | 1) // never 0 while waiting
	for i := range s.k {
		cl, ti := pick()
		s.seq++
		r := &f.recs[i]
		r.Topic = b.topics[ti]
		r.Value = b.pay.value(&s.rnd)
		sent := first
		if i > 0 {
			sent = it.Now()
		}
		r.Timestamp = createTime(it, sent)
		// The stamp is the message's origin: under --rate its intended
		// send time, so that e2e_latency counts a stall that made the VU
		// late.
		wall := it.Clock.Wall(msgload.Origin(it, sent)).UnixNano()
		if i == 0 {
			s.sentNs, s.ok = wall, false
		}
		putStamp(f.hdrs[i][:], stamp{SentNs: wall, VU: s.vu, Seq: s.seq})
		f.sent[i], f.ti[i], f.done[i] = sent, ti, false
		b.Sent.Add(1)
		cl.Produce(ctx, r, f.promises[i])
	}
	for pending := s.k; pending > 0; {
		a := <-f.acks
		if a.i >= 0 {
			f.done[a.i] = true
			pending--
			s.record(it, f, a.i, a.err)
			continue
		}
		s.cur.Store(newInflight(s.k)) // the client keeps the unanswered records
		if a.err == errStopped {
			return ctx.Err()
		}
		for i := range s.k {
			if !f.done[i] {
				s.record(it, f, i, errNoAnswer)
			}
		}
		return nil
	}
	if !s.since.CompareAndSwap(int64(first)|1, 0) {
		<-f.acks // the watchdog signalled meanwhile: drop its signal
	}
	return nil
}

// record records the outcome of record i.
func (s *sender) record(it *vu.Iter, f *inflight, i int, err error) {
	r := &f.recs[i]
	s.b.Published(it, r.Topic, f.ti[i], f.sent[i], len(r.Value), driver.Result{Rows: 1, Err: kafkadrv.Wrap(err)})
	if err == nil && i == 0 {
		s.ok = true
	}
}

// lastRef is where the broker stored the first message of the last
// iteration (valid once it was acknowledged).
func (s *sender) lastRef() msgload.Ref {
	f := s.cur.Load()
	r := &f.recs[0]
	return msgload.Ref{Part: f.ti[0], Partition: r.Partition, Seq: r.Offset}
}

// lastValueLen is the size of the first message of the last iteration.
func (s *sender) lastValueLen() int { return len(s.cur.Load().recs[0].Value) }

// guardSlack is how much longer than --delivery-timeout a VU waits for the
// client before it counts the messages failed itself: franz-go checks the
// delivery timeout only between retries, and records written to a
// connection that died may never be retried.
const guardSlack = time.Second

// watchEvery is how often the watchdog looks at the waiting senders.
const watchEvery = 100 * time.Millisecond

// watchdog frees senders whose run was stopped or whose records got no
// answer in time. It runs in the background of a scenario, so that VUs
// wait on their promises alone, without a timer per message.
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
			s.cur.Load().acks <- ack{-1, sig}
		}
	}
}

// createTime is the record's timestamp (Kafka's CreateTime): its send
// time sent on the run clock, what franz-go's time.Now() would give for a
// record without one, and without the clock read.
func createTime(it *vu.Iter, sent time.Duration) time.Time { return it.Clock.Wall(sent) }
