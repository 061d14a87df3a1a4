package lab

import (
	"os/exec"
	"path/filepath"
	"syscall"
)

// joinScript puts the shell in the cgroups given as $1 and $2, then
// execs "ip netns exec NS CMD..." (the rest of the arguments): the
// command starts as a member of the cgroups, inside the namespace, with
// the shell's pid, so none of its threads ever runs outside its budget.
const joinScript = `echo $$ > "$1" && echo $$ > "$2" && shift 2 && exec "$@"`

// Command returns the command that runs name with args on host h: in its
// network namespace and its cgroups, in a process group of its own (so
// that Ctrl+C in a terminal reaches stampede alone, which stops it in
// order). Down kills whatever of it is still running.
func (f *Fabric) Command(h *Host, name string, args ...string) *exec.Cmd {
	a := []string{"-c", joinScript, "sh",
		filepath.Join(h.Cgroup.CPU, "cgroup.procs"), filepath.Join(h.Cgroup.Acct, "cgroup.procs"),
		"ip", "netns", "exec", h.NS, name}
	cmd := exec.Command("/bin/sh", append(a, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}
