package output

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Manager runs every output of one run through its life, as k6's output
// manager does: Start in the order they were added, Observe as one
// metrics.Observer each, Stop once in the reverse order with every error
// reported (errors.Join), then Annotate, WriteDir and Finish. It is the
// only place a run starts or stops an output. It is not safe for
// concurrent use, except that the observers it returns run on the
// aggregator's goroutine.
type Manager struct {
	entries []entry
	started int // entries[:started] are running
	stopped bool
	errs    []error // from Stop, in stop order
}

type entry struct {
	label string
	out   Output
}

// StartSpecs makes each output of specs from reg with p (p.Arg set to the
// spec's ARG, p.Options to its options) and starts it, in order (see
// Start). An output that cannot be made or started is a usage error
// labelled with its flag (Factory.Label): the outputs started before it
// stay running, for the caller to Stop.
func (m *Manager) StartSpecs(reg *Registry, specs []Spec, p Params, info io.Writer) error {
	for _, s := range specs {
		f, ok := reg.Lookup(s.Kind)
		if !ok {
			return usage.Wrap(reg.Check(s.Kind, s.Arg)) // unknown: ErrUnknown
		}
		label := f.Label(s.Arg)
		pp := p
		pp.Arg, pp.Options = s.Arg, s.Options
		o, err := reg.New(s.Kind, pp)
		if err == nil {
			err = m.Start(label, o, info)
		}
		if err != nil {
			return usage.Errorf("%s: %v", label, err)
		}
	}
	return nil
}

// Start starts o and adds it to the manager. label prefixes the errors of
// o ("series: ..."); empty leaves them as they are. The description of o,
// when it has one, is printed on info (nil: nowhere). When Start fails, o
// is not added and the error is returned as it is: the caller decides
// whether to Stop the outputs already started.
func (m *Manager) Start(label string, o Output, info io.Writer) error {
	if m.stopped {
		return errors.New("outputs already stopped")
	}
	if err := o.Start(); err != nil {
		return err
	}
	m.entries = append(m.entries, entry{label: label, out: o})
	m.started = len(m.entries)
	if d := o.Description(); d != "" && info != nil {
		fmt.Fprintln(info, d)
	}
	return nil
}

// Outputs returns the started outputs, in start order.
func (m *Manager) Outputs() []Output {
	out := make([]Output, len(m.entries))
	for i, e := range m.entries {
		out[i] = e.out
	}
	return out
}

// Created lists what the started outputs created (Creator), in start
// order, for a run that fails before it starts to remove again.
func (m *Manager) Created() []string {
	var out []string
	for _, e := range m.entries {
		if c, ok := e.out.(Creator); ok {
			out = append(out, c.Created()...)
		}
	}
	return out
}

// Observers returns Observe of every started output, in start order, for
// metrics.NewAggregator.
func (m *Manager) Observers() []metrics.Observer {
	obs := make([]metrics.Observer, len(m.entries))
	for i, e := range m.entries {
		obs[i] = e.out.Observe
	}
	return obs
}

// RequestLogs returns the started outputs that receive request records
// (RequestLogger), in start order; none when no output asks for them.
func (m *Manager) RequestLogs() []reqlog.Log {
	var out []reqlog.Log
	for _, e := range m.entries {
		if l, ok := e.out.(RequestLogger); ok {
			out = append(out, l)
		}
	}
	return out
}

// WatchTarget hands feed to every started output that publishes the
// target monitor's samples (TargetWatcher). A nil feed does nothing.
func (m *Manager) WatchTarget(feed TargetFeed) {
	if feed == nil {
		return
	}
	for _, e := range m.entries {
		if w, ok := e.out.(TargetWatcher); ok {
			w.WatchTarget(feed)
		}
	}
}

// Stop stops every started output once, last started first, and returns
// all their errors joined (nil when all stopped cleanly). Later calls
// return the same errors without stopping anything again.
func (m *Manager) Stop() error {
	if !m.stopped {
		m.stopped = true
		for i := m.started - 1; i >= 0; i-- {
			e := m.entries[i]
			if err := e.out.Stop(); err != nil {
				m.errs = append(m.errs, labelled(e.label, err))
			}
		}
	}
	return errors.Join(m.errs...)
}

// Annotate stops the outputs (if they are running) and lets every
// Annotator add its notes to snap, in start order.
func (m *Manager) Annotate(snap *metrics.Snapshot) {
	m.Stop()
	for _, e := range m.entries {
		if a, ok := e.out.(Annotator); ok {
			a.Annotate(snap)
		}
	}
}

// WriteDir stops the outputs (if they are running) and lets every
// DirWriter write its files into dir, in start order. Every writer is
// asked even when one fails; the errors are joined.
func (m *Manager) WriteDir(dir string) error {
	m.Stop()
	var errs []error
	for _, e := range m.entries {
		if w, ok := e.out.(DirWriter); ok {
			if err := w.WriteDir(dir); err != nil {
				errs = append(errs, labelled(e.label, err))
			}
		}
	}
	return errors.Join(errs...)
}

// Finish stops the outputs (if they are running) and hands the finished
// run to every Finisher, in start order. Every finisher is asked even
// when one fails; the errors are joined.
func (m *Manager) Finish(ctx context.Context, r Finished) error {
	m.Stop()
	var errs []error
	for _, e := range m.entries {
		if f, ok := e.out.(Finisher); ok {
			if err := f.Finish(ctx, r); err != nil {
				errs = append(errs, labelled(e.label, err))
			}
		}
	}
	return errors.Join(errs...)
}

func labelled(label string, err error) error {
	if label == "" {
		return err
	}
	return fmt.Errorf("%s: %w", label, err)
}
