//go:build unix

package natscluster

import (
	"os/exec"
	"syscall"
)

// detach puts a node in its own process group, so that Ctrl+C in the
// terminal reaches stampede alone, which then stops the nodes in order.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
