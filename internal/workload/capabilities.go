package workload

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/usage"
)

// The optional interfaces below are what a family can do beyond running
// scenarios. The command line asks the catalog for them and never names a
// family: a family of a Go program gets the same treatment as a built-in
// one.

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
	Flags func(fs *pflag.FlagSet)
	// Run runs the command (nil: a group of Sub). Bad input returns a
	// usage error (package usage); an error after the end of ctx is the
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

// ParseIntList parses a comma-separated list of whole numbers ≥ 1 given
// as flag ("" is none); anything else is a usage error.
func ParseIntList(flag, s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 {
			return nil, usage.Errorf("%s: %q is not a whole number ≥ 1 (want a list like 50,100,200)", flag, part)
		}
		out = append(out, n)
	}
	return out, nil
}

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

// Commands returns the commands of every Commander family, in catalog
// order.
func (c *Catalog) Commands() []Command {
	var out []Command
	for _, f := range c.families {
		if cm, ok := f.(Commander); ok {
			out = append(out, cm.Commands()...)
		}
	}
	return out
}

// RateTrends returns the rate trends of every RateTrender family.
func (c *Catalog) RateTrends() []RateTrend {
	var out []RateTrend
	for _, f := range c.families {
		if rt, ok := f.(RateTrender); ok {
			out = append(out, rt.RateTrends()...)
		}
	}
	return out
}

// NodesFlag returns the run flag that resizes the embedded cluster of
// every named scenario, when all of them belong to ClusterResizer
// families that agree on it; "" when they do not (or names is empty).
func (c *Catalog) NodesFlag(names []string) string {
	flag := ""
	for i, n := range names {
		f, _, ok := c.Find(n)
		r, can := f.(ClusterResizer)
		if !ok || !can || (i > 0 && r.NodesFlag() != flag) {
			return ""
		}
		flag = r.NodesFlag()
	}
	return flag
}

// ResizeNotes joins the ResizeNote of every ClusterResizer family with
// ", " ("" when there is none).
func (c *Catalog) ResizeNotes() string {
	out := ""
	for _, f := range c.families {
		if r, ok := f.(ClusterResizer); ok {
			if out != "" {
				out += ", "
			}
			out += r.ResizeNote()
		}
	}
	return out
}

// RefuseNodeSweep returns the first refusal of a StandInCluster family of
// the named scenarios for a node sweep on the embedded cluster.
func (c *Catalog) RefuseNodeSweep(names []string) error {
	for _, n := range names {
		f, _, ok := c.Find(n)
		if s, can := f.(StandInCluster); ok && can {
			if err := s.RefuseNodeSweep(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// ServeUntil blocks a `serve` command until ctx ends (Ctrl+C) or, when
// d > 0, d has passed.
func ServeUntil(ctx context.Context, d time.Duration) {
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	<-ctx.Done()
}
