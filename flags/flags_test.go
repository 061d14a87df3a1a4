package flags_test

import (
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/flags"
)

// The command line's flag set is a Set: a family binding its options on
// a Set binds them on the command line.
var _ flags.Set = (*pflag.FlagSet)(nil)

func TestBindOnTheCommandLineFlagSet(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var (
		set   flags.Set = fs
		size  int
		wait  time.Duration
		quiet bool
		hdrs  []string
	)
	set.IntVar(&size, "echo-size", 64, "bytes per echo")
	set.DurationVar(&wait, "echo-wait", time.Second, "wait")
	set.BoolVarP(&quiet, "quiet", "q", false, "quiet")
	set.StringArrayVar(&hdrs, "header", nil, "repeatable")
	if err := fs.Parse([]string{"--echo-size", "128", "-q", "--header", "a: b,c", "--header", "d: e"}); err != nil {
		t.Fatal(err)
	}
	if size != 128 || wait != time.Second || !quiet || len(hdrs) != 2 || hdrs[0] != "a: b,c" {
		t.Errorf("parsed size %d wait %s quiet %v headers %q", size, wait, quiet, hdrs)
	}
	if !set.Changed("echo-size") || set.Changed("echo-wait") {
		t.Errorf("Changed: echo-size %v (want true), echo-wait %v (want false)", set.Changed("echo-size"), set.Changed("echo-wait"))
	}
}
