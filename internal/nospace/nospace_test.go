package nospace

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

type pgErr struct{ code string }

func (e pgErr) Error() string    { return "ERROR: could not extend file (SQLSTATE " + e.code + ")" }
func (e pgErr) SQLState() string { return e.code }

func TestIs(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"ENOSPC", &fs.PathError{Op: "write", Path: "/x", Err: syscall.ENOSPC}, true},
		{"EDQUOT wrapped", fmt.Errorf("flush: %w", syscall.EDQUOT), true},
		{"sqlite full", errors.New("database or disk is full (13)"), true},
		{"postgres disk_full", fmt.Errorf("copy: %w", pgErr{"53100"}), true},
		{"postgres other", pgErr{"23505"}, false},
		{"EACCES", &fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}, false},
		{"plain", errors.New("boom"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Is(tc.err); got != tc.want {
				t.Errorf("Is(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
