package report

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/metric"
)

// topMessages is how many error messages get their own series.
const topMessages = 5

// seriesAcc accumulates one scenario's seconds. Counts are kept per second
// (cheap: a few numbers per second); histograms are merged per bucket,
// streaming, as the series file lists each scenario's seconds in order.
type seriesAcc struct {
	sc    *Scenario
	first int64 // run second of the scenario's first second
	step  int64
	req   []int64
	iter  []int64
	errs  []int64
	vus   []int64
	sent  []int64
	recv  []int64
	// phaseSum (µs·requests) and phaseN are the HTTP phases per second,
	// by index in metrics.HTTPPhases.
	phaseSum [][]float64
	phaseN   [][]int64
	msgs     map[string][]int64
	p50, p95 []float64
	p99, mx  []float64
	open     map[int64]*hdr.Histogram // bucket → merged histogram
	done     map[int64]bool
	// from and to bound the scenario in run seconds (from the snapshot;
	// to 0: unknown): the first and last seconds are only partly covered,
	// and their rates divide by the time they cover (see cover).
	from, to float64
}

// minCover is the least part of a second, in seconds, whose rates are
// drawn: a sliver of a second would turn a handful of requests into a
// spike (its counts still add to the totals).
const minCover = 0.1

// cover is the time second i of the scenario covers, in seconds (1 for a
// second fully inside the scenario).
func (a *seriesAcc) cover(i int) float64 {
	if a.to <= a.from {
		return 1
	}
	lo := float64(a.first + int64(i))
	return max(min(lo+1, a.to)-max(lo, a.from), 0)
}

func (a *seriesAcc) grow(n int) {
	for len(a.req) < n {
		a.req = append(a.req, 0)
		a.iter = append(a.iter, 0)
		a.errs = append(a.errs, 0)
		a.vus = append(a.vus, 0)
		a.sent = append(a.sent, 0)
		a.recv = append(a.recv, 0)
		for k := range a.phaseSum {
			a.phaseSum[k] = append(a.phaseSum[k], 0)
			a.phaseN[k] = append(a.phaseN[k], 0)
		}
	}
}

// readSeries fills each scenario's Series from dir/series.jsonl. A missing
// file leaves them empty. Histograms are only decoded when buckets span
// more than one second: a single second's percentiles are in the point.
func readSeries(dir string, scs []*Scenario, snap *metrics.Snapshot, maxPoints int) error {
	accs := map[string]*seriesAcc{}
	var base time.Time // wall time of run second 0
	err := resultdir.ScanSeries(dir, func(p *metrics.Point) error {
		if base.IsZero() {
			base = p.Time.Add(-time.Duration(p.Sec) * time.Second)
		}
		a := accs[p.Scenario]
		if a == nil {
			sc := findScenario(scs, p.Scenario)
			if sc == nil {
				return nil // not in the snapshot (a partial copy): skip
			}
			a = newAcc(sc, snap.Scenario(p.Scenario), base, p.Sec, maxPoints)
			accs[p.Scenario] = a
		}
		if err := a.add(p); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(dir, resultdir.SeriesFile), err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	for _, a := range accs {
		a.finish()
	}
	return nil
}

func findScenario(scs []*Scenario, name string) *Scenario {
	for _, s := range scs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// newAcc sizes the buckets from the scenario's span in the snapshot.
func newAcc(sc *Scenario, ss *metrics.ScenarioSnapshot, base time.Time, firstSeen int64, maxPoints int) *seriesAcc {
	a := &seriesAcc{sc: sc, first: firstSeen, msgs: map[string][]int64{}, open: map[int64]*hdr.Histogram{}, done: map[int64]bool{},
		phaseSum: make([][]float64, len(metrics.HTTPPhases())), phaseN: make([][]int64, len(metrics.HTTPPhases()))}
	n := int64(1)
	if ss != nil && !ss.Start.IsZero() && ss.End.After(ss.Start) {
		a.from, a.to = ss.Start.Sub(base).Seconds(), ss.End.Sub(base).Seconds()
		a.first = int64(math.Floor(ss.Start.Sub(base).Seconds()))
		// The second the scenario ended in, unless it ended exactly on
		// a second's boundary.
		last := int64(math.Ceil(ss.End.Sub(base).Seconds())) - 1
		n = last - a.first + 1
	}
	a.first = min(a.first, firstSeen)
	a.step = max(1, int64(math.Ceil(float64(n)/float64(maxPoints))))
	a.grow(int(n))
	return a
}

func (a *seriesAcc) add(p *metrics.Point) error {
	i := p.Sec - a.first
	if i < 0 {
		return nil // before the scenario started: not its second
	}
	a.grow(int(i) + 1)
	a.req[i] += p.Counts[metrics.Requests]
	a.iter[i] += p.Counts[metrics.Iterations]
	a.errs[i] += p.Counts[metrics.Errors]
	a.vus[i] = max(a.vus[i], p.VUs)
	a.sent[i] += p.Counts[metrics.DataSent]
	a.recv[i] += p.Counts[metrics.DataReceived]
	for k, name := range metrics.HTTPPhases() {
		if st, ok := p.TrendStats[name]; ok && st.N > 0 {
			a.phaseSum[k][i] += st.Mean * float64(st.N)
			a.phaseN[k][i] += st.N
		}
	}
	for msg, n := range p.Errors {
		s := a.msgs[msg]
		for len(s) <= int(i) {
			s = append(s, 0)
		}
		s[i] += n
		a.msgs[msg] = s
	}
	b := i / a.step
	a.growBuckets(int(b) + 1)
	a.mx[b] = maxNaN(a.mx[b], float64(p.RT.Max))
	if p.RT.N == 0 {
		return nil
	}
	if a.step == 1 {
		a.p50[b], a.p95[b], a.p99[b] = float64(p.RT.P50), float64(p.RT.P95), float64(p.RT.P99)
		return nil
	}
	if a.done[b] || p.HistEnc == "" {
		// A late second for a finished bucket (or no histogram): counts
		// are exact, percentiles keep what the bucket had.
		return nil
	}
	h, err := metric.DecodeHistogram(p.HistEnc)
	if err != nil {
		return err
	}
	if acc := a.open[b]; acc != nil {
		acc.Merge(h)
	} else {
		a.open[b] = h
	}
	// Seconds come in order: buckets before b are complete.
	for k, acc := range a.open {
		if k < b {
			a.close(k, acc)
		}
	}
	return nil
}

func (a *seriesAcc) growBuckets(n int) {
	for len(a.p50) < n {
		nan := math.NaN()
		a.p50, a.p95, a.p99, a.mx = append(a.p50, nan), append(a.p95, nan), append(a.p99, nan), append(a.mx, nan)
	}
}

func (a *seriesAcc) close(b int64, h *hdr.Histogram) {
	q := h.ValueAtPercentilesSlice([]float64{50, 95, 99})
	a.p50[b], a.p95[b], a.p99[b] = float64(q[0]), float64(q[1]), float64(q[2])
	delete(a.open, b)
	a.done[b] = true
}

func minNaN(a, b float64) float64 {
	if math.IsNaN(a) {
		return b
	}
	return min(a, b)
}

func maxNaN(a, b float64) float64 {
	if math.IsNaN(a) {
		return b
	}
	return max(a, b)
}

// finish reduces the seconds to buckets and stores them in the scenario.
func (a *seriesAcc) finish() {
	for k, h := range a.open {
		a.close(k, h)
	}
	n := len(a.req)
	step := int(a.step)
	nb := (n + step - 1) / step
	a.growBuckets(nb)
	s := &Series{Step: step}
	for b := 0; b < nb; b++ {
		lo, hi := b*step, min((b+1)*step, n)
		w := 0.0 // seconds the bucket covers
		var req, it, er, vus int64
		reqMax, reqMin := math.NaN(), math.NaN()
		for i := lo; i < hi; i++ {
			req += a.req[i]
			it += a.iter[i]
			er += a.errs[i]
			vus = max(vus, a.vus[i])
			c := a.cover(i)
			w += c
			if c >= minCover {
				r := float64(a.req[i]) / c
				reqMax, reqMin = maxNaN(reqMax, r), minNaN(reqMin, r)
			}
		}
		if w < minCover {
			w = math.NaN() // too short a sliver to draw a rate
		}
		s.Req = append(s.Req, round(float64(req)/w, 2))
		s.ReqH = append(s.ReqH, round(reqMax, 2))
		s.ReqL = append(s.ReqL, round(reqMin, 2))
		s.Iter = append(s.Iter, round(float64(it)/w, 2))
		s.Err = append(s.Err, round(float64(er)/w, 3))
		s.VUs = append(s.VUs, float64(vus))
		s.P50 = append(s.P50, usToMs(a.p50[b]))
		s.P95 = append(s.P95, usToMs(a.p95[b]))
		s.P99 = append(s.P99, usToMs(a.p99[b]))
		s.Max = append(s.Max, usToMs(a.mx[b]))
	}
	s.ErrMsgs = a.topMessages(nb, step, n)
	a.transfer(s, nb, step, n)
	a.sc.Series = s
}

// transfer adds the bytes/s and the HTTP phase means to s, when the
// scenario has any.
func (a *seriesAcc) transfer(s *Series, nb, step, n int) {
	var bytes int64
	for i := 0; i < n; i++ {
		bytes += a.sent[i] + a.recv[i]
	}
	for b := 0; bytes > 0 && b < nb; b++ {
		lo, hi := b*step, min((b+1)*step, n)
		w := 0.0
		var sent, recv int64
		for i := lo; i < hi; i++ {
			sent, recv, w = sent+a.sent[i], recv+a.recv[i], w+a.cover(i)
		}
		if w < minCover {
			w = math.NaN()
		}
		s.Sent = append(s.Sent, math.Round(float64(sent)/w))
		s.Recv = append(s.Recv, math.Round(float64(recv)/w))
	}
	for k, name := range metrics.HTTPPhases() {
		var total int64
		for _, c := range a.phaseN[k][:n] {
			total += c
		}
		if total == 0 {
			continue
		}
		ps := PhaseSeries{Name: name}
		for b := 0; b < nb; b++ {
			lo, hi := b*step, min((b+1)*step, n)
			var sum float64
			var c int64
			for i := lo; i < hi; i++ {
				sum, c = sum+a.phaseSum[k][i], c+a.phaseN[k][i]
			}
			ps.Mean = append(ps.Mean, usToMs(sum/float64(c))) // NaN (null) without requests
		}
		s.Phases = append(s.Phases, ps)
	}
}

// topMessages returns the error rate series of the most frequent messages.
func (a *seriesAcc) topMessages(nb, step, n int) []MsgSeries {
	type tot struct {
		msg string
		n   int64
	}
	var all []tot
	for msg, s := range a.msgs {
		var t int64
		for _, v := range s {
			t += v
		}
		all = append(all, tot{msg, t})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].msg < all[j].msg
	})
	var out []MsgSeries
	for _, t := range all[:min(len(all), topMessages)] {
		secs := a.msgs[t.msg]
		ms := MsgSeries{Msg: t.msg}
		for b := 0; b < nb; b++ {
			lo, hi := b*step, min((b+1)*step, n)
			var sum int64
			w := 0.0
			for i := lo; i < hi; i++ {
				w += a.cover(i)
				if i < len(secs) {
					sum += secs[i]
				}
			}
			if w < minCover {
				w = math.NaN()
			}
			ms.N = append(ms.N, round(float64(sum)/w, 3))
		}
		out = append(out, ms)
	}
	return out
}

// trim keeps the latest keep seconds of an accumulator of step 1 (the
// live view's window); earlier seconds are forgotten.
func (a *seriesAcc) trim(keep int) {
	k := len(a.req) - keep
	if k <= 0 || a.step != 1 {
		return
	}
	a.first += int64(k)
	a.req, a.iter, a.errs, a.vus = a.req[k:], a.iter[k:], a.errs[k:], a.vus[k:]
	a.sent, a.recv = a.sent[k:], a.recv[k:]
	for i := range a.phaseSum {
		a.phaseSum[i], a.phaseN[i] = a.phaseSum[i][k:], a.phaseN[i][k:]
	}
	if len(a.p50) > k {
		a.p50, a.p95, a.p99, a.mx = a.p50[k:], a.p95[k:], a.p99[k:], a.mx[k:]
	}
	for msg, s := range a.msgs {
		if len(s) <= k {
			delete(a.msgs, msg)
			continue
		}
		a.msgs[msg] = s[k:]
	}
}
