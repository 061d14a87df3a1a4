// Package csvlog writes the per-request log of a run as CSV with
// nebula-bench's columns (see Header), one line per request.
//
// Each VU gets its own Writer that encodes records into a private buffer
// without locks or allocations; full buffers go over a channel to a single
// goroutine that writes them out in order of arrival. When the destination
// lags, VUs block on that channel: rows are never dropped to keep up.
// Most rows of a fast run, a VU's plain requests within the second and
// with the query of its previous row, are written in place from the
// request's fields (Writer.WritePlain), the others from a record.
package csvlog

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// Defaults of Options.
const (
	DefaultBufferSize = 64 << 10
	DefaultQueue      = 16
	// DefaultBudget bounds the bytes all VU buffers hold together.
	DefaultBudget = 32 << 20
	// firstBufSize is the capacity a new VU buffer starts with; it grows to
	// the writer's hand-off size only for VUs that log enough to fill it.
	firstBufSize = 4 << 10
	// minHandoff is the smallest hand-off size, however many VUs there are.
	minHandoff = 512
	// maxFree is the most buffers kept for reuse; together they hold at
	// most a quarter of the budget.
	maxFree = 4096
	// coalesceSize is the size of the writer goroutine's buffer in which
	// small chunks are gathered before they are written.
	coalesceSize = 64 << 10
	// flushEvery is how long gathered chunks may wait for more before they
	// are written.
	flushEvery = 100 * time.Millisecond
	// scratchSize is the size of a direct VU's own row buffer (Writer).
	scratchSize = 512
	// maxOver is how often a direct VU may fill its scratch without a
	// Flush before it buffers again.
	maxOver = 64
)

// Options tune a Log. Zero values mean the defaults.
type Options struct {
	// BufferSize is the number of bytes (default 64 KiB) a VU buffers before
	// handing them to the writer goroutine. Memory use is about
	// (busy VUs + Queue) × BufferSize.
	BufferSize int
	// Queue is the number of full buffers (default 16) that may wait for the
	// writer goroutine before VUs block.
	Queue int
	// Budget is the number of bytes (default 32 MiB) that the buffers of all
	// VUs may hold together: with many VUs, each hands its buffer over once
	// it holds Budget/VUs bytes (at least 512, at most BufferSize), so the
	// memory of the log stays flat however many slow VUs a run has. A VU
	// holds no buffer at all between a hand-off and its next request.
	// Written buffers are kept for reuse up to a quarter of Budget.
	Budget int
	// NewEncoder, when set, replaces the nebula-bench CSV: each VU's
	// writer encodes its records with its own encoder (other formats of
	// per-request streams, e.g. k6's JSON and CSV outputs), after Header.
	NewEncoder func(scenario string) RecordEncoder
	// Header is written first when NewEncoder is set.
	Header string
	// StatementColumn names the nebula-bench CSV's statement column
	// (default StatementQuery; StatementNGQL for NebulaGraph targets).
	StatementColumn string
}

// RecordEncoder appends one request record in some format to b. Each VU
// has its own, so it may keep state without locks.
type RecordEncoder interface {
	Append(b []byte, r *reqlog.Record) []byte
}

// Log is a per-request CSV log over an io.Writer. It implements
// reqlog.Log. Writer may be called concurrently; each returned
// Writer belongs to one goroutine. Close flushes everything.
type Log struct {
	size    int
	budget  int
	handoff atomic.Int64 // bytes a VU buffers before handing over
	newEnc  func(scenario string) RecordEncoder
	queue   chan chunk
	free    chan []byte
	done    chan struct{}

	mu      sync.RWMutex // guards writers and closed; read-held while sending on queue
	writers map[*Writer]struct{}
	closed  bool

	errMu sync.Mutex
	err   error // first write error

	// shared gathers the rows of VUs that flush (Writer.Flush: slow VUs
	// about to be idle), so that they need neither a buffer of their own
	// while idle nor a hand-off each; it goes to the queue when half of
	// coalesceSize is full, or to the writer goroutine on its tick.
	smu     sync.Mutex
	shared  []byte
	sharedN int64
	spares  chan []byte // written shared buffers, for reuse

	rows    atomic.Int64 // rows written
	written atomic.Int64 // bytes of complete chunks written (header included)
	lost    atomic.Int64 // rows not written (write error, or handed over after Close)
}

var (
	_ reqlog.Log         = (*Log)(nil)
	_ reqlog.Writer      = (*Writer)(nil)
	_ reqlog.Flusher     = (*Writer)(nil)
	_ reqlog.RefWriter   = (*Writer)(nil)
	_ reqlog.PlainWriter = (*Writer)(nil)
)

// chunk is a buffer of n complete records; shared tells a buffer of
// Log.shared (recycled among the spares).
type chunk struct {
	b      []byte
	n      int64
	shared bool
}

// New starts a log that writes Header and then every record to w. The
// caller owns w: it must stay writable until Close returns, and the caller
// closes it afterwards.
func New(w io.Writer, opts Options) *Log {
	if opts.BufferSize <= 0 {
		opts.BufferSize = DefaultBufferSize
	}
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	l := &Log{
		size:    opts.BufferSize,
		budget:  opts.Budget,
		queue:   make(chan chunk, opts.Queue),
		free:    make(chan []byte, maxFree),
		spares:  make(chan []byte, 2),
		done:    make(chan struct{}),
		writers: map[*Writer]struct{}{},
	}
	l.handoff.Store(int64(opts.BufferSize))
	l.newEnc = opts.NewEncoder
	if l.newEnc == nil {
		l.queue <- chunk{b: []byte(HeaderFor(opts.StatementColumn))}
	} else if opts.Header != "" {
		l.queue <- chunk{b: []byte(opts.Header)}
	}
	if d, ok := w.(directSink); ok {
		go l.runDirect(d)
	} else {
		go l.run(w)
	}
	return l
}

// Writer returns a new writer for one VU. The log has a single file for
// the whole run and no scenario column (nebula-bench's columns), so
// scenario is ignored.
func (l *Log) Writer(scenario string) reqlog.Writer {
	w := &Writer{log: l, enc: newEncoder()}
	if l.newEnc != nil {
		w.custom = l.newEnc(scenario)
	}
	l.mu.Lock()
	if !l.closed {
		l.writers[w] = struct{}{}
		l.handoff.Store(int64(min(l.size, max(minHandoff, l.budget/len(l.writers)))))
	}
	l.mu.Unlock()
	return w
}

// Close flushes the buffers of every writer not closed yet (their VUs must
// have stopped writing), waits until everything is written and returns the
// first write error, which also says how many rows were lost. Calling
// Close again returns the same result. Close does not close the
// underlying io.Writer.
func (l *Log) Close() error {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		l.smu.Lock()
		for w := range l.writers {
			switch {
			case len(w.buf) > 0:
				l.queue <- chunk{b: w.buf, n: w.n}
				w.buf, w.n = nil, 0
			case w.sn > 0:
				l.appendShared(w.scratch[:w.sn], w.n)
				w.sn, w.n = 0, 0
			}
		}
		l.writers = nil
		if len(l.shared) > 0 {
			l.queue <- chunk{b: l.shared, n: l.sharedN, shared: true}
			l.shared, l.sharedN = nil, 0
		}
		l.smu.Unlock()
		close(l.queue)
	}
	l.mu.Unlock()
	<-l.done
	return l.result()
}

// Err returns the first write error so far, or nil. It is safe to call
// during the run, e.g. to stop early when the disk is full.
func (l *Log) Err() error {
	l.errMu.Lock()
	defer l.errMu.Unlock()
	return l.err
}

// Written is the number of bytes of whole chunks (complete records)
// written so far: after a write error, the destination's first Written
// bytes end with a complete record, and what follows is a cut one.
func (l *Log) Written() int64 { return l.written.Load() }

// Rows is the number of records written so far (the header excluded).
func (l *Log) Rows() int64 { return l.rows.Load() }

// Lost is the number of records that could not be written: after a write
// error, or handed over after Close. It is 0 in a healthy run.
func (l *Log) Lost() int64 { return l.lost.Load() }

func (l *Log) result() error {
	err := l.Err()
	lost := l.lost.Load()
	switch {
	case err != nil:
		return fmt.Errorf("request log: %w (%d rows not written)", err, lost)
	case lost > 0:
		return fmt.Errorf("request log: %d rows written after Close were not logged", lost)
	}
	return nil
}

// run writes chunks until the queue is closed. Small chunks (a slow VU
// hands over a row or two at a time, Writer.Flush) are gathered into one
// buffer of up to coalesceSize bytes and written together when it is full
// or every flushEvery, so that many slow VUs do not cost a write each;
// big chunks are written as they come. After a write error it keeps
// draining, counting the rows it cannot write, so that VUs never block
// on a dead destination.
func (l *Log) run(w io.Writer) {
	defer close(l.done)
	var (
		out     = make([]byte, 0, coalesceSize)
		outRows int64
		failed  bool
	)
	write := func(b []byte, n int64) {
		if !failed {
			if _, err := w.Write(b); err != nil {
				failed = true
				l.errMu.Lock()
				l.err = err
				l.errMu.Unlock()
			} else {
				l.written.Add(int64(len(b)))
			}
		}
		if failed {
			l.lost.Add(n)
		} else {
			l.rows.Add(n)
		}
	}
	flush := func() {
		if len(out) > 0 {
			write(out, outRows)
			out, outRows = out[:0], 0
		}
	}
	put := func(c chunk) {
		switch {
		case len(c.b) >= coalesceSize/2:
			flush() // what came before goes first
			write(c.b, c.n)
		default:
			if len(out)+len(c.b) > coalesceSize {
				flush()
			}
			out = append(out, c.b...)
			outRows += c.n
		}
		l.recycle(c)
	}
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	for {
		select {
		case c, ok := <-l.queue:
			if !ok {
				flush()
				return
			}
			put(c)
		case <-tick.C:
			// The rows flushed VUs gathered since the last tick. TryLock:
			// a VU may hold smu while it waits for room on the queue,
			// which only this goroutine makes.
			if l.smu.TryLock() {
				c := chunk{b: l.shared, n: l.sharedN, shared: true}
				l.shared, l.sharedN = nil, 0
				l.smu.Unlock()
				if len(c.b) > 0 {
					put(c)
				}
			}
			flush()
		}
	}
}

// recycle puts the buffer of a written chunk on the free list. Every
// buffer goes back for reuse, small ones too: with many VUs the hand-off
// size is small, and a new buffer per hand-off made the heap (and RSS)
// creep up over a long run.
func (l *Log) recycle(c chunk) {
	if c.shared {
		select {
		case l.spares <- c.b[:0]:
		default:
		}
		return
	}
	if c.n > 0 && cap(c.b) >= int(l.handoff.Load()) && len(l.free)*cap(c.b) < l.budget/4 {
		select {
		case l.free <- c.b[:0]:
		default:
		}
	}
}

// getBuf returns a recycled buffer, or a new one sized for the current
// hand-off size.
func (l *Log) getBuf() []byte {
	h := int(l.handoff.Load())
	want := min(firstBufSize, h+h/2)
	if h >= l.size {
		want = l.size + l.size/4
	}
	select {
	case b := <-l.free:
		// Only a buffer that fits the hand-off size now: a big one from
		// when there were few VUs would break the budget.
		if cap(b) >= min(h, want) && cap(b) <= 2*want {
			return b
		}
	default:
	}
	return make([]byte, 0, want)
}

// Writer buffers the records of one VU. Its methods must not be called
// concurrently.
//
// A VU starts buffered: its rows go into a buffer from the log's pool,
// handed over when it holds the hand-off size. After its first Flush (the
// engine flushes a VU about to be idle) it writes direct: its rows go into
// scratch, a small array of its own, copied into the log's shared buffer
// at every Flush or when scratch is half full. A direct VU thus never
// takes a pooled buffer, and many slow VUs hold a fixed, small amount of
// memory however they wake (all at once after a common think time, say).
// A direct VU that fills scratch maxOver times without a Flush is busy:
// it goes back to buffering.
type Writer struct {
	log *Log
	buf []byte
	n   int64 // records in buf, or in scratch when direct
	enc encoder
	// custom replaces enc when the log has another format.
	custom RecordEncoder
	rec    reqlog.Record

	direct  bool
	sn      int // bytes used in scratch
	over    int // scratch hand-overs since the last Flush
	scratch [scratchSize]byte
}

// Write appends r to the VU's buffer and hands the buffer to the writer
// goroutine when it is full, blocking while the writer lags.
func (w *Writer) Write(r reqlog.Record) { w.write(&r, metrics.Clock{}, 0, false) }

// WriteAt is Write of r, which ended at offset at of clock, its Time
// left zero (reqlog.RefWriter): the engine's way for any request that
// WritePlain did not take.
func (w *Writer) WriteAt(r *reqlog.Record, clock metrics.Clock, at time.Duration) {
	w.write(r, clock, at, true)
}

// write is Write and, with offset, WriteAt.
func (w *Writer) write(r *reqlog.Record, c metrics.Clock, at time.Duration, offset bool) {
	if w.direct {
		w.afterDirect(w.encode(w.scratch[:w.sn], r, c, at, offset), 1)
		return
	}
	if w.buf == nil {
		w.buf = w.log.getBuf()
	}
	w.buf = w.encode(w.buf, r, c, at, offset)
	w.n++
	if int64(len(w.buf)) >= w.log.handoff.Load() {
		w.handoff()
	}
}

// encode appends r in the log's format; with offset, its time is offset
// at of c (WriteAt).
func (w *Writer) encode(b []byte, r *reqlog.Record, c metrics.Clock, at time.Duration, offset bool) []byte {
	if w.custom != nil {
		w.rec = *r // through an interface, r would escape: one allocation per record
		if offset {
			w.rec.Time = c.Wall(at)
		}
		return w.custom.Append(b, &w.rec)
	}
	if offset {
		return w.enc.appendAt(b, r, c, at)
	}
	return w.enc.append(b, r)
}

// afterDirect takes b, scratch with rows more records (or an event)
// appended, or a copy of it on the heap when they did not fit, and hands
// it to the shared buffer once it is half full.
func (w *Writer) afterDirect(b []byte, rows int64) {
	w.n += rows
	inScratch := cap(b) == scratchSize && unsafe.SliceData(b) == &w.scratch[0]
	if inScratch && len(b) < scratchSize/2 {
		w.sn = len(b)
		return
	}
	w.over++
	busy := w.over > maxOver
	// A VU that goes back to buffering sends the shared buffer on first:
	// its rows there come before those of its next hand-off.
	w.toShared(b, busy)
	w.sn = 0
	if busy {
		w.direct = false
		w.over = 0
	}
}

// Flush hands over what is buffered (reqlog.Flusher): the engine calls it
// when the VU is about to be idle. The rows are copied into the log's
// shared buffer, a pooled buffer goes back for reuse, and the VU writes
// direct from now on (see Writer).
func (w *Writer) Flush() {
	if w.direct {
		if w.sn > 0 {
			w.toShared(w.scratch[:w.sn], false)
			w.sn = 0
		}
		w.over = 0
		return
	}
	w.direct = true
	if w.buf == nil {
		return
	}
	if len(w.buf) > 0 {
		w.toShared(w.buf, false)
	}
	w.log.recycle(chunk{b: w.buf, n: 1})
	w.buf = nil
}

// toShared copies b, the VU's w.n records, into the log's shared buffer,
// which goes to the queue once half of coalesceSize is full, or at once
// when send is set.
func (w *Writer) toShared(b []byte, send bool) {
	l := w.log
	l.mu.RLock()
	if l.closed {
		l.lost.Add(w.n)
	} else {
		l.smu.Lock()
		l.appendShared(b, w.n)
		if send || len(l.shared) >= coalesceSize/2 {
			l.queue <- chunk{b: l.shared, n: l.sharedN, shared: true}
			l.shared, l.sharedN = nil, 0
		}
		l.smu.Unlock()
	}
	l.mu.RUnlock()
	w.n = 0
}

// appendShared appends b, n records, to the shared buffer; smu is held.
func (l *Log) appendShared(b []byte, n int64) {
	if l.shared == nil {
		select {
		case s := <-l.spares:
			l.shared = s
		default:
			l.shared = make([]byte, 0, coalesceSize)
		}
	}
	l.shared = append(l.shared, b...)
	l.sharedN += n
}

// Close hands over what is buffered and returns the log's first write
// error so far. The writer must not be used afterwards.
func (w *Writer) Close() error {
	l := w.log
	if len(w.buf) > 0 {
		w.handoff()
	}
	if w.sn > 0 {
		w.toShared(w.scratch[:w.sn], false)
		w.sn = 0
	}
	w.buf = nil
	l.mu.Lock()
	delete(l.writers, w)
	l.mu.Unlock()
	return l.Err()
}

func (w *Writer) handoff() {
	l := w.log
	l.mu.RLock()
	if l.closed {
		l.lost.Add(w.n)
	} else {
		l.queue <- chunk{b: w.buf, n: w.n}
		w.buf = nil
	}
	l.mu.RUnlock()
	if w.buf != nil {
		w.buf = w.buf[:0] // lost after Close: reuse
	}
	// Otherwise the VU holds no buffer until its next request, so idle VUs
	// and VUs being closed at the end of a run cost nothing.
	w.n = 0
}
