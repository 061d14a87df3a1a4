package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// runHook runs the sweep's BeforeStep command for st with sh -c, its
// output on w, placeholders {nodes}, {step}, {value} and {target}
// substituted (also exported as SWEEP_NODES, SWEEP_STEP, SWEEP_VALUE and
// SWEEP_TARGET). It must exit 0 within timeout; on timeout or when ctx
// ends, its whole process group is killed.
func runHook(ctx context.Context, w io.Writer, command string, timeout time.Duration, st Step) error {
	r := strings.NewReplacer("{nodes}", st.Nodes, "{step}", fmt.Sprint(st.N), "{value}", st.Value, "{target}", st.Target)
	line := r.Replace(command)
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(hctx, "sh", "-c", line)
	cmd.Stdout, cmd.Stderr = w, w
	cmd.Env = append(cmd.Environ(), "SWEEP_NODES="+st.Nodes, fmt.Sprint("SWEEP_STEP=", st.N), "SWEEP_VALUE="+st.Value, "SWEEP_TARGET="+st.Target)
	setProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	fmt.Fprintf(w, "\n=== before step %d (%s): %s\n", st.N, st.Description, line)
	err := cmd.Run()
	switch {
	case err == nil:
		return nil
	case errors.Is(hctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%q did not finish within %s (--before-step-timeout)", line, timeout)
	case ctx.Err() != nil:
		return fmt.Errorf("%q interrupted", line)
	}
	return fmt.Errorf("%q: %w", line, err)
}
