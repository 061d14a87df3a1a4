package k6js

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/threshold"
	"github.com/stampede-bench/stampede/vu"
)

// errAborted unwinds an iteration that called test.abort().
var errAborted = errors.New("test aborted by the script")

// Config is how a script runs: its command-line overrides and process.
type Config struct {
	// Overrides are the k6 options given on the command line.
	Overrides Overrides
	// Env are the -e values of __ENV; Getenv reads the rest of it from the
	// process environment (nil: none).
	Env    map[string]string
	Getenv func(string) string
	// Stderr receives console output and iteration errors (nil: discard).
	Stderr io.Writer
	// ConsoleRate bounds console lines per second (default 100).
	ConsoleRate int
	// Abort, when set, ends the run (test.abort() and abortOnFail).
	Abort func(reason string)
	// Thresholds are thresholds from outside the script (--threshold,
	// --config) whose tagged submetrics the script must record too.
	Thresholds []threshold.Threshold
	// UserAgent, InsecureSkipTLSVerify, Timeout are the command line's
	// (they override the script's options when set).
	UserAgent             string
	InsecureSkipTLSVerify bool
	Timeout               time.Duration
}

// Family is one script as a workload family: its scenarios are the
// script's (options.scenarios, or "default").
type Family struct {
	script    *Script
	cfg       Config
	opts      *Options
	scenarios []Scenario
	ts        []threshold.Threshold

	mu sync.Mutex
	sh *shared // set by Open
}

var _ workload.Family = (*Family)(nil)

// Prepare loads the script, runs its init context once to read its
// options and returns the family. Everything the script asks for that
// stampede does not implement is a usage error here, before any run.
func Prepare(path string, cfg Config) (*Family, error) {
	s, err := Load(path)
	if err != nil {
		return nil, err
	}
	if err := checkImports(s); err != nil {
		return nil, err
	}
	f := &Family{script: s, cfg: cfg}
	sh := f.newShared(metrics.NewRegistry())
	sh.probeOnly = true
	probe, err := newVM(sh, 0, nil)
	if err != nil {
		return nil, err
	}
	defer probe.close()
	raw := "null"
	if o := probe.exports.Get("options"); o != nil && !goja.IsUndefined(o) {
		b, err := json.Marshal(o.Export())
		if err != nil {
			return nil, usage.Errorf("%s: options: %v", path, err)
		}
		raw = string(b)
	}
	if f.opts, err = parseOptions(path, []byte(raw)); err != nil {
		return nil, err
	}
	if f.scenarios, err = f.opts.scenarios(cfg.Overrides); err != nil {
		return nil, err
	}
	for _, sc := range f.scenarios {
		if fn := probe.exports.Get(sc.Exec); fn == nil || goja.IsUndefined(fn) {
			if sc.Exec == "default" {
				return nil, usage.Errorf("%s: the script exports no default function (export default function () {...})", path)
			}
			return nil, usage.Errorf("%s: scenario %s: exec function %q is not exported by the script", path, sc.Name, sc.Exec)
		} else if _, ok := goja.AssertFunction(fn); !ok {
			return nil, usage.Errorf("%s: scenario %s: export %q is not a function", path, sc.Name, sc.Exec)
		}
	}
	if f.ts, err = ThresholdsOf(f.opts.Thresholds); err != nil {
		return nil, usage.Errorf("%s: options.thresholds: %v", path, err)
	}
	return f, nil
}

// Scenarios returns the script's scenarios with their executors.
func (f *Family) ScenarioList() []Scenario { return f.scenarios }

// Options returns the script's options.
func (f *Family) Options() *Options { return f.opts }

// Thresholds returns the script's thresholds (options.thresholds).
func (f *Family) Thresholds() []threshold.Threshold { return f.ts }

// Name implements workload.Family.
func (f *Family) Name() string { return "k6" }

// Scenarios implements workload.Family.
func (f *Family) Scenarios() []workload.Info {
	out := make([]workload.Info, len(f.scenarios))
	for i, s := range f.scenarios {
		out[i] = workload.Info{Name: s.Name, Description: "k6 script " + f.script.Path}
	}
	return out
}

// Aborted returns the reason of test.abort() ("" when not aborted).
func (f *Family) Aborted() string {
	f.mu.Lock()
	sh := f.sh
	f.mu.Unlock()
	if sh == nil {
		return ""
	}
	if r := sh.aborted.Load(); r != nil {
		return *r
	}
	return ""
}

func (f *Family) newShared(reg *metrics.Registry) *shared {
	sh := &shared{script: f.script, opts: f.opts, env: f.cfg.Env, getenv: f.cfg.Getenv, seed: 1, reg: reg,
		custom: map[string]*customMetric{}, subs: map[string][]submetric{}, checks: map[string]metrics.ID{},
		sharedArrays: map[string][]string{}, started: time.Now(), maxRedir: 10, timeout: 60 * time.Second,
		batch: 20, batchPerHost: 6, clock: metrics.NewClock(),
		nebula: &nebulaShared{}}
	if sh.opts == nil {
		sh.opts = &Options{}
	}
	rate := f.cfg.ConsoleRate
	if rate <= 0 {
		rate = 100
	}
	w := f.cfg.Stderr
	if w == nil {
		w = io.Discard
	}
	sh.log = newLogger(w, rate)
	return sh
}

// Open implements workload.Family: it registers the script's metrics in
// env.Metrics (running the init context once more) and returns one
// engine scenario per script scenario.
func (f *Family) Open(ctx context.Context, env *workload.Env, names []string) (*workload.Opened, error) {
	sh := f.newShared(env.Metrics)
	o := f.opts
	sh.insecure = o.InsecureSkipTLSVerify || f.cfg.InsecureSkipTLSVerify
	if o.UserAgent != nil {
		sh.userAgent = *o.UserAgent
	} else {
		sh.userAgent = "stampede (k6 script; https://k6.io/ compatible)"
	}
	if f.cfg.UserAgent != "" {
		sh.userAgent = f.cfg.UserAgent
	}
	if f.cfg.Timeout > 0 {
		sh.timeout = f.cfg.Timeout
	}
	sh.noReuse, sh.discard = o.NoConnectionReuse, o.DiscardResponseBodies
	if o.MaxRedirects != nil {
		sh.maxRedir = *o.MaxRedirects
	}
	if o.Batch != nil {
		sh.batch = *o.Batch
	}
	if o.BatchPerHost != nil {
		sh.batchPerHost = *o.BatchPerHost
	}
	sh.seed = env.Seed
	sh.abort = func(reason string) {
		sh.aborted.CompareAndSwap(nil, &reason)
		if f.cfg.Abort != nil {
			f.cfg.Abort(reason)
		}
	}
	var err error
	if sh.httpIDs, err = metrics.RegisterHTTP(env.Metrics); err != nil {
		return nil, err
	}
	if sh.groupID, err = env.Metrics.Add(metrics.Def{Name: "group_duration", Kind: metrics.KindTrend, Unit: metrics.UnitMicros}); err != nil {
		return nil, err
	}
	for _, name := range checkNames(f.script) {
		id, err := env.Metrics.Add(metrics.CheckMetric(name))
		if err != nil {
			return nil, err
		}
		sh.checks[name] = id
	}
	probe, err := newVM(sh, 0, nil)
	if err != nil {
		sh.nebula.close()
		return nil, err
	}
	probe.close()
	if err := sh.addSubmetrics(append(append([]threshold.Threshold(nil), f.ts...), f.cfg.Thresholds...)); err != nil {
		return nil, err
	}
	for _, sc := range f.scenarios {
		sh.scenarioNames = append(sh.scenarioNames, sc.Name)
	}
	sh.scenariosLeft.Store(int64(len(names)))
	f.mu.Lock()
	f.sh = sh
	f.mu.Unlock()
	out := &workload.Opened{Scenarios: map[string]vu.Scenario{}, Target: "k6 script " + f.script.Path,
		Notes: []string{"k6 script " + f.script.Path + " run by stampede's JavaScript runtime (goja), one runtime per VU"},
		Close: sh.nebula.close}
	for _, n := range names {
		for i := range f.scenarios {
			if f.scenarios[i].Name == n {
				out.Scenarios[n] = &scenario{sh: sh, def: &f.scenarios[i]}
			}
		}
	}
	return out, nil
}

// addSubmetrics registers the tagged submetrics thresholds name (other
// than the ones stampede always records) so that samples are recorded
// into them too.
func (sh *shared) addSubmetrics(ts []threshold.Threshold) error {
	for _, t := range ts {
		base, inner, tagged := strings.Cut(t.Metric, "{")
		if !tagged {
			continue
		}
		if _, ok := sh.reg.Lookup(t.Metric); ok {
			continue // checks{check:...}, http_req_duration{expected_response:true}
		}
		id, ok := sh.reg.Lookup(base)
		if !ok {
			continue // the run's threshold check reports the unknown metric
		}
		d := sh.reg.Def(id)
		nid, err := sh.reg.Add(metrics.Def{Name: t.Metric, Kind: d.Kind, Unit: d.Unit})
		if err != nil {
			return err
		}
		var tags [][2]string
		for part := range strings.SplitSeq(strings.TrimSuffix(inner, "}"), ",") {
			k, v, _ := strings.Cut(part, ":")
			tags = append(tags, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
		}
		sh.subs[base] = append(sh.subs[base], submetric{id: nid, tags: tags})
	}
	return nil
}

// scenario is one script scenario for the engine.
type scenario struct {
	sh  *shared
	def *Scenario
}

var (
	_ vu.MeasuredSetupper   = (*scenario)(nil)
	_ vu.MeasuredTeardowner = (*scenario)(nil)
)

// SetupMeasured runs the script's setup() once for all scenarios, then
// waits for the scenario's startTime. Its requests, checks and groups are
// recorded (in the scenario that ran it) with the group "::setup", as k6
// records them.
func (s *scenario) SetupMeasured(ctx context.Context, it *vu.Iter) error {
	s.sh.setupOnce.Do(func() { s.sh.setupErr = s.sh.runSetup(ctx, it) })
	if s.sh.setupErr != nil {
		return s.sh.setupErr
	}
	if s.def.StartTime > 0 {
		t := time.NewTimer(s.def.StartTime)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return nil
}

// TeardownMeasured runs teardown(data) once, after the last scenario,
// recording its requests with the group "::teardown".
func (s *scenario) TeardownMeasured(ctx context.Context, it *vu.Iter) error {
	if s.sh.scenariosLeft.Add(-1) != 0 {
		return nil
	}
	return s.sh.runTeardown(ctx, it, s.sh.setupData)
}

// runSetup calls setup() and keeps its result as JSON; it records what
// setup() does through it.
func (sh *shared) runSetup(ctx context.Context, it *vu.Iter) error {
	v, err := newVM(sh, 0, nil)
	if err != nil {
		return err
	}
	defer v.close()
	fn, ok := goja.AssertFunction(v.exports.Get("setup"))
	if !ok {
		return nil
	}
	timeout := 60 * time.Second
	if sh.opts.SetupTimeout != nil {
		timeout = time.Duration(*sh.opts.SetupTimeout)
	}
	v.it, v.group = it, "::setup"
	res, err := v.callTimed(ctx, timeout, "setup", fn)
	v.it = nil
	if err != nil {
		return err
	}
	if res != nil && !goja.IsUndefined(res) {
		b, err := json.Marshal(res.Export())
		if err != nil {
			return fmt.Errorf("setup() returned data that is not JSON: %v", err)
		}
		sh.setupData = string(b)
	}
	return nil
}

// runTeardown calls teardown(data), recording what it does through it.
func (sh *shared) runTeardown(ctx context.Context, it *vu.Iter, data string) error {
	v, err := newVM(sh, 0, nil)
	if err != nil {
		return err
	}
	defer v.close()
	fn, ok := goja.AssertFunction(v.exports.Get("teardown"))
	if !ok {
		return nil
	}
	timeout := 60 * time.Second
	if sh.opts.TeardownTimeout != nil {
		timeout = time.Duration(*sh.opts.TeardownTimeout)
	}
	v.it, v.group = it, "::teardown"
	_, err = v.callTimed(ctx, timeout, "teardown", fn, v.parseData(data))
	v.it = nil
	return err
}

// callTimed calls fn outside of any iteration, bounded by timeout.
func (v *vm) callTimed(ctx context.Context, timeout time.Duration, name string, fn goja.Callable, args ...goja.Value) (goja.Value, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	v.ctx = cctx
	stop := context.AfterFunc(cctx, func() { v.rt.Interrupt(fmt.Sprintf("%s() timed out after %s", name, timeout)) })
	defer stop()
	res, err := fn(goja.Undefined(), args...)
	if err != nil {
		var ex *goja.Exception
		if errors.As(err, &ex) {
			return nil, fmt.Errorf("%s(): %s", name, oneLine(ex))
		}
		return nil, fmt.Errorf("%s(): %v", name, err)
	}
	return res, nil
}

// parseData is setup's data, JSON-copied for this runtime.
func (v *vm) parseData(data string) goja.Value {
	if data == "" {
		return goja.Undefined()
	}
	var x any
	if err := json.Unmarshal([]byte(data), &x); err != nil {
		return goja.Undefined()
	}
	return v.rt.ToValue(x)
}

// NewVU implements vu.Scenario: a runtime with the init context run.
func (s *scenario) NewVU(ctx context.Context, _ int) (vu.VU, error) {
	v, err := newVM(s.sh, s.sh.nextVU.Add(1), s.def)
	if err != nil {
		return nil, err
	}
	v.ctx = ctx
	fn, _ := goja.AssertFunction(v.exports.Get(s.def.Exec))
	s.sh.vusActive.Add(1)
	return &scriptVU{v: v, fn: fn, data: v.parseData(s.sh.setupData)}, nil
}

// scriptVU is one VU: its runtime, exec function and copy of setup's data.
type scriptVU struct {
	v    *vm
	fn   goja.Callable
	data goja.Value
	ctx  context.Context
	stop func() bool
}

// Iterate runs the exec function once. An exception is a failed
// iteration with its message and script position, logged once per
// distinct message.
func (u *scriptVU) Iterate(ctx context.Context, it *vu.Iter) error {
	v := u.v
	if ctx != u.ctx {
		if u.stop != nil {
			u.stop()
		}
		u.ctx = ctx
		u.stop = context.AfterFunc(ctx, func() { v.rt.Interrupt(context.Canceled) })
	}
	v.ctx, v.it, v.group = ctx, it, ""
	v.rt.GlobalObject().Set("__ITER", it.N)
	_, err := u.fn(goja.Undefined(), u.data)
	v.it = nil
	if err == nil {
		v.sh.iterations.Add(1)
		return nil
	}
	if ctx.Err() != nil {
		v.rt.ClearInterrupt()
		return ctx.Err()
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		if errors.Is(ex.Unwrap(), errAborted) || v.sh.aborted.Load() != nil {
			return context.Canceled
		}
		msg := oneLine(ex)
		v.sh.log.once("iter:"+msg, "ERRO iteration failed: "+msg+" (further identical errors are counted, not shown)")
		return errors.New(msg)
	}
	return err
}

// Close releases the VU's connections.
func (u *scriptVU) Close() error {
	if u.stop != nil {
		u.stop()
	}
	u.v.close()
	u.v.sh.vusActive.Add(-1)
	return nil
}
