// Package progress carries how far a long step (loading a data set) has
// come from the code doing the work to whoever shows it. The worker calls a
// Func; it never draws, so a library such as the LDBC loader needs no
// terminal or progress-bar package. Package termbar draws a Func on a
// terminal.
package progress

// Report says how far a step has come.
type Report struct {
	// Done is the number of units (rows) processed so far.
	Done int64
	// Total is the number of units the step will process when it
	// completes; 0 when unknown.
	Total int64
	// Final marks the last report of the step, sent once when it ends,
	// completed or not.
	Final bool
}

// Func receives reports. A worker calls it from one goroutine at a time,
// a few times a second at most (see the worker's documentation), so it may
// draw directly; it must return quickly.
type Func func(Report)
