package datagen

import (
	"bufio"
	"cmp"
	"container/heap"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// defaultSortBudget is the memory, in bytes of line text, an update stream
// sorter holds before it writes a sorted run to disk.
const defaultSortBudget = 64 << 20

// sorter sorts the lines of one update stream by (scheduled time,
// generation sequence) with bounded memory: lines are collected in an
// arena; a full arena is sorted and written to a run file (in a temporary
// directory under the output directory); drain merges the runs. Being a
// total order on unique keys, the result does not depend on where the runs
// were cut. Used from one goroutine.
type sorter struct {
	tmpRoot string // where the run directory is made
	dir     string // run directory ("" until the first run)
	base    int64  // no time is before it
	budget  int
	arena   []byte
	recs    []sortRec
	seq     uint64 // sequence number of recs[0]
	runs    []runFile
	made    int // run files made so far (names them)
}

// runFile is one sorted run on disk.
type runFile struct {
	name string
	size int64 // bytes
}

// sortRec is one line in the arena. key packs the time (minus the
// sorter's base) above sortIdxBits and the line's index in the arena
// below, so one integer comparison orders by (time, generation order).
type sortRec struct {
	key      uint64
	off, end uint32
}

const (
	sortIdxBits = 27                      // lines per arena: at most 2^27
	sortMaxSpan = 1<<(64-sortIdxBits) - 1 // ms after base a time may be
	maxBudget   = 1 << 31                 // arena offsets are uint32
)

// newSorter makes a sorter for times from base (Unix ms) on that holds
// about budget bytes of lines in memory (0: defaultSortBudget).
func newSorter(tmpRoot string, base int64, budget int) *sorter {
	if budget <= 0 {
		budget = defaultSortBudget
	}
	return &sorter{tmpRoot: tmpRoot, base: base, budget: min(budget, maxBudget)}
}

// add takes the operations of one chunk, in generation order.
func (s *sorter) add(e *evBuf) error {
	if len(s.arena) > 0 && len(s.arena)+len(e.b) > s.budget {
		if err := s.flush(); err != nil {
			return err
		}
	}
	if s.arena == nil {
		s.arena = make([]byte, 0, s.budget)
		s.recs = make([]sortRec, 0, s.budget/64)
	}
	if len(s.recs)+len(e.keys) >= 1<<sortIdxBits || len(s.arena)+len(e.b) > maxBudget {
		if err := s.flush(); err != nil {
			return err
		}
	}
	at, start := len(s.arena), 0
	s.arena = append(s.arena, e.b...)
	for _, k := range e.keys {
		dt := k.t - s.base
		if dt < 0 || dt > sortMaxSpan {
			return fmt.Errorf("update stream: time %d out of the sorter's range", k.t)
		}
		s.recs = append(s.recs, sortRec{key: uint64(dt)<<sortIdxBits | uint64(len(s.recs)), off: uint32(at + start), end: uint32(at + k.end)})
		start = k.end
	}
	return nil
}

// time and seq unpack a record's key.
func (s *sorter) time(r sortRec) int64   { return s.base + int64(r.key>>sortIdxBits) }
func (s *sorter) seqOf(r sortRec) uint64 { return s.seq + r.key&(1<<sortIdxBits-1) }

func (s *sorter) sortRecs() {
	slices.SortFunc(s.recs, func(a, b sortRec) int { return cmp.Compare(a.key, b.key) })
}

// flush writes the arena as one sorted run: per line, t and seq (8 bytes
// each), the length (4 bytes) and the bytes.
func (s *sorter) flush() error {
	if len(s.recs) == 0 {
		return nil
	}
	if s.dir == "" {
		d, err := os.MkdirTemp(s.tmpRoot, ".stampede-sort-")
		if err != nil {
			return err
		}
		s.dir = d
	}
	if len(s.runs) >= maxRuns {
		if err := s.compact(context.Background()); err != nil {
			return err
		}
	}
	s.sortRecs()
	name := s.newRunName()
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	var size int64
	w := bufio.NewWriterSize(f, 1<<20)
	var hdr [20]byte
	for _, r := range s.recs {
		binary.LittleEndian.PutUint64(hdr[0:], uint64(s.time(r)))
		binary.LittleEndian.PutUint64(hdr[8:], s.seqOf(r))
		binary.LittleEndian.PutUint32(hdr[16:], uint32(r.end-r.off))
		w.Write(hdr[:])
		w.Write(s.arena[r.off:r.end])
		size += int64(len(hdr) + int(r.end-r.off))
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	s.runs = append(s.runs, runFile{name, size})
	s.seq += uint64(len(s.recs))
	s.arena = s.arena[:0]
	s.recs = s.recs[:0]
	return err
}

// maxRuns is the most run files kept: when a flush would make more, the
// smaller half of the runs is first merged into one, so the files open at
// a time stay far below the usual limit of 1,024 (even at SF100) and each
// line is merged only a few times.
const maxRuns = 64

// newRunName names the next run file.
func (s *sorter) newRunName() string {
	s.made++
	return filepath.Join(s.dir, fmt.Sprintf("run-%d", s.made))
}

// drain calls emit with every line (and its time) in order, then frees
// what it held.
func (s *sorter) drain(ctx context.Context, emit func(t int64, line []byte) error) error {
	defer s.close()
	if len(s.runs) == 0 {
		s.sortRecs()
		for i, r := range s.recs {
			if i%4096 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if err := emit(s.time(r), s.arena[r.off:r.end]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := s.flush(); err != nil {
		return err
	}
	s.arena, s.recs = nil, nil
	return mergeRuns(ctx, s.runs, func(rr *runReader) error { return emit(rr.t, rr.line) })
}

// compact merges the smaller half of the runs into one new run.
func (s *sorter) compact(ctx context.Context) error {
	slices.SortStableFunc(s.runs, func(a, b runFile) int { return cmp.Compare(a.size, b.size) })
	merge := s.runs[:len(s.runs)/2]
	name := s.newRunName()
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var hdr [20]byte
	var size int64
	err = mergeRuns(ctx, merge, func(rr *runReader) error {
		binary.LittleEndian.PutUint64(hdr[0:], uint64(rr.t))
		binary.LittleEndian.PutUint64(hdr[8:], rr.seq)
		binary.LittleEndian.PutUint32(hdr[16:], uint32(len(rr.line)))
		w.Write(hdr[:])
		_, err := w.Write(rr.line)
		size += int64(len(hdr) + len(rr.line))
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	for _, r := range merge {
		os.Remove(r.name)
	}
	s.runs = append(slices.Clone(s.runs[len(merge):]), runFile{name, size})
	return err
}

// mergeRuns calls emit with the lines of the run files in key order.
func mergeRuns(ctx context.Context, runs []runFile, emit func(rr *runReader) error) error {
	h := make(runHeap, 0, len(runs))
	for _, run := range runs {
		name := run.name
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		rr := &runReader{r: bufio.NewReaderSize(f, max(64<<10, min(1<<20, 64<<20/len(runs))))}
		ok, err := rr.next()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if ok {
			h = append(h, rr)
		}
	}
	heap.Init(&h)
	for n := 0; len(h) > 0; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rr := h[0]
		if err := emit(rr); err != nil {
			return err
		}
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return nil
}

// close removes the run files.
func (s *sorter) close() {
	if s.dir != "" {
		os.RemoveAll(s.dir)
		s.dir = ""
	}
	s.runs = nil
}

// runReader reads one run file.
type runReader struct {
	r    *bufio.Reader
	t    int64
	seq  uint64
	line []byte
}

// next reads the next line; false at the end of the run.
func (rr *runReader) next() (bool, error) {
	var hdr [20]byte
	if _, err := io.ReadFull(rr.r, hdr[:]); err != nil {
		if err == io.EOF {
			return false, nil
		}
		return false, err
	}
	rr.t = int64(binary.LittleEndian.Uint64(hdr[0:]))
	rr.seq = binary.LittleEndian.Uint64(hdr[8:])
	n := int(binary.LittleEndian.Uint32(hdr[16:]))
	if cap(rr.line) < n {
		rr.line = make([]byte, n)
	}
	rr.line = rr.line[:n]
	_, err := io.ReadFull(rr.r, rr.line)
	return true, err
}

// runHeap orders run readers by their current line's key.
type runHeap []*runReader

func (h runHeap) Len() int { return len(h) }
func (h runHeap) Less(i, j int) bool {
	return h[i].t < h[j].t || h[i].t == h[j].t && h[i].seq < h[j].seq
}
func (h runHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)   { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
