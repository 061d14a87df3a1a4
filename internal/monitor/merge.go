package monitor

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Merge combines the monitor series of result directories dirs (the
// segments of one distributed run) into out/File. Instances that watched
// the same source (the same ID) sampled the same target: of their samples
// in one wall-clock second only the first part's is kept, so the target is
// counted once; different sources are all kept. Lines are written in time
// order. It returns the number of samples written; without any series it
// writes nothing.
func Merge(dirs []string, out string) (int, error) {
	type key struct {
		src string
		sec int64
	}
	seen := map[key]bool{}
	var all []Sample
	for _, d := range dirs {
		err := Scan(d, func(s *Sample) error {
			k := key{s.Source, s.Time.Unix()}
			if seen[k] {
				return nil
			}
			seen[k] = true
			all = append(all, *s)
			return nil
		})
		if err != nil {
			return 0, fmt.Errorf("merge monitor: %w", err)
		}
	}
	if len(all) == 0 {
		return 0, nil
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Time.Before(all[j].Time) })
	f, err := os.Create(filepath.Join(out, File))
	if err != nil {
		return 0, fmt.Errorf("merge monitor: %w", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i := range all {
		if err := enc.Encode(&all[i]); err != nil {
			f.Close()
			return 0, fmt.Errorf("merge monitor: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, fmt.Errorf("merge monitor: %w", err)
	}
	return len(all), f.Close()
}
