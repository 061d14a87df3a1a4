// Package nospace recognises "the disk is full" in the errors of the
// standard library, SQLite and PostgreSQL, so that every writer can stop
// at once with one clear line instead of retrying row by row.
package nospace

import (
	"errors"
	"strings"
	"syscall"
)

// Is reports whether err says that a file system (or a database's) ran
// out of space or quota: ENOSPC, EDQUOT, SQLite's SQLITE_FULL ("database
// or disk is full") or PostgreSQL's class 53 disk_full (53100).
func Is(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	var st interface{ SQLState() string }
	if errors.As(err, &st) && st.SQLState() == "53100" {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "database or disk is full") || strings.Contains(msg, "no space left on device")
}
