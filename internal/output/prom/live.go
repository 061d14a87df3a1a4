package prom

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
)

// LiveConfig configures a Live endpoint.
type LiveConfig struct {
	// Addr is the --prometheus value (see ResolveAddr).
	Addr string
	// Registry holds the run's metrics.
	Registry *metrics.Registry
	// Scenarios are declared at once, so that every scenario has series
	// from the first scrape.
	Scenarios []string
	// Options configure the collector (Labels: see Labels).
	Options Options
	// Linger is how long Stop keeps the endpoint up: 0 waits until
	// Prometheus scrapes once after the run ended (the final totals), at
	// most two of the scrape intervals seen (60 s at most), and not at all
	// when nothing scraped during the run; a positive value waits that
	// long; a negative one closes at once.
	Linger time.Duration
}

// Live is the /metrics endpoint of a run as an output.Output (--prometheus
// ADDR): Start listens, Observe feeds the collector, Stop closes the
// server. It also exposes the target monitor's latest samples
// (output.TargetWatcher).
type Live struct {
	cfg  LiveConfig
	addr string
	reg  *prometheus.Registry
	c    *Collector
	srv  *Server
}

var (
	_ output.Output        = (*Live)(nil)
	_ output.TargetWatcher = (*Live)(nil)
)

// Factory is the registry entry of the Prometheus endpoint: ARG is the
// listen address (see ResolveAddr), made by --prometheus ADDR (not an --out
// name); the run's tags become constant labels. The spec option
// LingerOptionName is LiveConfig.Linger.
func Factory() output.Factory {
	return output.Factory{
		Name:  "prometheus",
		Usage: "prometheus=ADDR",
		Flag:  "--prometheus",
		Check: func(arg string) error { _, err := ResolveAddr(arg); return err },
		Preflight: func(_ context.Context, p output.Params) error {
			addr, err := ResolveAddr(p.Arg)
			if err != nil {
				return err
			}
			l, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			return l.Close()
		},
		New: func(p output.Params) (output.Output, error) {
			if p.Start.IsZero() {
				p.Start = time.Now()
			}
			linger, err := LingerOption(p.Options)
			if err != nil {
				return nil, err
			}
			return NewLive(LiveConfig{Addr: p.Arg, Registry: p.Registry, Scenarios: p.Scenarios, Linger: linger,
				Options: Options{Start: p.Start, Labels: Labels(p.Tags), Generator: p.Generator}})
		},
	}
}

// LingerOptionName is the spec option (output.Spec.Options) of how long
// the endpoint stays up after the run, a Go duration (LiveConfig.Linger;
// absent: 0).
const LingerOptionName = "linger"

// LingerOption reads the linger of a spec's options.
func LingerOption(opts map[string]string) (time.Duration, error) {
	v, ok := opts[LingerOptionName]
	if !ok || v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("linger %q: %v", v, err)
	}
	return d, nil
}

// NewLive checks cfg.Addr; nothing listens before Start.
func NewLive(cfg LiveConfig) (*Live, error) {
	a, err := ResolveAddr(cfg.Addr)
	if err != nil {
		return nil, err
	}
	return &Live{cfg: cfg, addr: a}, nil
}

// Description is the URL to scrape.
func (l *Live) Description() string {
	if l.srv == nil {
		return ""
	}
	return fmt.Sprintf("prometheus: http://%s/metrics", l.srv.Addr())
}

// Start makes the collector and listens at once, so a busy port fails
// before the run starts.
func (l *Live) Start() error {
	l.c = New(l.cfg.Registry, l.cfg.Options)
	l.c.Declare(l.cfg.Scenarios...)
	l.reg = NewRegistry(l.c)
	srv, err := Serve(l.addr, l.reg)
	if err != nil {
		return err
	}
	l.srv = srv
	return nil
}

// Observe feeds one second to the collector.
func (l *Live) Observe(p *metrics.Point) { l.c.Observe(p) }

// WatchTarget exposes the monitor's latest samples on /metrics.
func (l *Live) WatchTarget(feed output.TargetFeed) {
	l.reg.MustRegister(NewTargetCollector(feed.Latest))
}

// Stop keeps the endpoint up as Linger says, then closes the server
// (scrapes in flight get up to 2s).
func (l *Live) Stop() error {
	l.srv.linger(l.cfg.Linger)
	return l.srv.Close()
}

// Labels are tags as Prometheus constant labels: names made valid,
// "scenario" (the collector's own label) and empty values left out.
func Labels(tags map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range tags {
		if k == "scenario" || v == "" {
			continue
		}
		b := []byte(k)
		for i, c := range b {
			if !(c == '_' || '0' <= c && c <= '9' && i > 0 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				b[i] = '_'
			}
		}
		out[string(b)] = v
	}
	return out
}
