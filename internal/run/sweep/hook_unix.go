//go:build unix

package sweep

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in its own process group and makes its
// cancellation kill the whole group (an ansible or kubectl call may leave
// children behind).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
