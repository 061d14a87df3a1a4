package selfcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/bounded"
)

// Read loads dir/File. A missing file returns (nil, nil): older runs and
// merged runs have none.
func Read(dir string) (*Report, error) {
	b, err := bounded.ReadFile(context.Background(), filepath.Join(dir, File), bounded.ResultBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, File), err)
	}
	return &r, nil
}
