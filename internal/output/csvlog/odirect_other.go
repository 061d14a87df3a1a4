//go:build !linux

package csvlog

import "os"

// directOf returns nil: O_DIRECT is used on Linux only.
func directOf(*os.File) directSink { return nil }

// stageMem returns heapStage(n) and a func that does nothing.
func stageMem(n int) ([]byte, func()) { return heapStage(n), func() {} }
