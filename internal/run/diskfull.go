package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stampede-bench/stampede/internal/nospace"
)

// ReserveFile is the file a run keeps in its result directory while it
// measures: ReserveBytes of room on the disk for what the end of the run
// writes (snapshot, summaries, report), handed back just before they are
// written, so that a disk the per-request logs fill still gets them.
const ReserveFile = ".stampede-reserve"

// ReserveBytes is the room kept by ReserveFile: 4 MiB.
const ReserveBytes = 4 << 20

// diskPoll is how often the writers of a run are asked for write errors.
const diskPoll = 100 * time.Millisecond

// reserveRoom writes dir/ReserveFile; a disk without ReserveBytes free is
// refused before the run (an unwritable output, exit 2).
func reserveRoom(dir string) (release func(), err error) {
	path := filepath.Join(dir, ReserveFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, usagef("result directory %s: %v", dir, err)
	}
	// Real bytes: a sparse file would reserve nothing. They are written
	// 64 KiB at a time, from one buffer (not one of ReserveBytes).
	var werr error
	zeros := make([]byte, 64<<10)
	for left := ReserveBytes; left > 0 && werr == nil; left -= len(zeros) {
		_, werr = f.Write(zeros[:min(left, len(zeros))])
	}
	if serr := f.Sync(); werr == nil {
		werr = serr
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(path)
		if nospace.Is(werr) {
			return nil, usagef("result directory %s: no space left on device (a run keeps %d MiB free there for its summary)", dir, ReserveBytes>>20)
		}
		return nil, usagef("result directory %s: %v", dir, werr)
	}
	return func() { os.Remove(path) }, nil
}

// errWriter is a writer of the run that remembers its first write error
// and can be asked for it from any goroutine (the request CSV, k6
// streams).
type errWriter interface{ Err() error }

// diskFullError is the cause of a run stopped because a writer ran out
// of space.
type diskFullError struct{ err error }

func (e *diskFullError) Error() string {
	return fmt.Sprintf("stopped: %v (the run stopped within %s of it)", e.err, diskPoll)
}

func (e *diskFullError) Unwrap() error { return e.err }

// reason is the phrase the summary gives for the stop
// (metrics.Snapshot.Stopped).
func (e *diskFullError) reason() string {
	if nospace.Is(e.err) {
		return "the disk is full: " + e.err.Error()
	}
	return "a write failed: " + e.err.Error()
}

// watchWriters asks every writer for a write error every diskPoll until
// stop is called, and calls fail with the first one it sees. A full disk
// (or any other write error) stops the run: measuring on without being
// able to log it would leave outputs that disagree.
func watchWriters(ws []errWriter, fail func(error)) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(diskPoll)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			for _, w := range ws {
				if err := w.Err(); err != nil {
					fail(&diskFullError{err: err})
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// stoppedByWriter returns the writer error that stopped the run, if any.
func stoppedByWriter(ctx context.Context) *diskFullError {
	var df *diskFullError
	if err := context.Cause(ctx); errors.As(err, &df) {
		return df
	}
	return nil
}
