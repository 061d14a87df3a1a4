package cli

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// runBeforeStep runs the --before-step command for st with sh -c, its
// output on stderr, placeholders {nodes}, {step}, {value} and {target}
// substituted (also exported as SWEEP_NODES, SWEEP_STEP, SWEEP_VALUE and
// SWEEP_TARGET). It must exit 0 within --before-step-timeout; on timeout
// or Ctrl+C its whole process group is killed.
func runBeforeStep(ctx context.Context, env *Env, f *sweepFlags, st sweepStep) error {
	r := strings.NewReplacer("{nodes}", st.nodes, "{step}", fmt.Sprint(st.n), "{value}", st.value, "{target}", st.target)
	line := r.Replace(f.beforeStep)
	hctx, cancel := context.WithTimeout(ctx, f.hookTimeout)
	defer cancel()
	cmd := exec.CommandContext(hctx, "sh", "-c", line)
	cmd.Stdout, cmd.Stderr = env.Stderr, env.Stderr
	cmd.Env = append(cmd.Environ(), "SWEEP_NODES="+st.nodes, fmt.Sprint("SWEEP_STEP=", st.n), "SWEEP_VALUE="+st.value, "SWEEP_TARGET="+st.target)
	setProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	fmt.Fprintf(env.Stderr, "\n=== before step %d (%s): %s\n", st.n, st.description, line)
	err := cmd.Run()
	switch {
	case err == nil:
		return nil
	case errors.Is(hctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%q did not finish within %s (--before-step-timeout)", line, f.hookTimeout)
	case ctx.Err() != nil:
		return fmt.Errorf("%q interrupted", line)
	}
	return fmt.Errorf("%q: %w", line, err)
}
