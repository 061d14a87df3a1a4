//go:build !linux

package engine

import "time"

// preciseSleep waits d (time.Sleep where nanosleep is not used).
func preciseSleep(d time.Duration) { time.Sleep(d) }

// lockPreciseThread does nothing where preciseSleep is time.Sleep.
func lockPreciseThread() (unlock func()) { return func() {} }
