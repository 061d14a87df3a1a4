package nospacetest

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestFill(t *testing.T) {
	dir := Mount(t, 1<<20)
	Fill(t, dir, 8<<10)
	if err := os.WriteFile(filepath.Join(dir, "small"), make([]byte, 4<<10), 0o644); err != nil {
		t.Fatalf("the free space is not free: %v", err)
	}
	err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, 64<<10), 0o644)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("write past the free space: %v, want ENOSPC", err)
	}
}
