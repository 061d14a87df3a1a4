package cli

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// runFlagGroups orders the core flags of `stampede run` into sections;
// workload flags follow, one section per family.
var runFlagGroups = []struct {
	title string
	names []string
}{
	{"Load (k6 executors)", []string{"vus", "duration", "iterations", "rate", "time-unit", "max-vus", "stage", "executor", "warmup", "graceful-stop", "concurrent", "timeout", "backoff", "backoff-max", "seed"}},
	{"Target and data", []string{"target", "data-dir", "secret-header", "secret-tag", "monitor", "nic-speed"}},
	{"Results and outputs", []string{"out", "summary-export", "csv", "no-csv", "no-report", "threshold", "prometheus", "prometheus-linger", "quiet", "json", "no-color"}},
	{"k6 options", k6FlagNames},
	{"Repeats, profiles and distributed runs", []string{"repeat", "cooldown", "profile", "self-profile", "segment", "start-at", "config"}},
}

// setRunUsage prints run's flags in sections instead of one long list.
// families maps each workload flag to its family's name.
func setRunUsage(cmd *cobra.Command, families map[string][]string) {
	cmd.SetUsageFunc(func(c *cobra.Command) error {
		w := c.OutOrStderr()
		fmt.Fprintf(w, "Usage:\n  %s\n", c.UseLine())
		if c.Example != "" {
			fmt.Fprintf(w, "\nExamples:\n%s\n", c.Example)
		}
		fs := c.Flags()
		seen := map[string]bool{"help": true}
		section := func(title string, names []string) {
			sub := pflag.NewFlagSet(title, pflag.ContinueOnError)
			for _, n := range names {
				if fl := fs.Lookup(n); fl != nil && !fl.Hidden {
					sub.AddFlag(fl)
					seen[n] = true
				}
			}
			if sub.HasFlags() {
				fmt.Fprintf(w, "\n%s:\n%s", title, sub.FlagUsagesWrapped(100))
			}
		}
		for _, g := range runFlagGroups {
			section(g.title, g.names)
		}
		byFamily := map[string][]string{}
		for name, fams := range families {
			byFamily[fams[0]] = append(byFamily[fams[0]], name)
		}
		fams := make([]string, 0, len(byFamily))
		for f := range byFamily {
			fams = append(fams, f)
		}
		sort.Strings(fams)
		for _, f := range fams {
			sort.Strings(byFamily[f])
			section("Workload: "+f, byFamily[f])
		}
		var rest []string
		fs.VisitAll(func(fl *pflag.Flag) {
			if !seen[fl.Name] && !fl.Hidden {
				rest = append(rest, fl.Name)
			}
		})
		section("Other", rest)
		fmt.Fprintln(w, "\nEvery flag can also be set in the environment as STAMPEDE_<FLAG>, e.g.\nSTAMPEDE_VUS=100 or STAMPEDE_GRACEFUL_STOP=5s; flags given on the command line win.")
		return nil
	})
}
