// Package family is the contract of a workload family: Family, which
// names its scenarios and opens them against a target (Opened, holding
// the vu.Scenario values the engine runs), and what a family declares
// about itself beyond running scenarios, for the command line to ask the
// catalog (never naming a family): ScenarioInfo, what a family offers; Commander,
// commands it contributes (the graph family's gen and load, kafka serve,
// nats serve); ClusterResizer and StandInCluster, what a node sweep may do
// with its embedded cluster; RateTrender, per-second rate trends that
// `stampede merge` rebuilds; and Env, what a family's Open gets from the
// run. A family of a Go program gets the same treatment as a built-in
// one. The package depends on nothing of stampede but packages flags,
// metric and vu.
package family

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/stampede-bench/stampede/flags"
	"github.com/stampede-bench/stampede/metric"
)

// ScenarioInfo describes one scenario of a family.
type ScenarioInfo struct {
	// Name in family.Scenario form, e.g. "go.Go1Step" or "kafka.Produce";
	// unique in the catalog.
	Name string
	// Description is one line for `stampede scenarios`.
	Description string
	// Default marks scenarios run by a bare `stampede run` when the
	// family is the catalog's first.
	Default bool
}

// Commander is implemented by families that contribute commands to the
// command line: the graph family's `gen` and `load`, the kafka and nats
// families' `serve` of their embedded clusters.
type Commander interface {
	// Commands returns fresh command descriptions (their flag values live
	// in them), once per command line.
	Commands() []Command
}

// Command describes one command of a Commander, or a group of them. A
// top-level command whose Use names a group another family already gave
// (no Run) adds its Sub to that group.
type Command struct {
	// Use is the one-line usage; its first word is the command's name.
	Use     string
	Short   string
	Long    string
	Example string
	// Hidden commands are not listed in the help.
	Hidden bool
	// MaxArgs is the most positional arguments the command takes (0:
	// none); Run finds them in CommandEnv.Args.
	MaxArgs int
	// Flags binds the command's flags on fs (nil: none); Run reads the
	// values they were parsed into.
	Flags func(fs flags.Set)
	// Run runs the command (nil: a group of Sub). Bad input returns a
	// usage error (stampede.Usagef); an error after the end of ctx is the
	// interruption (exit code 130).
	Run func(ctx context.Context, env *CommandEnv) error
	// Sub are the subcommands of a group.
	Sub []Command
}

// CommandEnv is what a contributed command gets from the process.
type CommandEnv struct {
	// Args are the command's positional arguments; CommandLine is the
	// whole command line, without the program name.
	Args        []string
	CommandLine []string
	Stdin       io.Reader
	Stdout      io.Writer
	Stderr      io.Writer
	// StderrTerminal is set when Stderr is a terminal: only then does a
	// command draw a progress bar.
	StderrTerminal bool
	// Getenv reads an environment variable (.env included).
	Getenv func(string) string
	// Changed tells whether the user set flag name.
	Changed func(name string) bool
}

// Interrupted is the error of a command that Ctrl+C ended after it had
// said what it did: exit code 130, with Msg (empty: nothing more to say).
type Interrupted struct{ Msg string }

func (e *Interrupted) Error() string { return e.Msg }

// ClusterResizer is implemented by families whose embedded cluster (no
// --target) has as many nodes as one of the family's run flags says: a
// node sweep of only such scenarios sets that flag per step instead of
// needing --before-step or --targets. A stand-in's nodes (kfake's
// brokers) are resized so too; its notes say what they do not model.
type ClusterResizer interface {
	// NodesFlag is the run flag, without dashes, that sizes the cluster.
	NodesFlag() string
	// ResizeNote completes the refusal of a node sweep that cannot
	// resize, e.g. "nats.* scenarios resize their embedded cluster
	// themselves".
	ResizeNote() string
}

// StandInCluster is implemented by families whose embedded cluster is a
// test stand-in inside each run: a node sweep of one of their scenarios
// on it that the sweep does not size itself (a --before-step hook, which
// cannot reach it) is refused.
type StandInCluster interface {
	// RefuseNodeSweep returns the usage error for a hook-resized node
	// sweep of scenario on the embedded cluster, or nil when the family
	// can measure it.
	RefuseNodeSweep(scenario string) error
}

// RateTrend is a per-second trend whose merged value is rebuilt from its
// counter: the sum over processes, not a mean of rates.
type RateTrend struct {
	// Trend and Counter are metric names (with tags, as the series
	// spells them).
	Trend, Counter string
	// Sparse trends appear in only some runs (one phase of a scenario).
	Sparse bool
}

// RateTrender is implemented by families with per-second rate trends
// (msgs/s) that `stampede merge` rebuilds from the merged series.
type RateTrender interface {
	RateTrends() []RateTrend
}

// Env is what a family's Open gets from the run: the target, the run's
// settings and its metrics registry, where a family adds metrics of its
// own before the run starts (stampede.NewCounter, NewTrend, NewCheck).
type Env struct {
	// Target is the raw --target URL; empty means the family's embedded
	// default.
	Target string
	// DataDir holds generated data and embedded databases.
	DataDir string
	// Metrics is the run's registry: add custom metrics during Open.
	Metrics *metric.Registry
	// MaxVUs is the most VUs any selected scenario will use (pool sizing).
	MaxVUs int
	// Seed makes parameter choices reproducible.
	Seed int64
	// Timeout bounds each operation (--timeout; 0: none).
	Timeout time.Duration
	// Log receives human-readable preparation messages (generation,
	// loading); Stderr is for progress bars and discards them when stderr
	// is not a terminal. Both are never nil. Quiet (-q) keeps Log quiet
	// (Logf does).
	Log    io.Writer
	Stderr io.Writer
	Quiet  bool
	// Getenv reads the environment (never nil): credentials come from
	// here, never from flags.
	Getenv func(string) string

	// k6 options (see stampede run --help, "k6 options").
	// InsecureSkipTLSVerify accepts any TLS certificate; UserAgent is the
	// HTTP User-Agent (empty: the driver's default).
	InsecureSkipTLSVerify bool
	UserAgent             string
	// Vars are the -e/--env KEY=VALUE pairs, for {{__ENV.KEY}} in templates.
	Vars map[string]string
}

// Logf writes one preparation message on Log, unless Quiet.
func (e *Env) Logf(format string, args ...any) {
	if !e.Quiet {
		fmt.Fprintf(e.Log, format+"\n", args...)
	}
}
