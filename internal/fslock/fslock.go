// Package fslock holds advisory locks on files and directories, so that a
// process can tell its own staging areas (a data set being generated, a
// database file being loaded) from those a killed process left behind: a
// live owner holds the lock, a dead one's lock went with its process.
package fslock

import (
	"errors"
	"os"
)

// ErrHeld is returned by TryLock when another open file (of this process
// or another) holds the lock.
var ErrHeld = errors.New("locked by a running process")

// Lock is an exclusive advisory lock on one path, held until Unlock (or
// the end of the process). It does not interfere with SQLite's own
// byte-range locks (flock(2) and fcntl(2) locks are separate on Linux).
type Lock struct {
	f *os.File
}

// TryLock takes the lock on path (a file or directory that exists) without
// waiting: ErrHeld when someone holds it, ErrUnsupported on systems
// without flock (then no staging area can be proven abandoned).
func TryLock(path string) (*Lock, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if err := tryLock(f); err != nil {
		f.Close()
		return nil, err
	}
	return &Lock{f: f}, nil
}

// Unlock releases the lock; a nil Lock is a no-op.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// ErrUnsupported is returned by TryLock where advisory locks are missing.
var ErrUnsupported = errors.New("advisory file locks are not supported on this system")
