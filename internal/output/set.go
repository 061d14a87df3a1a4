package output

import (
	"errors"
	"fmt"
	"io"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// Set runs the outputs of one run through their life: Start in the order
// they were added, Observe as one metrics.Observer each, Stop once in the
// reverse order, then Annotate and WriteDir. It is not safe for concurrent
// use, except that the observers it returns run on the aggregator's
// goroutine.
type Set struct {
	entries []entry
	started int // entries[:started] are running
	stopped bool
	errs    []error // from Stop, in stop order
}

type entry struct {
	label string
	out   Output
}

// Start starts o and adds it to the set. label prefixes the errors of o
// ("series: ..."); empty leaves them as they are. The description of o,
// when it has one, is printed on info (nil: nowhere). When Start fails, o
// is not added and the error is returned as it is: the caller decides
// whether to Stop the outputs already started.
func (s *Set) Start(label string, o Output, info io.Writer) error {
	if s.stopped {
		return errors.New("output set already stopped")
	}
	if err := o.Start(); err != nil {
		return err
	}
	s.entries = append(s.entries, entry{label: label, out: o})
	s.started = len(s.entries)
	if d := o.Description(); d != "" && info != nil {
		fmt.Fprintln(info, d)
	}
	return nil
}

// Outputs returns the started outputs, in start order.
func (s *Set) Outputs() []Output {
	out := make([]Output, len(s.entries))
	for i, e := range s.entries {
		out[i] = e.out
	}
	return out
}

// Observers returns Observe of every started output, in start order, for
// metrics.NewAggregator.
func (s *Set) Observers() []metrics.Observer {
	obs := make([]metrics.Observer, len(s.entries))
	for i, e := range s.entries {
		obs[i] = e.out.Observe
	}
	return obs
}

// RequestLogs returns the started outputs that receive request records
// (RequestLogger), in start order; none when no output asks for them.
func (s *Set) RequestLogs() []reqlog.Log {
	var out []reqlog.Log
	for _, e := range s.entries {
		if l, ok := e.out.(RequestLogger); ok {
			out = append(out, l)
		}
	}
	return out
}

// WatchTarget hands feed to every started output that publishes the
// target monitor's samples (TargetWatcher). A nil feed does nothing.
func (s *Set) WatchTarget(feed TargetFeed) {
	if feed == nil {
		return
	}
	for _, e := range s.entries {
		if w, ok := e.out.(TargetWatcher); ok {
			w.WatchTarget(feed)
		}
	}
}

// Stop stops every started output once, last started first, and returns
// their errors joined (nil when all stopped cleanly). Later calls return
// the same errors without stopping anything again.
func (s *Set) Stop() error {
	if !s.stopped {
		s.stopped = true
		for i := s.started - 1; i >= 0; i-- {
			e := s.entries[i]
			if err := e.out.Stop(); err != nil {
				if e.label != "" {
					err = fmt.Errorf("%s: %w", e.label, err)
				}
				s.errs = append(s.errs, err)
			}
		}
	}
	return errors.Join(s.errs...)
}

// Errors are the errors of Stop, one per output that failed, last started
// first.
func (s *Set) Errors() []error { return s.errs }

// Annotate stops the set (if it is running) and lets every Annotator add
// its notes to snap, in start order.
func (s *Set) Annotate(snap *metrics.Snapshot) {
	s.Stop()
	for _, e := range s.entries {
		if a, ok := e.out.(Annotator); ok {
			a.Annotate(snap)
		}
	}
}

// WriteDir stops the set (if it is running) and lets every DirWriter
// write its files into dir, in start order. It returns the first error.
func (s *Set) WriteDir(dir string) error {
	s.Stop()
	for _, e := range s.entries {
		if w, ok := e.out.(DirWriter); ok {
			if err := w.WriteDir(dir); err != nil {
				if e.label != "" {
					err = fmt.Errorf("%s: %w", e.label, err)
				}
				return err
			}
		}
	}
	return nil
}
