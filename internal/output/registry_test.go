package output_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
)

// nopOutput is the smallest Output.
type nopOutput struct{ arg string }

func (nopOutput) Description() string    { return "" }
func (nopOutput) Start() error           { return nil }
func (nopOutput) Observe(*metrics.Point) {}
func (nopOutput) Stop() error            { return nil }

func factory(name string, aliases ...string) output.Factory {
	return output.Factory{
		Name: name, Aliases: aliases, Usage: name + "=X",
		Check: func(arg string) error {
			if arg == "bad" {
				return errors.New("bad arg")
			}
			return nil
		},
		New: func(p output.Params) (output.Output, error) { return nopOutput{arg: p.Arg}, nil },
	}
}

func TestRegistryAdd(t *testing.T) {
	for _, tc := range []struct {
		name string
		fs   []output.Factory
		err  string
	}{
		{"distinct", []output.Factory{factory("a"), factory("b", "bee")}, ""},
		{"duplicate name", []output.Factory{factory("a"), factory("a")}, `"a" is registered twice`},
		{"alias clashes with a name", []output.Factory{factory("a"), factory("b", "a")}, `"a" is registered twice`},
		{"empty name", []output.Factory{factory("")}, "needs a name"},
		{"no New", []output.Factory{{Name: "x"}}, "needs a name and New"},
		{"upper case", []output.Factory{factory("Influx")}, "lower-case"},
		{"equals sign", []output.Factory{factory("a=b")}, "lower-case"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := output.NewRegistry(tc.fs...)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
}

func TestRegistryLookup(t *testing.T) {
	r, err := output.NewRegistry(factory("influxdb"), factory("prometheus-rw", "experimental-prometheus-rw"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, arg string
		canonical string // "" = unknown
		checkErr  string
	}{
		{"influxdb", "u", "influxdb", ""},
		{"prometheus-rw", "u", "prometheus-rw", ""},
		{"experimental-prometheus-rw", "u", "prometheus-rw", ""},
		{"influxdb", "bad", "influxdb", "bad arg"},
		{"kafka", "x", "", `unknown output "kafka" (known: influxdb=X, prometheus-rw=X)`},
		{"", "x", "", "unknown output"},
		{"INFLUXDB", "x", "", "unknown output"},
	} {
		t.Run(tc.name+"="+tc.arg, func(t *testing.T) {
			f, ok := r.Lookup(tc.name)
			if ok != (tc.canonical != "") || f.Name != tc.canonical {
				t.Errorf("Lookup = %q, %v; want %q", f.Name, ok, tc.canonical)
			}
			err := r.Check(tc.name, tc.arg)
			if tc.checkErr == "" && err != nil || tc.checkErr != "" && (err == nil || !strings.Contains(err.Error(), tc.checkErr)) {
				t.Errorf("Check: %v, want %q", err, tc.checkErr)
			}
			if (tc.canonical == "") != errors.Is(err, output.ErrUnknown) {
				t.Errorf("Check: %v; ErrUnknown expected only for unknown names", err)
			}
			o, err := r.New(tc.name, output.Params{Arg: tc.arg})
			if tc.checkErr == "" {
				if err != nil || o.(nopOutput).arg != tc.arg {
					t.Errorf("New = %v, %v", o, err)
				}
			} else if err == nil {
				t.Errorf("New made an output for %s=%s", tc.name, tc.arg)
			}
		})
	}
	if got := strings.Join(r.Usages(), " "); got != "influxdb=X prometheus-rw=X" {
		t.Errorf("Usages = %q", got)
	}
	var zero output.Registry
	if err := zero.Check("a", ""); !errors.Is(err, output.ErrUnknown) {
		t.Errorf("zero registry: %v", err)
	}
}

func TestParams(t *testing.T) {
	p := output.Params{Tags: map[string]string{"testid": "t1"}, Segment: "1/2"}
	got := p.TagsWithSegment()
	if got["segment"] != "1/2" || got["testid"] != "t1" || len(p.Tags) != 1 {
		t.Errorf("TagsWithSegment = %v (tags %v)", got, p.Tags)
	}
	if p.Env("HOME") != "" || p.WarnTo() == nil || p.InfoTo() == nil {
		t.Error("zero Params must read no environment and discard writes")
	}
	p.Getenv = func(k string) string { return k + "!" }
	if p.Env("X") != "X!" {
		t.Error("Getenv not used")
	}
}
