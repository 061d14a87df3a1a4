package profile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Defaults of CmdCollector.
const (
	// DefaultCmdOut is the output file name template: {scenario}.perf.data.
	DefaultCmdOut = "{scenario}.perf.data"
	// DefaultStopTimeout is how long Stop waits after SIGINT before
	// SIGKILL: 10 s.
	DefaultStopTimeout = 10 * time.Second
	// stderrTail is how much of the command's stderr is kept for errors.
	stderrTail = 2048
)

// CmdCollector runs a profiler command (typically
// perf record -p {pid} -b -o {out}) around a scenario, the way the AutoFDO
// seed ran perf by hand: Start launches it with /bin/sh -c in a process
// group of its own, Stop sends SIGINT to that group (Ctrl+C), waits up to
// StopTimeout for it to finish writing, then sends SIGKILL.
//
// A command that exits with failure, before or after Stop, is reported by
// Stop with the tail of its stderr. Exiting on the SIGINT (status 130 or
// killed by the signal) counts as success. Not safe for concurrent use:
// one scenario at a time.
type CmdCollector struct {
	// Command is the shell command with placeholders {pid}, {scenario} and
	// {out}. Substituted values are single-quoted for the shell when they
	// hold anything beyond letters, digits and ./_-,:=+@%, so write
	// placeholders as plain words or inside double quotes, never inside
	// single quotes.
	Command string
	// PID replaces {pid}.
	PID string
	// Tree, when set, is a process name: {pid} becomes, at each Start,
	// every process of that name and all their descendants (pid=tree:NAME),
	// so a server's forked workers that already serve connections are
	// profiled too. (perf -p samples workers forked after it attached, but
	// records neither their names nor their mappings: for servers that fork
	// per connection, profile system-wide with perf record -a.)
	Tree string
	// AttachTimeout is how long Start waits for a perf command to hold
	// its perf events; 0 means DefaultAttachTimeout.
	AttachTimeout time.Duration
	// Settle is how long Start watches a command that is not perf for an
	// early exit; 0 means DefaultSettle.
	Settle time.Duration
	// Out is the output file name template, relative to the scope's Dir
	// unless absolute; it may use {scenario}. Empty means DefaultCmdOut.
	Out string
	// StopTimeout is the wait between SIGINT and SIGKILL; 0 means
	// DefaultStopTimeout.
	StopTimeout time.Duration

	run *cmdRun // the command in progress, nil when idle
}

// cmdRun is one execution of the command.
type cmdRun struct {
	scope   Scope
	out     string // the {out} path
	cmd     *exec.Cmd
	stderr  *tailBuffer
	done    chan struct{}
	waitErr error // valid after done
}

var _ Collector = (*CmdCollector)(nil)

// String describes the collector.
func (c *CmdCollector) String() string { return "cmd " + c.Command }

// Start runs the command for scope s and returns once the profiler is
// attached: a perf command once it holds its perf events (their count
// steady for 150 ms), any other command once it has run for Settle without
// failing (one that exits with success is done). A command that fails or
// exits before it is attached is an error
// here, before the scenario runs, with the tail of its stderr. ctx is not
// used to stop the command: Stop does.
func (c *CmdCollector) Start(ctx context.Context, s Scope) error {
	if c.run != nil {
		return fmt.Errorf("cmd collector: Start for %q while %q is still recording", s.Scenario, c.run.scope.Scenario)
	}
	if err := ensureDir(s.Dir); err != nil {
		return fmt.Errorf("cmd collector: %w", err)
	}
	tmpl := c.Out
	if tmpl == "" {
		tmpl = DefaultCmdOut
	}
	out := strings.ReplaceAll(tmpl, "{scenario}", fileName(s.Scenario))
	if !filepath.IsAbs(out) {
		out = filepath.Join(s.Dir, out)
	}
	// A process of the tree may exit between the listing and the
	// profiler's attach (perf: "No such process"): list it again, twice.
	tries := 1
	if c.Tree != "" {
		tries = 3
	}
	var err error
	for try := 0; try < tries; try++ {
		var run *cmdRun
		if run, err = c.start(ctx, s, out); err == nil {
			c.run = run
			return nil
		}
	}
	return err
}

// start launches the command once for scope s and waits for it to attach.
func (c *CmdCollector) start(ctx context.Context, s Scope, out string) (*cmdRun, error) {
	pid := c.PID
	if c.Tree != "" {
		pids, err := processTree(c.Tree)
		if err != nil {
			return nil, fmt.Errorf("cmd collector: %w", err)
		}
		pid = joinPIDs(pids)
	}
	line := strings.NewReplacer(
		"{pid}", shellQuote(pid),
		"{scenario}", shellQuote(s.Scenario),
		"{out}", shellQuote(out),
	).Replace(c.Command)

	cmd := exec.Command("/bin/sh", "-c", line)
	tail := &tailBuffer{max: stderrTail}
	cmd.Stderr = tail
	// Do not let a leftover grandchild holding stderr open stall Wait.
	cmd.WaitDelay = time.Second
	ownProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cmd collector: starting %q: %w", line, err)
	}
	run := &cmdRun{scope: s, out: out, cmd: cmd, stderr: tail, done: make(chan struct{})}
	go func() {
		run.waitErr = cmd.Wait()
		close(run.done)
	}()
	if err := c.waitAttached(ctx, run); err != nil {
		killGroup(cmd)
		<-run.done
		return nil, fmt.Errorf("cmd collector: %q: %w%s", s.Scenario, err, run.stderr.suffix())
	}
	return run, nil
}

// waitAttached returns once run's command is attached (see Start), or why
// it is not.
func (c *CmdCollector) waitAttached(ctx context.Context, run *cmdRun) error {
	exited := func() error {
		if run.waitErr != nil {
			return fmt.Errorf("profiler exited before the scenario started: %v", run.waitErr)
		}
		return errors.New("profiler exited before the scenario started")
	}
	if !usesPerf(c.Command) {
		settle := c.Settle
		if settle <= 0 {
			settle = DefaultSettle
		}
		select {
		case <-run.done:
			if run.waitErr == nil {
				return nil // a one-shot command that succeeded; Stop collects {out}
			}
			return exited()
		case <-time.After(settle):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	timeout := c.AttachTimeout
	if timeout <= 0 {
		timeout = DefaultAttachTimeout
	}
	deadline := time.After(timeout)
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	last, steadySince := 0, time.Time{}
	for {
		select {
		case <-run.done:
			return exited()
		case <-deadline:
			return fmt.Errorf("perf did not attach within %v (it holds no perf events)", timeout)
		case <-ctx.Done():
			return ctx.Err()
		case now := <-tick.C:
			n := perfEventFDs(run.cmd.Process.Pid)
			switch {
			case n == 0:
			case n != last:
				last, steadySince = n, now
			case now.Sub(steadySince) >= attachQuiet:
				return nil
			}
		}
	}
}

// Stop interrupts the command and returns the {out} file if it exists.
// It is an error if the command failed, had to be killed, or was given
// {out} and did not write it. If ctx ends first the command is killed.
func (c *CmdCollector) Stop(ctx context.Context) ([]string, error) {
	run := c.run
	if run == nil {
		return nil, errors.New("cmd collector: Stop without Start")
	}
	c.run = nil
	name := run.scope.Scenario

	exitedEarly := false
	select {
	case <-run.done:
		exitedEarly = true
	default:
		interruptGroup(run.cmd)
		timeout := c.StopTimeout
		if timeout <= 0 {
			timeout = DefaultStopTimeout
		}
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		select {
		case <-run.done:
		case <-timer.C:
			killGroup(run.cmd)
			<-run.done
			return nil, fmt.Errorf("cmd collector: %q: command did not exit within %v of SIGINT and was killed%s", name, timeout, run.stderr.suffix())
		case <-ctx.Done():
			killGroup(run.cmd)
			<-run.done
			return nil, fmt.Errorf("cmd collector: %q: %w", name, ctx.Err())
		}
	}

	if err := run.waitErr; err != nil && (exitedEarly || !interrupted(err)) {
		when := "failed"
		if exitedEarly {
			when = "exited early"
		}
		return nil, fmt.Errorf("cmd collector: %q: command %s: %v%s", name, when, err, run.stderr.suffix())
	}
	if _, err := os.Stat(run.out); err == nil {
		return []string{run.out}, nil
	}
	if strings.Contains(c.Command, "{out}") {
		return nil, fmt.Errorf("cmd collector: %q: command wrote no %s%s", name, run.out, run.stderr.suffix())
	}
	return nil, nil
}

// interrupted reports whether a Wait error means the command ended
// because of our SIGINT: killed by it, or a shell reporting 128+2.
func interrupted(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	return ee.ExitCode() == 130 || killedByInterrupt(ee)
}

// safeWord matches values that need no shell quoting.
var safeWord = regexp.MustCompile(`^[A-Za-z0-9_./,:=+@%-]+$`)

// shellQuote quotes s for /bin/sh unless it is a plain word.
func shellQuote(s string) string {
	if safeWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
