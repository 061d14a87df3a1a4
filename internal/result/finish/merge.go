package finish

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/analysis/merge"
	"github.com/stampede-bench/stampede/internal/bounded"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/threshold"
)

// MergeOptions say how Merge combines result directories (see
// merge.Options).
type MergeOptions struct {
	// Requests concatenates the parts' requests.csv files.
	Requests bool
	// Force merges parts with different scenario sets or targets.
	Force bool
	// RateTrends are the per-second trends rebuilt from the merged series
	// so that they add up over the parts (the families' rate trends).
	RateTrends []merge.RateTrend
}

// Merge combines the result directories args name — result directories,
// or directories holding them (merge.Expand) — into the new result
// directory out, exactly (package analysis/merge). Finish it with Merged.
// Bad input (an argument that holds no run, parts of different plans
// without Force) is a usage error (usage.Is); every error starts with
// "merge: " except that of an argument.
func Merge(args []string, out string, o MergeOptions) (*merge.Result, error) {
	dirs, err := merge.Expand(args)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	res, err := merge.Merge(dirs, out, merge.Options{Requests: o.Requests, Force: o.Force, RateTrends: o.RateTrends})
	if errors.Is(err, merge.ErrMismatch) {
		return nil, usage.Errorf("merge: %v", err)
	}
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return res, nil
}

// Merged finishes the directory Merge wrote, like a run's (Dir): the
// thresholds specs — or, when there are none, those the parts ran with —
// are evaluated on the merged snapshot; the summaries carry the tags every
// part has in common and the --monitor summaries the parts' NIC speed.
// o's Thresholds, Tags and NICSpeed are set from those. Bad threshold
// specs return a usage error and no Result; otherwise there is always a
// Result, as with Dir.
func Merged(res *merge.Result, specs []string, o Options) (*Result, error) {
	if len(specs) == 0 {
		specs = res.Options.Thresholds
	}
	ts, err := threshold.ParseAll(specs)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	o.Thresholds, o.Tags, o.NICSpeed = ts, commonTags(res.Parts), res.Options.NICSpeed // the parts' --monitor series, merged
	return Dir(res.Dir, res.Snapshot, o)
}

// commonTags are the run tags (--tag, testid) every part carries with the
// same value, read from the parts' summary.json: the tags of the merged
// result. A part without a readable summary leaves no tags.
func commonTags(parts []string) map[string]string {
	var common map[string]string
	for i, dir := range parts {
		var doc struct {
			Stampede struct {
				Tags map[string]string `json:"tags"`
			} `json:"stampede"`
		}
		if bounded.DecodeJSON(context.Background(), filepath.Join(dir, resultdir.SummaryFile), bounded.ResultBytes, &doc) != nil {
			return nil
		}
		if i == 0 {
			common = doc.Stampede.Tags
			continue
		}
		for k, v := range common {
			if doc.Stampede.Tags[k] != v {
				delete(common, k)
			}
		}
	}
	if len(common) == 0 {
		return nil
	}
	return common
}
