package http

import (
	"reflect"
	"testing"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/workload/workloadtest"
)

func TestDefaultOptions(t *testing.T) {
	want := Options{Method: "GET"}
	if got := DefaultOptions(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultOptions() = %+v, want %+v", got, want)
	}
	f := New(DefaultOptions())
	workloadtest.FlagDefaults(t, f.BindFlags, map[string]string{"method": "GET", "path": "", "header": "[]", "body": "", "params": "", "expect-status": "0"})
	if !reflect.DeepEqual(f.opts, want) {
		t.Errorf("binding the flags changed the options: %+v", f.opts)
	}
}

func TestFlagsSetOptions(t *testing.T) {
	f := New(DefaultOptions())
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f.BindFlags(fs)
	if err := fs.Parse([]string{"--method", "POST", "--path", "/p?q={{q}}", "--header", "A: 1", "--header", "B: 2", "--body", "{}", "--params", "p.csv", "--expect-status", "201"}); err != nil {
		t.Fatal(err)
	}
	want := Options{Method: "POST", Path: "/p?q={{q}}", Headers: []string{"A: 1", "B: 2"}, Body: "{}", ParamsFile: "p.csv", ExpectStatus: 201}
	if !reflect.DeepEqual(f.opts, want) {
		t.Errorf("options %+v, want %+v", f.opts, want)
	}
}

func TestValidate(t *testing.T) {
	workloadtest.Validate(t, DefaultOptions, (*Options).Validate, []workloadtest.Case[Options]{
		{"defaults", func(*Options) {}, ""},
		{"absolute path", func(o *Options) { o.Path = "/x?y=1" }, ""},
		{"relative path", func(o *Options) { o.Path = "x" }, `--path "x" must start with /`},
		{"path from the environment", func(o *Options) { o.Path = "{{__ENV.P}}" }, ""},
		{"header", func(o *Options) { o.Headers = []string{"A: b"} }, ""},
		{"header without colon", func(o *Options) { o.Headers = []string{"A: b", "Ab"} }, `--header "Ab": want 'Name: value'`},
		{"header from the environment", func(o *Options) { o.Headers = []string{"{{__ENV.H}}"} }, ""},
		{"header injection", func(o *Options) { o.Headers = []string{"X-A: a\r\nX-Injected: 1"} }, `--header "X-A: a\r\nX-Injected: 1": the value holds a line break or NUL (one header per --header)`},
		{"header without a name", func(o *Options) { o.Headers = []string{": novalue"} }, `--header ": novalue": the name is empty`},
		{"header name with a space", func(o *Options) { o.Headers = []string{"X A: 1"} }, `--header "X A: 1": ' ' is not allowed in a header name (RFC 9110 token)`},
		{"path splitting a request", func(o *Options) { o.Path = "/a\r\nX-Evil: 1\r\n\r\nGET /b" }, `--path "/a\r\nX-Evil: 1\r\n\r\nGET /b": '\r' is not allowed in a request target (percent-encode it, e.g. %20 for a space)`},
		{"method with a space", func(o *Options) { o.Method = "GE T" }, "--method \"GE T\": ' ' is not allowed in a method (RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~)"},
		{"method WebDAV", func(o *Options) { o.Method = "PROPFIND" }, ""},
		{"expect-status 999", func(o *Options) { o.ExpectStatus = 999 }, "--expect-status 999: HTTP status codes are 100 to 599"},
		{"expect-status 204", func(o *Options) { o.ExpectStatus = 204 }, ""},
	})
}
