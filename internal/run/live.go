package run

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/influx"
	"github.com/stampede-bench/stampede/internal/output/prom"
	"github.com/stampede-bench/stampede/internal/output/promrw"
	"github.com/stampede-bench/stampede/internal/output/report"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
	"github.com/stampede-bench/stampede/internal/version"
)

// InfluxTokenEnv names the environment variable holding the InfluxDB 2
// token; the token is never written to any output.
const InfluxTokenEnv = "STAMPEDE_INFLUX_TOKEN"

// liveOutputs are outputs fed while the run goes (Prometheus, InfluxDB,
// the generator self-check) and the report written after it.
type liveOutputs struct {
	inProcess bool // a target shares this process's CPU
	observers []metrics.Observer
	hooks     []engine.Hook
	closers   []func()

	sampler  *selfcheck.Sampler
	self     *selfcheck.Report // set by close
	influxes []*influx.Output
	// remoteWrites are the --out prometheus-rw pushes (runk6out.go).
	remoteWrites []*promrw.Output
	promReg      *prometheus.Registry // --prometheus; the target monitor adds to it
	notes        []string             // run-wide remarks, set by close
	closed       bool
}

// CheckOutputSpec validates a live --out spec (kind=ARG) without starting
// it, so a bad spec fails with one line before anything runs.
func CheckOutputSpec(o OutputSpec) error {
	switch o.Kind {
	case "influxdb":
		if _, err := influx.ParseURL(o.Arg); err != nil {
			return usagef("--out influxdb: %v", err) // the error shows the URL without credentials
		}
		return nil
	case "json", "csv":
		return nil // per-request streams (runk6out.go)
	case "prometheus-rw":
		return checkRemoteWriteSpec(o)
	}
	return usagef("output %s is not available (known: influxdb=URL)", o.Kind)
}

// startLiveOutputs starts the outputs p asks for, and the generator
// self-check, which always runs.
// inProcess tells that a target runs inside this process, which the
// self-check's warning must say.
func startLiveOutputs(_ context.Context, deps Deps, p Plan, reg *metrics.Registry, tags map[string]string, inProcess bool) (*liveOutputs, error) {
	for _, o := range p.Outputs {
		if err := CheckOutputSpec(o); err != nil {
			return nil, err
		}
	}
	promAddr := ""
	if p.Prometheus != "" {
		a, err := prom.ResolveAddr(p.Prometheus)
		if err != nil {
			return nil, usagef("--prometheus: %v", err)
		}
		promAddr = a
	}
	info := orDiscard(deps.Info)

	l := &liveOutputs{inProcess: inProcess}
	l.sampler = selfcheck.Start(selfcheck.ProcessUsage, 0, time.Second)
	if promAddr != "" {
		c := prom.New(reg, prom.Options{Start: time.Now(), Labels: promLabels(tags), Generator: func() (float64, int64, bool) {
			s, ok := l.sampler.Latest()
			return s.CPU, s.RSS, ok
		}})
		c.Declare(p.Names()...)
		l.promReg = prom.NewRegistry(c)
		srv, err := prom.Serve(promAddr, l.promReg)
		if err != nil {
			l.close()
			return nil, fmt.Errorf("--prometheus %s: %w", p.Prometheus, err)
		}
		l.observers = append(l.observers, c.Observe)
		l.closers = append(l.closers, func() { _ = srv.Close() })
		fmt.Fprintf(info, "prometheus: http://%s/metrics\n", srv.Addr())
	}
	for _, o := range p.Outputs {
		if o.Kind == "prometheus-rw" {
			if err := l.startRemoteWrite(o, p, reg, tags, info); err != nil {
				l.close()
				return nil, err
			}
			continue
		}
		if o.Kind != "influxdb" {
			continue
		}
		out, err := influx.New(influx.Config{
			URL: o.Arg, Token: deps.getenv(InfluxTokenEnv), Registry: reg, Tags: outputTags(p, tags), Warn: orDiscard(deps.Warn),
		})
		if err != nil {
			l.close()
			return nil, usagef("--out influxdb: %v", err)
		}
		l.influxes = append(l.influxes, out)
		markLiveSeries(reg)
		l.observers = append(l.observers, out.Observe)
		fmt.Fprintf(info, "influxdb: writing to %s\n", out.Display())
	}
	return l, nil
}

// annotate adds what the live outputs learned to the snapshot before the
// summaries are written: a note on each scenario during which the
// generator was saturated, and on every scenario when InfluxDB lost lines.
func (l *liveOutputs) annotate(snap *metrics.Snapshot) {
	l.close()
	for _, sc := range snap.Scenarios {
		if l.self != nil {
			if w := l.self.Warning(sc.Start, sc.End); w != "" {
				if l.inProcess {
					w += " (here the target is embedded in stampede's process and shares its CPU: give it its own machine with --target to tell the two apart)"
				}
				sc.Notes = appendNote(sc.Notes, w)
			}
		}
		for _, n := range l.notes {
			sc.Notes = appendNote(sc.Notes, n)
		}
	}
}

func appendNote(notes []string, n string) []string {
	for _, x := range notes {
		if x == n {
			return notes
		}
	}
	return append(notes, n)
}

// afterRun writes post-run artefacts into dir: the self-check samples and
// the HTML report (unless --no-report).
func (l *liveOutputs) afterRun(p Plan, dir string, snap *metrics.Snapshot) error {
	l.close()
	if l.self != nil && len(l.self.Samples) > 0 {
		if err := resultdir.WriteJSON(dir, selfcheck.File, l.self); err != nil {
			return err
		}
	}
	if p.NoReport {
		return nil
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		res = &resultdir.Result{Dir: dir}
	}
	res.Snapshot = snap
	path := filepath.Join(dir, resultdir.ReportFile)
	if err := report.WriteFile(path, []*resultdir.Result{res}, report.Options{Generator: "stampede " + version.String()}); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// close stops every live output; later calls do nothing.
func (l *liveOutputs) close() {
	if l.closed {
		return
	}
	l.closed = true
	for _, c := range l.closers {
		c()
	}
	for _, o := range l.influxes {
		if n := o.Close().Note(o.Display()); n != "" {
			l.notes = append(l.notes, n)
		}
	}
	l.notes = append(l.notes, l.closeRemoteWrites()...)
	if l.sampler != nil {
		l.self = l.sampler.Stop()
	}
}

// outputTags are the tags of the live outputs: the run's tags and the
// segment of a distributed run.
func outputTags(p Plan, tags map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range tags {
		out[k] = v
	}
	if seg := p.segmentName(); seg != "" {
		out["segment"] = seg
	}
	return out
}
