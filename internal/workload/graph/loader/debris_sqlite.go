package loader

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver/sqlite"
	"github.com/stampede-bench/stampede/internal/fslock"
)

// removeDebris removes the staging files (PATH.loading-DIGITS, with their
// -wal, -shm and -journal files) of SQLite loads into the same target
// that were killed: files no running load holds (fslock) that are empty
// or hold only the loader's tables. Anything else is left alone.
func (s *sqliteSink) removeDebris(ctx context.Context) ([]string, error) {
	prefix := filepath.Base(s.path) + ".loading-"
	entries, err := os.ReadDir(filepath.Dir(s.path))
	if err != nil {
		return nil, nil // openSQLite checked the directory; nothing to clean
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		digits, ok := strings.CutPrefix(name, prefix)
		if !ok || !e.Type().IsRegular() || digits == "" || strings.Trim(digits, "0123456789") != "" {
			continue
		}
		path := filepath.Join(filepath.Dir(s.path), name)
		lock, err := fslock.TryLock(path)
		if err != nil {
			continue // a running load (or no way to tell): leave it
		}
		ours, size := s.onlyLoaderTables(ctx, path)
		if !ours {
			lock.Unlock()
			continue
		}
		for _, suffix := range []string{"-wal", "-shm", "-journal"} {
			if fi, err := os.Stat(path + suffix); err == nil {
				size += fi.Size()
			}
		}
		err = os.Remove(path)
		removeSQLiteFiles(path)
		lock.Unlock()
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, err
		}
		removed = append(removed, fmt.Sprintf("removed %s (and its -wal/-shm, %s), the staging file of a load that was killed", path, byteSize(size)))
	}
	// -wal/-shm/-journal files whose staging file is gone.
	for _, e := range entries {
		name := e.Name()
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "-wal"), "-shm"), "-journal")
		digits, ok := strings.CutPrefix(base, prefix)
		if !ok || base == name || digits == "" || strings.Trim(digits, "0123456789") != "" {
			continue
		}
		dir := filepath.Dir(s.path)
		if _, err := os.Stat(filepath.Join(dir, base)); err == nil {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err == nil {
			removed = append(removed, "removed "+filepath.Join(dir, name)+", left by a load that was killed")
		}
	}
	return removed, nil
}

// onlyLoaderTables reports whether path is an empty file or an SQLite
// database whose tables the loader all made, and its size.
func (s *sqliteSink) onlyLoaderTables(ctx context.Context, path string) (bool, int64) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, 0
	}
	if fi.Size() == 0 {
		return true, 0
	}
	db, err := sql.Open("sqlite", sqlite.DSN(path, false))
	if err != nil {
		return false, 0
	}
	defer db.Close()
	names, err := sqliteTables(ctx, db)
	if err != nil {
		return false, 0
	}
	ours := TableNames()
	for _, n := range names {
		if !slices.Contains(ours, n) && n != MetaTable && !strings.HasPrefix(n, "sqlite_") {
			return false, 0
		}
	}
	return true, fi.Size()
}

// byteSize formats n bytes for a message: 48 MB, 512 kB, 12 B.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
