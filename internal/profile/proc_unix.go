//go:build unix

package profile

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup makes cmd the leader of a new process group, so that
// signals reach the shell and everything it started, and a Ctrl+C in the
// terminal reaches only stampede, which then stops the command in order.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// interruptGroup sends SIGINT to cmd's process group, as Ctrl+C would.
func interruptGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // already gone is fine
}

// killGroup sends SIGKILL to cmd's process group.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // already gone is fine
}

// killedByInterrupt reports whether the process died of SIGINT.
func killedByInterrupt(ee *exec.ExitError) bool {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGINT
}
