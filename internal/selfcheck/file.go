package selfcheck

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/bounded"
)

// Read loads dir/File. A missing file returns (nil, nil): older runs and
// merged runs have none.
func Read(dir string) (*Report, error) {
	var r Report
	err := bounded.DecodeJSON(context.Background(), filepath.Join(dir, File), bounded.ResultBytes, &r)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}
