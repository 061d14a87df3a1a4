//go:build !unix

package natscluster

import "os/exec"

func detach(*exec.Cmd) {}
