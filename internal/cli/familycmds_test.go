package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/flags"
	"github.com/stampede-bench/stampede/internal/workload"
)

// toolFamily is a family that contributes commands only.
type toolFamily struct {
	name string
	cmds func() []workload.Command
}

func (f *toolFamily) Name() string               { return f.name }
func (f *toolFamily) Scenarios() []workload.Info { return []workload.Info{{Name: f.name + ".Noop"}} }
func (f *toolFamily) Open(context.Context, *workload.Env, []string) (*workload.Opened, error) {
	return nil, errors.New("unused")
}
func (f *toolFamily) Commands() []workload.Command { return f.cmds() }

// TestFamilyCommands: the commands families contribute become commands
// of the command line: a group two families give is one group, flags,
// arguments and Changed reach Run, a usage error exits 2 and
// workload.Interrupted exits 130 with its message.
func TestFamilyCommands(t *testing.T) {
	echo := func() workload.Command {
		var loud bool
		return workload.Command{
			Use: "echo [WORD]", Short: "say a word", MaxArgs: 1,
			Flags: func(fs flags.Set) { fs.BoolVar(&loud, "loud", false, "shout") },
			Run: func(_ context.Context, env *workload.CommandEnv) error {
				w := strings.Join(env.Args, " ")
				if loud {
					w = strings.ToUpper(w)
				}
				fmt.Fprintf(env.Stdout, "%s changed=%v\n", w, env.Changed("loud"))
				return nil
			},
		}
	}
	a := &toolFamily{"a", func() []workload.Command {
		return []workload.Command{{Use: "tool", Short: "tools", Sub: []workload.Command{echo()}}}
	}}
	b := &toolFamily{"b", func() []workload.Command {
		return []workload.Command{{Use: "tool", Sub: []workload.Command{
			{Use: "stop", Run: func(context.Context, *workload.CommandEnv) error { return &workload.Interrupted{Msg: "stopped early"} }},
			{Use: "bad", Run: func(context.Context, *workload.CommandEnv) error { return usagef("bad: no") }},
		}}}
	}}
	prog := Program{Catalog: func() *workload.Catalog { return workload.NewCatalog(a, b) }}
	for _, tc := range []struct {
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{[]string{"tool", "echo", "hi"}, 0, "hi changed=false\n", ""},
		{[]string{"tool", "echo", "--loud", "hi"}, 0, "HI changed=true\n", ""},
		{[]string{"tool", "echo", "a", "b"}, ExitUsage, "", "accepts at most 1 arg"},
		{[]string{"tool", "stop"}, ExitInterrupted, "", "stampede: stopped early\n"},
		{[]string{"tool", "stop", "x"}, ExitUsage, "", "unknown command"},
		{[]string{"tool", "bad"}, ExitUsage, "", "stampede: bad: no\n"},
		{[]string{"tool", "nosuch"}, ExitUsage, "", `unknown command "nosuch" for "stampede tool"`},
	} {
		var out, errb bytes.Buffer
		code := MainProgram(context.Background(), prog, tc.args, &out, &errb)
		if code != tc.wantCode || out.String() != tc.wantStdout || !strings.Contains(errb.String(), tc.wantStderr) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, out.String(), errb.String(), tc.wantCode, tc.wantStdout, tc.wantStderr)
		}
	}
}
