//go:build !linux

package csvlog

import "os"

// directOf returns nil: O_DIRECT is used on Linux only.
func directOf(*os.File) directSink { return nil }
