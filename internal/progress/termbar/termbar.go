// Package termbar draws progress reports (package progress) as a terminal
// progress bar: count, rate and, when the total is known, time left.
package termbar

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/stampede-bench/stampede/internal/progress"
)

// New returns a progress.Func that draws a bar on w, labelled description,
// counting unit ("rows"). The bar starts on the first report, so its rate
// counts from when the work started rather than from when New was called;
// the Final report completes it and ends the line. When the first report
// has no Total (0: unknown), a spinner with the count and rate is drawn
// instead of a bar.
func New(w io.Writer, description, unit string) progress.Func {
	var pb *progressbar.ProgressBar
	unknown := false
	return func(r progress.Report) {
		if pb == nil {
			total := r.Total
			if unknown = total <= 0; unknown {
				total = -1 // a spinner
			}
			pb = progressbar.NewOptions64(total,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(description),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString(unit),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionSetWidth(30),
				progressbar.OptionOnCompletion(func() { io.WriteString(w, "\n") }),
			)
			pb.StartWithoutRender()
		}
		if r.Final {
			if unknown {
				_ = pb.Set64(r.Done) // the spinner's Finish shows the count set last
			}
			_ = pb.Finish()
			return
		}
		_ = pb.Set64(r.Done)
	}
}

// Spinner draws a count of unit on w, labelled description, for work whose
// total is unknown until it ends (the data generator): set reports the
// count so far, finish clears the line. Redraws at most every 100 ms.
func Spinner(w io.Writer, description, unit string) (set func(n int64), finish func()) {
	pb := progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(description),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return func(n int64) { _ = pb.Set64(n) }, func() { _ = pb.Finish() }
}
