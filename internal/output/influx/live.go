package influx

import (
	"context"
	"errors"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// TokenEnv names the environment variable holding the InfluxDB 2 token;
// the token is never written to any output.
const TokenEnv = "STAMPEDE_INFLUX_TOKEN"

// Live is an Output as an output.Output (--out influxdb=URL): Start
// starts the writer, Stop flushes it, and Annotate adds a note to every
// scenario when lines were lost. It also writes the target monitor's
// samples (output.TargetWatcher).
type Live struct {
	cfg  Config
	out  *Output
	note string
}

var (
	_ output.Output        = (*Live)(nil)
	_ output.Annotator     = (*Live)(nil)
	_ output.TargetWatcher = (*Live)(nil)
	_ reqlog.Log           = (*Live)(nil)
)

// Factory is the registry entry of --out influxdb=URL. The token comes
// from the environment (TokenEnv); warnings go to Params.Warn.
func Factory() output.Factory {
	return output.Factory{
		Name:  "influxdb",
		Usage: "influxdb=URL",
		Check: func(arg string) error {
			if arg == "" {
				return errors.New("needs a URL, e.g. influxdb=http://127.0.0.1:8086/k6")
			}
			_, err := ParseURL(arg) // the error shows the URL without credentials
			return err
		},
		Preflight: func(ctx context.Context, p output.Params) error { return Probe(ctx, p.Arg) },
		New: func(p output.Params) (output.Output, error) {
			return NewLive(Config{
				URL: p.Arg, Token: p.Env(TokenEnv), Registry: p.Registry,
				Tags: p.TagsWithSegment(), Warn: p.Warn,
			})
		},
	}
}

// NewLive checks cfg; nothing is started before Start.
func NewLive(cfg Config) (*Live, error) {
	if _, err := ParseURL(cfg.URL); err != nil {
		return nil, err
	}
	return &Live{cfg: cfg}, nil
}

// Description names the write URL without credentials.
func (l *Live) Description() string {
	if l.out == nil {
		return ""
	}
	return "influxdb: writing to " + l.out.Display()
}

// Start starts the writer and asks for per-second histograms of k6's
// http_req_duration.
func (l *Live) Start() error {
	out, err := New(l.cfg)
	if err != nil {
		return err
	}
	l.out = out
	output.MarkLiveTrends(l.cfg.Registry)
	return nil
}

// Observe queues one second.
func (l *Live) Observe(p *metrics.Point) { l.out.Observe(p) }

// Writer is the per-sample writer of one VU (reqlog.Log): k6's
// measurements are written per request, iteration and check, as k6
// writes them (see sample.go).
func (l *Live) Writer(scenario string) reqlog.Writer { return l.out.Writer(scenario) }

// WatchTarget writes the monitor's samples too.
func (l *Live) WatchTarget(feed output.TargetFeed) { feed.Subscribe(l.out.ObserveTarget) }

// Stop flushes what is queued (bounded by Config.CloseTimeout) and keeps
// the note on lost lines for Annotate. It never fails: lost lines are
// counted, not an error.
func (l *Live) Stop() error {
	l.note = l.out.Close().Note(l.out.Display())
	return nil
}

// Annotate adds the note on lost lines, if any, to every scenario.
func (l *Live) Annotate(snap *metrics.Snapshot) { output.NoteAll(snap, l.note) }
