//go:build !unix

package cputime

import "time"

// Process is 0: this platform's CPU accounting is not read.
func Process() time.Duration { return 0 }
