package run

import (
	"io"

	"github.com/stampede-bench/stampede/internal/result/finish"
	"github.com/stampede-bench/stampede/plan"
)

// Result is a public plan.Result with what the command line also prints
// (Show: summary.json or the console summary).
type Result struct {
	plan.Result

	fin *finish.Result // what finish.Dir wrote
}

// Show prints the summary on w the one way run and merge do
// (finish.Result.Show): nothing (finish.PrintNone), summary.json
// (finish.PrintJSON) or the console summary (finish.PrintText), in colour
// when color is set (decide with finish.UseColor), else exactly
// summary.txt. Nothing is printed when the summary could not be made.
func (r *Result) Show(w io.Writer, mode finish.Print, color bool) error {
	if r == nil {
		return nil
	}
	if mode == finish.PrintText {
		return r.WriteConsole(w, color) // rendered once, by finishDir
	}
	return r.fin.Show(w, mode, color)
}
