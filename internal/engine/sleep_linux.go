//go:build linux

package engine

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// preciseSleep waits d with the kernel's timer precision (tens of µs).
// Go timers wake through the network poller, whose timeout has millisecond
// granularity when the process is otherwise idle: a 300 µs wait would take
// a millisecond, and under an arrival-rate executor that generator lag
// would be charged to the target's responseTime.
func preciseSleep(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	for {
		var rem unix.Timespec
		err := unix.Nanosleep(&ts, &rem)
		if err != unix.EINTR {
			return
		}
		ts = rem
	}
}

// lockPreciseThread pins the calling goroutine to its OS thread and sets
// the thread's timer slack to 1 ns (default 50 µs), so preciseSleep wakes
// within a few µs. The returned func restores both.
func lockPreciseThread() (unlock func()) {
	runtime.LockOSThread()
	old, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err == nil {
		_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	}
	return func() {
		if err == nil {
			_ = unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(old), 0, 0, 0)
		}
		runtime.UnlockOSThread()
	}
}
