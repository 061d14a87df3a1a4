package graph

import (
	"errors"
	"reflect"
	"testing"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload/workloadtest"
)

func TestDefaultOptions(t *testing.T) {
	want := Options{SF: 0.1, BatchSize: 100, ParamOrder: "roundrobin", CheckSample: 100, MaxDepth: 6, DateFormat: "auto", MaxRejected: "0"}
	if got := DefaultOptions(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultOptions() = %+v, want %+v", got, want)
	}
	if err := want.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	f := New(DefaultOptions())
	f.BindFlags(pflag.NewFlagSet("t", pflag.ContinueOnError))
	if !reflect.DeepEqual(f.opts, want) {
		t.Errorf("binding the flags changed the options: %+v", f.opts)
	}
}

func TestFlagsSetOptions(t *testing.T) {
	f := newFamily(t, "--data", "d", "--sf", "1", "--batch-size", "7", "--param-order", "random", "--check-sample", "0",
		"--max-depth", "3", "--scenario-file", "a.yaml", "--scenario-file", "b.yaml", "--date-format", "millis", "--max-rejected", "1%")
	want := Options{Data: "d", SF: 1, BatchSize: 7, ParamOrder: "random", CheckSample: 0, MaxDepth: 3,
		ScenarioFiles: []string{"a.yaml", "b.yaml"}, DateFormat: "millis", MaxRejected: "1%"}
	if !reflect.DeepEqual(f.opts, want) {
		t.Errorf("options %+v, want %+v", f.opts, want)
	}
}

func TestValidateOptions(t *testing.T) {
	workloadtest.Validate(t, DefaultOptions, (*Options).Validate, []workloadtest.Case[Options]{
		{"defaults", func(*Options) {}, ""},
		{"batch", func(o *Options) { o.BatchSize = 0 }, "--batch-size 0 must be at least 1"},
		{"order", func(o *Options) { o.ParamOrder = "sorted" }, `--param-order "sorted": want roundrobin or random`},
		{"check sample", func(o *Options) { o.CheckSample = -1 }, "--check-sample -1 must not be negative"},
		{"check sample off", func(o *Options) { o.CheckSample = 0 }, ""},
		{"depth low", func(o *Options) { o.MaxDepth = 0 }, "--max-depth 0: want 1 to 12"},
		{"depth high", func(o *Options) { o.MaxDepth = 13 }, "--max-depth 13: want 1 to 12"},
		{"first problem wins", func(o *Options) { o.BatchSize = 0; o.MaxDepth = 0 }, "--batch-size 0 must be at least 1"},
		{"dates", func(o *Options) { o.DateFormat = "millis" }, ""},
		{"rejected percent", func(o *Options) { o.MaxRejected = "0.1%" }, ""},
	})
	// The parsers' own messages, behind the flag's name.
	for _, edit := range []func(*Options){
		func(o *Options) { o.SF = -1 },
		func(o *Options) { o.DateFormat = "julian" },
		func(o *Options) { o.MaxRejected = "many" },
	} {
		o := DefaultOptions()
		edit(&o)
		if err := o.Validate(); err == nil || !errors.Is(err, usage.ErrBadInput) {
			t.Errorf("%+v: Validate() = %v, want a usage error", o, err)
		}
	}
}
