package k6js

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Options are the k6 options a script exports (export const options) that
// stampede implements. Any other option is refused before the run.
type Options struct {
	VUs                   *int64                     `json:"vus"`
	Duration              *Duration                  `json:"duration"`
	Iterations            *int64                     `json:"iterations"`
	Stages                []Stage                    `json:"stages"`
	Scenarios             map[string]ScenarioOptions `json:"scenarios"`
	Thresholds            map[string]json.RawMessage `json:"thresholds"`
	SummaryTrendStats     []string                   `json:"summaryTrendStats"`
	SetupTimeout          *Duration                  `json:"setupTimeout"`
	TeardownTimeout       *Duration                  `json:"teardownTimeout"`
	NoConnectionReuse     bool                       `json:"noConnectionReuse"`
	UserAgent             *string                    `json:"userAgent"`
	InsecureSkipTLSVerify bool                       `json:"insecureSkipTLSVerify"`
	Tags                  map[string]string          `json:"tags"`
	DiscardResponseBodies bool                       `json:"discardResponseBodies"`
	MaxRedirects          *int                       `json:"maxRedirects"`
	Batch                 *int                       `json:"batch"`
	BatchPerHost          *int                       `json:"batchPerHost"`
	scenarioOrder         []string
}

// Stage is one k6 stage.
type Stage struct {
	Duration Duration `json:"duration"`
	Target   int64    `json:"target"`
}

// ScenarioOptions is one entry of options.scenarios.
type ScenarioOptions struct {
	Executor        string            `json:"executor"`
	StartTime       Duration          `json:"startTime"`
	GracefulStop    *Duration         `json:"gracefulStop"`
	Exec            string            `json:"exec"`
	Env             map[string]string `json:"env"`
	Tags            map[string]string `json:"tags"`
	VUs             *int64            `json:"vus"`
	Iterations      *int64            `json:"iterations"`
	Duration        *Duration         `json:"duration"`
	MaxDuration     *Duration         `json:"maxDuration"`
	StartVUs        *int64            `json:"startVUs"`
	Stages          []Stage           `json:"stages"`
	Rate            *int64            `json:"rate"`
	StartRate       *int64            `json:"startRate"`
	TimeUnit        *Duration         `json:"timeUnit"`
	PreAllocatedVUs *int64            `json:"preAllocatedVUs"`
	MaxVUs          *int64            `json:"maxVUs"`
}

// Duration is a k6 duration: a string such as "1m30s" or a number of
// milliseconds.
type Duration time.Duration

// UnmarshalJSON accepts "30s", "1m30s", "1h" or a number of ms.
func (d *Duration) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			if ms, err2 := strconv.ParseFloat(s, 64); err2 == nil {
				*d = Duration(ms * float64(time.Millisecond))
				return nil
			}
			return fmt.Errorf("%q is not a duration like 30s", s)
		}
		*d = Duration(v)
		return nil
	}
	var ms float64
	if err := json.Unmarshal(b, &ms); err != nil {
		return fmt.Errorf("%s is not a duration", b)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}

// parseOptions decodes the JSON of a script's options, refusing what is
// not implemented (naming it).
func parseOptions(script string, raw []byte) (*Options, error) {
	o := &Options{}
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" || string(raw) == "undefined" {
		return o, nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, usage.Errorf("%s: options must be an object: %v", script, err)
	}
	for k := range keys {
		if !supportedOption[k] {
			return nil, usage.Errorf("%s: option %q is not supported by stampede (supported: %s)", script, k, strings.Join(sortedKeys(supportedOption), ", "))
		}
	}
	if sc, ok := keys["scenarios"]; ok {
		var m map[string]map[string]json.RawMessage
		if err := json.Unmarshal(sc, &m); err != nil {
			return nil, usage.Errorf("%s: options.scenarios: %v", script, err)
		}
		for name, fields := range m {
			var execKeys []string
			for f := range fields {
				if !supportedScenarioField[f] {
					return nil, usage.Errorf("%s: scenario %s: option %q is not supported by stampede (supported: %s)", script, name, f, strings.Join(sortedKeys(supportedScenarioField), ", "))
				}
				switch f {
				case "startTime", "exec", "env", "tags", "executor":
				default:
					execKeys = append(execKeys, f)
				}
			}
			var exec string
			if raw, ok := fields["executor"]; ok {
				json.Unmarshal(raw, &exec)
			}
			if exec != "" {
				sort.Strings(execKeys)
				if err := executor.CheckFields(exec, execKeys); err != nil {
					return nil, usage.Errorf("%s: scenario %s: %v", script, name, err)
				}
			}
		}
		o.scenarioOrder = objectKeyOrder(sc)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(o); err != nil {
		return nil, usage.Errorf("%s: options: %v", script, err)
	}
	return o, nil
}

var supportedOption = map[string]bool{
	"vus": true, "duration": true, "iterations": true, "stages": true, "scenarios": true,
	"thresholds": true, "summaryTrendStats": true, "setupTimeout": true, "teardownTimeout": true,
	"noConnectionReuse": true, "userAgent": true, "insecureSkipTLSVerify": true, "tags": true,
	"discardResponseBodies": true, "maxRedirects": true, "batch": true, "batchPerHost": true,
}

var supportedScenarioField = map[string]bool{
	"executor": true, "startTime": true, "gracefulStop": true, "exec": true, "env": true, "tags": true,
	"vus": true, "iterations": true, "duration": true, "maxDuration": true, "startVUs": true, "stages": true,
	"rate": true, "startRate": true, "timeUnit": true, "preAllocatedVUs": true, "maxVUs": true,
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// objectKeyOrder returns the keys of a JSON object in document order.
func objectKeyOrder(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}

// Overrides are the command-line options that replace the script's, as
// k6's flags do: any of vus, duration, iterations or stages given on the
// command line replaces options.scenarios by one default scenario.
type Overrides struct {
	VUs        *int64
	Duration   *time.Duration
	Iterations *int64
	Stages     []engine.Stage
}

func (o Overrides) any() bool {
	return o.VUs != nil || o.Duration != nil || o.Iterations != nil || len(o.Stages) > 0
}

// Scenario is one scenario of a script, ready for the engine.
type Scenario struct {
	// Name is the scenario's name ("default" without options.scenarios).
	Name   string
	Config engine.Config
	// StartTime delays the scenario from the start of the test.
	StartTime time.Duration
	// Exec is the exported function the VUs run ("default").
	Exec string
	Env  map[string]string
	Tags map[string]string
}

// scenarios turns the options (and command-line overrides) into engine
// scenarios, in the order the script lists them.
func (o *Options) scenarios(ov Overrides) ([]Scenario, error) {
	if len(o.Scenarios) > 0 && !ov.any() && o.VUs == nil && o.Duration == nil && o.Iterations == nil && len(o.Stages) == 0 {
		var out []Scenario
		for _, name := range o.scenarioOrder {
			s, err := o.Scenarios[name].toScenario(name)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	}
	if len(o.Scenarios) > 0 && !ov.any() {
		return nil, usage.Errorf("options: scenarios cannot be combined with the shortcut options vus, duration, iterations or stages (as in k6)")
	}
	var sh engine.Shortcuts
	sh.TimeUnit, sh.GracefulStop = time.Second, 30*time.Second
	if o.VUs != nil {
		sh.VUs, sh.VUsSet = *o.VUs, true
	}
	if o.Duration != nil {
		sh.Duration, sh.DurationSet = time.Duration(*o.Duration), true
	}
	if o.Iterations != nil {
		sh.Iterations, sh.IterationsSet = *o.Iterations, true
	}
	for _, st := range o.Stages {
		sh.Stages = append(sh.Stages, engine.Stage{Duration: time.Duration(st.Duration), Target: st.Target})
	}
	if ov.VUs != nil {
		sh.VUs, sh.VUsSet = *ov.VUs, true
	}
	if ov.Duration != nil {
		sh.Duration, sh.DurationSet = *ov.Duration, true
	}
	if ov.Iterations != nil {
		sh.Iterations, sh.IterationsSet = *ov.Iterations, true
	}
	if len(ov.Stages) > 0 {
		sh.Stages = ov.Stages
	}
	if !sh.VUsSet {
		sh.VUs = 1
	}
	if !sh.DurationSet && !sh.IterationsSet && len(sh.Stages) == 0 {
		// k6's default: one iteration of one VU.
		sh.Iterations, sh.IterationsSet = 1, true
	}
	if sh.IterationsSet && sh.DurationSet {
		// k6: iterations with a duration: shared-iterations bounded by it.
		c, err := engine.Shortcuts{Executor: engine.SharedIterations, VUs: sh.VUs, VUsSet: true,
			Iterations: sh.Iterations, IterationsSet: true, Duration: sh.Duration, DurationSet: true,
			TimeUnit: time.Second, GracefulStop: sh.GracefulStop}.Config()
		if err != nil {
			return nil, usage.Errorf("options: %v", err)
		}
		return []Scenario{{Name: "default", Config: c, Exec: "default"}}, nil
	}
	if len(sh.Stages) > 0 && sh.VUsSet {
		sh.VUs = max(sh.VUs, 1)
	}
	c, err := sh.Config()
	if err != nil {
		return nil, usage.Errorf("options: %v", err)
	}
	return []Scenario{{Name: "default", Config: c, Exec: "default"}}, nil
}

func (s ScenarioOptions) toScenario(name string) (Scenario, error) {
	if s.Executor == "" {
		return Scenario{}, usage.Errorf("scenario %s: executor is required (as in k6)", name)
	}
	c := engine.Config{Executor: s.Executor}
	set64 := func(dst *int64, v *int64) {
		if v != nil {
			*dst = *v
		}
	}
	setD := func(dst *time.Duration, v *Duration) {
		if v != nil {
			*dst = time.Duration(*v)
		}
	}
	set64(&c.VUs, s.VUs)
	set64(&c.Iterations, s.Iterations)
	setD(&c.Duration, s.Duration)
	setD(&c.MaxDuration, s.MaxDuration)
	set64(&c.StartVUs, s.StartVUs)
	set64(&c.Rate, s.Rate)
	set64(&c.StartRate, s.StartRate)
	setD(&c.TimeUnit, s.TimeUnit)
	set64(&c.PreAllocatedVUs, s.PreAllocatedVUs)
	set64(&c.MaxVUs, s.MaxVUs)
	setD(&c.GracefulStop, s.GracefulStop)
	for _, st := range s.Stages {
		c.Stages = append(c.Stages, engine.Stage{Duration: time.Duration(st.Duration), Target: st.Target})
	}
	if s.GracefulStop != nil && *s.GracefulStop == 0 {
		c.GracefulStop = time.Nanosecond // Defaults would read 0 as "unset"
	}
	c = c.Defaults()
	if err := c.Validate(); err != nil {
		return Scenario{}, usage.Errorf("scenario %s: %s", name, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	exec := s.Exec
	if exec == "" {
		exec = "default"
	}
	return Scenario{Name: name, Config: c, StartTime: time.Duration(s.StartTime), Exec: exec, Env: s.Env, Tags: s.Tags}, nil
}
