package builtin

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

func TestOptions(t *testing.T) {
	if d := DefaultOptions(); d.Sleep != time.Second {
		t.Errorf("DefaultOptions().Sleep = %s, want 1s", d.Sleep)
	}
	for _, tc := range []struct {
		args []string
		want time.Duration
		err  string
	}{
		{nil, time.Second, ""},
		{[]string{"--sleep", "250ms"}, 250 * time.Millisecond, ""},
		{[]string{"--sleep", "0s"}, 0, ""},
		{[]string{"--sleep", "-1s"}, -time.Second, "--sleep must not be negative"},
	} {
		f := New(DefaultOptions())
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		f.BindFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if f.opts.Sleep != tc.want {
			t.Errorf("%v: Sleep = %s, want %s", tc.args, f.opts.Sleep, tc.want)
		}
		err := f.opts.Validate()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || err.Error() != tc.err || !errors.Is(err, usage.ErrBadInput)) {
			t.Errorf("%v: Validate() = %v, want %q", tc.args, err, tc.err)
		}
		// Open refuses what Validate refuses.
		if _, err := f.Open(context.Background(), &workload.Env{}, []string{"builtin.Sleep"}); (err != nil) != (tc.err != "") {
			t.Errorf("%v: Open error %v", tc.args, err)
		}
	}
}

func TestSleepFromOptions(t *testing.T) {
	o, err := New(Options{Sleep: time.Millisecond}).Open(context.Background(), &workload.Env{}, []string{"builtin.Sleep"})
	if err != nil {
		t.Fatal(err)
	}
	if s := o.Scenarios["builtin.Sleep"].(sleeper); s.d != time.Millisecond {
		t.Errorf("sleeper pauses %s, want 1ms", s.d)
	}
}
