//go:build !unix

package profile

import (
	"os"
	"os/exec"
)

// Without process groups and SIGINT the command is simply killed.

func ownProcessGroup(*exec.Cmd) {}

func interruptGroup(cmd *exec.Cmd) {
	if cmd.Process.Signal(os.Interrupt) != nil {
		_ = cmd.Process.Kill()
	}
}

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

func killedByInterrupt(*exec.ExitError) bool { return false }
