package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// DefaultLedgerDir is where fabrics record what they created.
const DefaultLedgerDir = "/run/stampede-lab"

// ledger is the file form of what a fabric created, for Clean.
type ledger struct {
	ID string `json:"id"`
	// Owner is the pid of the process that made the fabric.
	Owner      int      `json:"owner"`
	Namespaces []string `json:"namespaces"`
	Cgroups    []Cgroup `json:"cgroups"`
}

// writeLedger rewrites the fabric's ledger file from its undo steps.
func (f *Fabric) writeLedger() error {
	l := ledger{ID: f.ID, Owner: os.Getpid()}
	f.mu.Lock()
	for _, s := range f.undo {
		if ns, ok := strings.CutPrefix(s.what, "netns "); ok {
			l.Namespaces = append(l.Namespaces, ns)
		}
	}
	f.mu.Unlock()
	// Cgroups are found under their parent by Clean; the parent is
	// named after the id.
	l.Cgroups = []Cgroup{{CPU: filepath.Join(f.Mounts.CPU, prefixCgroup+f.ID), Acct: filepath.Join(f.Mounts.CPUAcct, prefixCgroup+f.ID)}}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.ledger), 0o755); err != nil {
		return fmt.Errorf("lab ledger: %w", err)
	}
	tmp := f.ledger + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("lab ledger: %w", err)
	}
	return os.Rename(tmp, f.ledger)
}

// Clean removes what labs whose owner process is gone left behind (after
// a SIGKILL, say), as their ledger files in dir ("" for
// DefaultLedgerDir) record it. It returns the ids it cleaned.
func Clean(dir string) ([]string, error) {
	if dir == "" {
		dir = DefaultLedgerDir
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var done []string
	var errs []error
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 1<<20 {
			continue
		}
		var l ledger
		if json.Unmarshal(b, &l) != nil || l.ID == "" {
			continue
		}
		if l.Owner > 0 && alive(l.Owner) {
			continue
		}
		for _, cg := range l.Cgroups {
			errs = append(errs, removeTree(cg))
		}
		for _, ns := range l.Namespaces {
			if strings.HasPrefix(ns, prefixNS) {
				errs = append(errs, deleteNS(ns))
			}
		}
		errs = append(errs, removeMissingOK(p))
		done = append(done, l.ID)
	}
	return done, errors.Join(errs...)
}

// removeTree removes a cgroup and its child cgroups, killing their
// processes.
func removeTree(cg Cgroup) error {
	var errs []error
	kids, _ := os.ReadDir(cg.CPU)
	for _, k := range kids {
		if k.IsDir() {
			errs = append(errs, Cgroup{CPU: filepath.Join(cg.CPU, k.Name()), Acct: filepath.Join(cg.Acct, k.Name())}.remove())
		}
	}
	if _, err := os.Stat(cg.CPU); err == nil {
		errs = append(errs, cg.remove())
	} else if _, err := os.Stat(cg.Acct); err == nil {
		errs = append(errs, os.Remove(cg.Acct))
	}
	return errors.Join(errs...)
}

// alive tells whether process pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
