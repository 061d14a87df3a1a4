package plan

import (
	"io"

	"github.com/stampede-bench/stampede/output"
)

// Deps are what running a plan uses from the process: outputs,
// environment and where messages go. Nil writers discard; each family
// opens its targets with drivers of its own. stampede.DefaultDeps fills
// them.
type Deps struct {
	// Outputs make the outputs Plan.Outputs name (--out NAME=ARG); nil:
	// stampede's own (stampede.Catalog.Outputs adds a program's).
	Outputs *output.Registry
	// Getenv reads an environment variable (credentials, tokens); nil
	// reads none.
	Getenv func(string) string
	// Log receives the families' preparation messages (data generation,
	// loading); nil keeps them quiet.
	Log io.Writer
	// Info receives the run's own informational lines (live endpoints,
	// the segment plan, the wait for StartAt, the result directory).
	Info io.Writer
	// Warn receives warnings that are always shown (an output that cannot
	// keep up).
	Warn io.Writer
	// ProgressBars receives the families' progress bars (a terminal); nil
	// shows none.
	ProgressBars io.Writer
	// StdoutTTY tells the k6 summary (summary.json) that stdout is a
	// terminal.
	StdoutTTY bool
	// ConsoleWidth is the terminal's width for the summary printed on it
	// (0: 80 columns).
	ConsoleWidth int
}
