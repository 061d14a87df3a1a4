package httpload

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/usage"
)

func TestDefaultOptions(t *testing.T) {
	want := Options{Method: "GET"}
	if got := DefaultOptions(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultOptions() = %+v, want %+v", got, want)
	}
	// Unparsed flags leave the options as they were.
	f := New(DefaultOptions())
	f.BindFlags(pflag.NewFlagSet("t", pflag.ContinueOnError))
	if !reflect.DeepEqual(f.opts, want) {
		t.Errorf("after BindFlags: %+v, want %+v", f.opts, want)
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
	for _, tc := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"defaults", func(*Options) {}, ""},
		{"absolute path", func(o *Options) { o.Path = "/x?y=1" }, ""},
		{"relative path", func(o *Options) { o.Path = "x" }, `--path "x" must start with /`},
		{"path from the environment", func(o *Options) { o.Path = "{{__ENV.P}}" }, ""},
		{"header", func(o *Options) { o.Headers = []string{"A: b"} }, ""},
		{"header without colon", func(o *Options) { o.Headers = []string{"A: b", "Ab"} }, `--header "Ab": want 'Name: value'`},
		{"header from the environment", func(o *Options) { o.Headers = []string{"{{__ENV.H}}"} }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			tc.edit(&o)
			err := o.Validate()
			if tc.want == "" {
				if err != nil {
					t.Errorf("Validate() = %v", err)
				}
				return
			}
			if err == nil || err.Error() != tc.want || !usage.Is(err) {
				t.Errorf("Validate() = %v, want usage error %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "--") {
				t.Errorf("message %q does not name the flag", err)
			}
		})
	}
}
