package output

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// Params is what an output is made from: the ARG of --out NAME=ARG and the
// run it belongs to. Fields an output does not use may stay zero.
type Params struct {
	// Arg is the text after NAME= (a URL, a file, an address).
	Arg string
	// Registry holds the run's metrics; outputs read kinds and names from
	// it and may mark trends for per-second histograms
	// (Registry.MarkSeries) before the run starts.
	Registry *metric.Registry
	// Scenarios are the names of the run's scenarios, in run order.
	Scenarios []string
	// Tags are the run's tags (--tag, testid); Segment is the run's
	// --segment i/N, empty when the run is whole.
	Tags    map[string]string
	Segment string
	// Origin describes the target for outputs that tag it (k6 streams).
	Origin string
	// Thresholds are the threshold expressions by metric name.
	Thresholds map[string][]string
	// Getenv reads the environment (tokens never come from flags);
	// nil reads nothing.
	Getenv func(string) string
	// Warn receives warnings while the run goes; Info receives remarks
	// that --quiet silences. Nil discards.
	Warn, Info io.Writer
	// Start is when the run started (zero: when the output is made).
	Start time.Time
	// Generator reports the generator's latest CPU use (fraction of its
	// cores) and resident memory (bytes), when known.
	Generator func() (cpu float64, rss int64, ok bool)
	// Options are the spec's settings beyond Arg (Spec.Options); nil:
	// none.
	Options map[string]string
	// Dir is the result directory.
	Dir string
	// TargetScheme is the scheme of the target URL, lower case (e.g.
	// "nebula"; empty: each family's embedded default).
	TargetScheme string
	// Run numbers repeated runs from 1 (0: a single run) of Repeat runs:
	// an output writing a file outside Dir names one per run when
	// Repeat > 1.
	Run, Repeat int
}

// Env returns the environment variable name, or "" without Getenv.
func (p Params) Env(name string) string {
	if p.Getenv == nil {
		return ""
	}
	return p.Getenv(name)
}

// WarnTo is Warn, or io.Discard when nil.
func (p Params) WarnTo() io.Writer { return orDiscard(p.Warn) }

// InfoTo is Info, or io.Discard when nil.
func (p Params) InfoTo() io.Writer { return orDiscard(p.Info) }

// TagsWithSegment is a copy of Tags with "segment" set when the run is a
// segment.
func (p Params) TagsWithSegment() map[string]string {
	tags := make(map[string]string, len(p.Tags)+1)
	for k, v := range p.Tags {
		tags[k] = v
	}
	if p.Segment != "" {
		tags["segment"] = p.Segment
	}
	return tags
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// Factory makes one kind of output.
type Factory struct {
	// Name is what --out NAME=ARG names, lower-case kebab form
	// (e.g. "influxdb", "prometheus-rw").
	Name string
	// Aliases are other names for the same output (e.g. k6's
	// "experimental-prometheus-rw").
	Aliases []string
	// Usage shows the form of the ARG, e.g. "influxdb=URL".
	Usage string
	// Check validates ARG without side effects, so that a bad --out fails
	// before anything runs; nil accepts any ARG.
	Check func(arg string) error
	// Preflight, when set, checks once before the run (after Check, before
	// anything is created) what Check cannot without touching the world:
	// that an endpoint answers in the output's protocol, that a file can
	// be written, that a port is free. An error stops the run before it
	// starts (exit 2). It gets the Params of the run's first repetition
	// without Registry. nil: nothing to check.
	Preflight func(ctx context.Context, p Params) error
	// Flag is the run flag that makes this output instead of --out
	// NAME=ARG (e.g. "--prometheus"), or "-" for one that every run
	// adds without a flag (series.jsonl). Outputs with a Flag are not
	// listed by Usages and --out cannot name them. Empty: an --out output.
	Flag string
	// VUBytes is the memory the output needs per VU (bytes), for the
	// check that a plan's VUs fit in memory; 0: none.
	VUBytes int64
	// New makes the output from p. It must not start anything (no
	// connection, no file, no goroutine): Start does.
	New func(p Params) (Output, error)
}

// Label is how messages name the output made with arg: "--out NAME",
// its name for an output every run adds, else its Flag and arg (e.g.
// "--prometheus :9090").
func (f Factory) Label(arg string) string {
	switch {
	case f.Flag == "":
		return "--out " + f.Name
	case f.Flag == "-":
		return f.Name
	case arg == "":
		return f.Flag
	}
	return f.Flag + " " + arg
}

// CLI tells that --out can name the output (it has no Flag).
func (f Factory) CLI() bool { return f.Flag == "" }

// ErrUnknown is wrapped by the error for a name no factory has.
var ErrUnknown = errors.New("unknown output")

// Registry maps output names to their factories. A program builds it
// (there is no global registry); the zero value is empty and ready.
// It is not safe for concurrent Add.
type Registry struct {
	byName map[string]*Factory
	order  []*Factory
}

// NewRegistry returns a registry holding fs (see Add).
func NewRegistry(fs ...Factory) (*Registry, error) {
	r := &Registry{}
	for _, f := range fs {
		if err := r.Add(f); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Add registers f under its name and aliases. A name registered twice,
// an empty name or a nil New is an error.
func (r *Registry) Add(f Factory) error {
	if f.Name == "" || f.New == nil {
		return fmt.Errorf("output factory %q: needs a name and New", f.Name)
	}
	if r.byName == nil {
		r.byName = map[string]*Factory{}
	}
	names := append([]string{f.Name}, f.Aliases...)
	for _, n := range names {
		if n != strings.ToLower(n) || strings.ContainsAny(n, "=/\\. ") {
			return fmt.Errorf("output name %q: use lower-case letters, digits and dashes", n)
		}
		if _, dup := r.byName[n]; dup {
			return fmt.Errorf("output %q is registered twice", n)
		}
	}
	fc := f
	for _, n := range names {
		r.byName[n] = &fc
	}
	r.order = append(r.order, &fc)
	return nil
}

// Lookup returns the factory of name (or of an alias), and whether there
// is one. The factory's Name is the canonical name.
func (r *Registry) Lookup(name string) (Factory, bool) {
	if r == nil || r.byName == nil {
		return Factory{}, false
	}
	f, ok := r.byName[name]
	if !ok {
		return Factory{}, false
	}
	return *f, true
}

// Usages lists the Usage of every factory --out can name, in the order
// they were added.
func (r *Registry) Usages() []string {
	if r == nil {
		return nil
	}
	out := make([]string, 0, len(r.order))
	for _, f := range r.order {
		if !f.CLI() {
			continue
		}
		u := f.Usage
		if u == "" {
			u = f.Name + "=ARG"
		}
		out = append(out, u)
	}
	return out
}

// Check validates --out name=arg without making anything. An unknown name
// is an error wrapping ErrUnknown.
func (r *Registry) Check(name, arg string) error {
	f, ok := r.Lookup(name)
	if !ok {
		return r.unknown(name)
	}
	if f.Check == nil {
		return nil
	}
	return f.Check(arg)
}

// New makes the output name with p (p.Arg is its ARG). An unknown name is
// an error wrapping ErrUnknown.
func (r *Registry) New(name string, p Params) (Output, error) {
	f, ok := r.Lookup(name)
	if !ok {
		return nil, r.unknown(name)
	}
	if f.Check != nil {
		if err := f.Check(p.Arg); err != nil {
			return nil, err
		}
	}
	return f.New(p)
}

func (r *Registry) unknown(name string) error {
	return fmt.Errorf("%w %q (known: %s)", ErrUnknown, name, strings.Join(r.Usages(), ", "))
}
