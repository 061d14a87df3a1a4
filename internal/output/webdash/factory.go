package webdash

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/result/report"
)

// Name is the dashboard's registry name, k6's --out web-dashboard.
const Name = "web-dashboard"

// The Spec.Options of the dashboard (see Settings).
const (
	optServe  = "serve"
	optHost   = "host"
	optPort   = "port"
	optPeriod = "period"
	optExport = "export"
)

// Settings are what --web-dashboard* (and k6's --out
// web-dashboard=PARAMS, K6_WEB_DASHBOARD*) ask for.
type Settings struct {
	// Serve runs the page's server on Host:Port, updated every Period.
	Serve  bool
	Host   string
	Port   int
	Period time.Duration
	// Export, when set, receives the finished run's report.html (also
	// without Serve); with --repeat, one FILE-run-NN.EXT per run.
	Export string
}

// Enabled reports whether s needs the output at all.
func (s Settings) Enabled() bool { return s.Serve || s.Export != "" }

// WithParams applies k6's --out web-dashboard=PARAMS (a query string:
// host, port, period, export; open is accepted and ignored) to s, which
// it enables, except the settings whose flag (web-dashboard-KEY) was
// given: the flag wins.
func (s Settings) WithParams(arg string, flagGiven func(string) bool) (Settings, error) {
	q, err := url.ParseQuery(arg)
	if err != nil {
		return s, fmt.Errorf("--out web-dashboard=%s: %v", arg, err)
	}
	s.Serve = true
	for key, vals := range q {
		v := vals[len(vals)-1]
		if flagGiven("web-dashboard-" + key) {
			continue
		}
		switch key {
		case optHost:
			s.Host = v
		case optPort:
			if s.Port, err = strconv.Atoi(v); err != nil {
				return s, fmt.Errorf("--out web-dashboard: port=%q is not a number", v)
			}
		case optPeriod:
			if s.Period, err = time.ParseDuration(v); err != nil {
				return s, fmt.Errorf("--out web-dashboard: period=%q: %v", v, err)
			}
		case optExport:
			s.Export = v
		case "open":
		default:
			return s, fmt.Errorf("--out web-dashboard: unknown parameter %q (host, port, period, export)", key)
		}
	}
	return s, nil
}

// Checked validates s before anything runs; port -1 is k6's "no server"
// (CI): the export is still written.
func (s Settings) Checked() (Settings, error) {
	if s.Port == -1 {
		s.Serve, s.Port = false, 0
	}
	switch {
	case s.Port < 0 || s.Port > 65535:
		return s, fmt.Errorf("--web-dashboard-port %d: not a port (0–65535, or -1: no server)", s.Port)
	case s.Period < 100*time.Millisecond:
		return s, fmt.Errorf("--web-dashboard-period %v: at least 100ms", s.Period)
	case s.Host == "":
		return s, fmt.Errorf("--web-dashboard-host: empty")
	}
	return s, nil
}

// Spec is the output spec of s, for the plan's outputs.
func (s Settings) Spec() output.Spec {
	return output.Spec{Kind: Name, Options: map[string]string{
		optServe: strconv.FormatBool(s.Serve), optHost: s.Host, optPort: strconv.Itoa(s.Port),
		optPeriod: s.Period.String(), optExport: s.Export,
	}}
}

// settingsOf reads the Settings back from a spec's options; missing ones
// take the defaults.
func settingsOf(opts map[string]string) (Settings, error) {
	s := Settings{Host: DefaultHost, Port: DefaultPort, Period: DefaultPeriod, Export: opts[optExport]}
	var err error
	if v := opts[optServe]; v != "" {
		if s.Serve, err = strconv.ParseBool(v); err != nil {
			return s, fmt.Errorf("serve=%q: %v", v, err)
		}
	}
	if v := opts[optHost]; v != "" {
		s.Host = v
	}
	if v := opts[optPort]; v != "" {
		if s.Port, err = strconv.Atoi(v); err != nil || s.Port < 0 || s.Port > 65535 {
			return s, fmt.Errorf("--web-dashboard-port %s: not a port (0–65535, or -1: no server)", v)
		}
	}
	if v := opts[optPeriod]; v != "" {
		if s.Period, err = time.ParseDuration(v); err != nil {
			return s, fmt.Errorf("--web-dashboard-period %s: %v", v, err)
		}
	}
	if s.Period < 100*time.Millisecond {
		return s, fmt.Errorf("--web-dashboard-period %v: at least 100ms", s.Period)
	}
	return s, nil
}

// Factory is the registry entry of the web dashboard. The command line
// makes its spec from --web-dashboard* (Settings.Spec); its preflight
// refuses a port in use and an export file that exists, before the run.
// generator names the tool in the page's footer.
func Factory(generator string) output.Factory {
	return output.Factory{
		Name: Name, Usage: Name, Flag: "--web-dashboard",
		Preflight: func(_ context.Context, p output.Params) error {
			s, err := settingsOf(p.Options)
			if err != nil {
				return err
			}
			if s.Serve {
				addr := net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
				ln, err := net.Listen("tcp", addr)
				if err != nil {
					return fmt.Errorf("listening on %s: %v", addr, err)
				}
				ln.Close()
			}
			if s.Export != "" {
				if err := output.CheckNewFile(s.Export, p.Repeat); err != nil {
					return fmt.Errorf("--web-dashboard-export %v", err)
				}
				if err := output.CheckWritableFile(s.Export); err != nil {
					return fmt.Errorf("--web-dashboard-export %s: %v", s.Export, err)
				}
			}
			return nil
		},
		New: func(p output.Params) (output.Output, error) {
			s, err := settingsOf(p.Options)
			if err != nil {
				return nil, err
			}
			o := &Output{generator: generator}
			if s.Serve {
				o.dash = New(Config{Host: s.Host, Port: s.Port, Period: s.Period, Scenarios: p.Scenarios, Generator: generator})
			}
			if s.Export != "" {
				o.export = output.PathOfRun(s.Export, p.Repeat, p.Run)
			}
			return o, nil
		},
	}
}

// Output is the dashboard as a run's output: the page's server (when
// served) and the export of the finished run's report (when asked).
type Output struct {
	dash      *Dashboard // nil: no server
	export    string     // "": none
	generator string
}

var (
	_ output.Output        = (*Output)(nil)
	_ output.TargetWatcher = (*Output)(nil)
	_ output.Finisher      = (*Output)(nil)
)

// Description is the page's address, or the export's file.
func (o *Output) Description() string {
	if o.dash != nil {
		return o.dash.Description()
	}
	return ""
}

// Start starts the server, if any.
func (o *Output) Start() error {
	if o.dash == nil {
		return nil
	}
	return o.dash.Start()
}

// Observe draws one second on the page.
func (o *Output) Observe(p *metrics.Point) {
	if o.dash != nil {
		o.dash.Observe(p)
	}
}

// WatchTarget draws the --monitor samples on the page.
func (o *Output) WatchTarget(feed output.TargetFeed) {
	if o.dash != nil {
		o.dash.WatchTarget(feed)
	}
}

// Stop sends the final data and closes the server.
func (o *Output) Stop() error {
	if o.dash == nil {
		return nil
	}
	return o.dash.Stop()
}

// Finish writes the export: the finished run's report, as report.html.
func (o *Output) Finish(_ context.Context, r output.Finished) error {
	if o.export == "" {
		return nil
	}
	if err := report.WriteRun(o.export, r.Dir, r.Snapshot, report.Options{Generator: o.generator}); err != nil {
		return fmt.Errorf("--web-dashboard-export %s: %w", o.export, err)
	}
	return nil
}
