package promrw

import (
	"context"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// Live is an Output as an output.Output (--out prometheus-rw=URL): Start
// starts the pushes, Stop flushes them, and Annotate adds a note to every
// scenario when pushes failed.
type Live struct {
	cfg  Config
	out  *Output
	note string
}

var (
	_ output.Output    = (*Live)(nil)
	_ output.Annotator = (*Live)(nil)
	_ reqlog.Log       = (*Live)(nil)
)

// Factory is the registry entry of --out prometheus-rw=URL (k6's name
// experimental-prometheus-rw is an alias). Warnings go to Params.Info, so
// that --quiet silences them.
func Factory() output.Factory {
	return output.Factory{
		Name:      "prometheus-rw",
		Aliases:   []string{"experimental-prometheus-rw"},
		Usage:     "prometheus-rw=URL",
		Check:     CheckURL,
		Preflight: func(ctx context.Context, p output.Params) error { return Probe(ctx, p.Arg) },
		New: func(p output.Params) (output.Output, error) {
			return NewLive(Config{URL: p.Arg, Tags: p.TagsWithSegment(), Registry: p.Registry, Warn: p.Info})
		},
	}
}

// NewLive checks cfg; nothing is started before Start.
func NewLive(cfg Config) (*Live, error) {
	if err := CheckURL(cfg.URL); err != nil {
		return nil, err
	}
	return &Live{cfg: cfg}, nil
}

// Description names the endpoint without credentials and the testid.
func (l *Live) Description() string {
	if l.out == nil {
		return ""
	}
	return "prometheus remote write: pushing to " + l.out.Display() + " (testid=" + l.cfg.Tags["testid"] + ")"
}

// Start starts the pushes and asks for per-second histograms of k6's
// http_req_duration.
func (l *Live) Start() error {
	out, err := New(l.cfg)
	if err != nil {
		return err
	}
	l.out = out
	output.MarkLiveTrends(l.cfg.Registry)
	if reg := l.cfg.Registry; reg != nil {
		reg.MarkSeries(metrics.IDIterationDuration) // k6_iteration_duration_STAT
	}
	return nil
}

// Writer is one VU's writer of HTTP requests (reqlog.Log): k6's HTTP
// metrics are pushed with k6's tags (see tagged.go).
func (l *Live) Writer(scenario string) reqlog.Writer { return l.out.Writer(scenario) }

// Observe queues one second.
func (l *Live) Observe(p *metrics.Point) { l.out.Observe(p) }

// Stop pushes what is queued and keeps the note on failed pushes for
// Annotate. Failed pushes are counted, not an error.
func (l *Live) Stop() error {
	l.note = l.out.Close().Note(l.out.Display())
	return nil
}

// Annotate adds the note on failed pushes, if any, to every scenario.
func (l *Live) Annotate(snap *metrics.Snapshot) { output.NoteAll(snap, l.note) }
