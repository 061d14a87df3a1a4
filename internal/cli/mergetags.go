package cli

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

// mergedTags are the run tags (--tag, testid) every part carries with the
// same value, read from the parts' summary.json: the tags of the merged
// result. A part without a readable summary leaves no tags.
func mergedTags(parts []string) map[string]string {
	var common map[string]string
	for i, dir := range parts {
		b, err := os.ReadFile(filepath.Join(dir, resultdir.SummaryFile))
		if err != nil {
			return nil
		}
		var doc struct {
			Stampede struct {
				Tags map[string]string `json:"tags"`
			} `json:"stampede"`
		}
		if json.Unmarshal(b, &doc) != nil {
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
