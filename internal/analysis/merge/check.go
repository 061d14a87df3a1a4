package merge

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

// ErrMismatch marks parts that do not belong to one run: different
// scenario sets or different targets. Options.Force merges them anyway.
var ErrMismatch = errors.New("the result directories are not parts of one run")

// checkParts refuses parts whose scenario sets or targets differ: merging
// a graph run with an unrelated HTTP run gives numbers that describe
// neither.
func checkParts(dirs []string, parts []*resultdir.Result) error {
	first := parts[0].Options
	want := scenarioSet(first)
	for i, p := range parts[1:] {
		if got := scenarioSet(p.Options); got != want {
			return fmt.Errorf("%w: %s ran scenarios %s, %s ran %s (use --force to merge anyway)", ErrMismatch, dirs[0], want, dirs[i+1], got)
		}
		if p.Options.Target != first.Target {
			return fmt.Errorf("%w: %s measured target %q, %s measured %q (use --force to merge anyway)", ErrMismatch, dirs[0], first.Target, dirs[i+1], p.Options.Target)
		}
	}
	return nil
}

func scenarioSet(o resultdir.Options) string {
	var names []string
	for _, s := range o.Scenarios {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	return "[" + strings.Join(names, " ") + "]"
}
