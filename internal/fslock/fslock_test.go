package fslock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestTryLock(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, file} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			l, err := TryLock(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := TryLock(path); !errors.Is(err, ErrHeld) {
				t.Fatalf("second lock: %v, want ErrHeld", err)
			}
			if err := l.Unlock(); err != nil {
				t.Fatal(err)
			}
			l2, err := TryLock(path)
			if err != nil {
				t.Fatalf("after unlock: %v", err)
			}
			l2.Unlock()
		})
	}
	if _, err := TryLock(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing path: %v", err)
	}
	var nilLock *Lock
	if err := nilLock.Unlock(); err != nil {
		t.Error(err)
	}
}
