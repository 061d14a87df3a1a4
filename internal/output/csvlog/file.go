package csvlog

import (
	"context"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// File is the nebula-bench request CSV written to a file it owns, as an
// output.Output: Start creates the file (and its directory), Stop flushes
// and closes it. It is written per request: the run finds it by asserting
// reqlog.Log, which File is. On Linux its writes bypass the page cache
// (O_DIRECT, see directSink) where the file system allows it.
type File struct {
	path string
	opts Options
	log  *Log
	f    *os.File
	// created are the file and the directories Start made, deepest first.
	created []string
}

var (
	_ output.Output  = (*File)(nil)
	_ reqlog.Log     = (*File)(nil)
	_ output.Creator = (*File)(nil)
)

// NewFile returns the request CSV of path with opts; nothing is created
// before Start.
func NewFile(path string, opts Options) *File { return &File{path: path, opts: opts} }

// Path is the file written.
func (f *File) Path() string { return f.path }

// Description is empty: the request CSV announces nothing.
func (f *File) Description() string { return "" }

// Start creates the file and the directories above it (an existing file
// is truncated, as --csv FILE always did).
func (f *File) Start() error {
	_, serr := os.Stat(f.path)
	dirs, err := output.MkdirAll(filepath.Dir(f.path))
	if err != nil {
		return err
	}
	if serr != nil {
		f.created = append([]string{f.path}, dirs...)
	}
	fh, err := os.Create(f.path)
	if err != nil {
		return err
	}
	f.f = fh
	if d := directOf(fh); d != nil {
		f.log = New(d, f.opts) // bypassing the page cache (directSink)
	} else {
		f.log = New(fh, f.opts)
	}
	return nil
}

// Observe does nothing: the CSV is written per request (Writer).
func (f *File) Observe(*metrics.Point) {}

// Writer implements reqlog.Log.
func (f *File) Writer(scenario string) reqlog.Writer { return f.log.Writer(scenario) }

// Stop flushes the log and closes the file; it reports the first error.
// After a write error (a full disk) the file is cut back to its last
// complete row, so that it stays valid CSV.
func (f *File) Stop() error {
	err := f.log.Close()
	if err != nil && f.log.Err() != nil {
		_ = f.f.Truncate(f.log.Written())
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Err is the first write error so far (nil while the file is healthy);
// safe to call from any goroutine during the run.
func (f *File) Err() error {
	if f.log == nil {
		return nil
	}
	return f.log.Err()
}

// DefaultName is the request CSV's file in the result directory.
const DefaultName = "requests.csv"

// Factory is the registry entry of the per-request CSV (--csv FILE; every
// run has it unless --no-csv). ARG is the file; empty: DefaultName in the
// result directory. Its statement column is named nGQL for a NebulaGraph
// target (as nebula-bench and its k6 plugin name it), query otherwise.
func Factory() output.Factory {
	return output.Factory{
		Name:    "requests",
		Usage:   "requests=FILE",
		Flag:    "--csv",
		VUBytes: VUBytes,
		Preflight: func(_ context.Context, p output.Params) error {
			if p.Arg == "" {
				return nil // in the result directory, which is checked
			}
			return output.CheckWritableFile(p.Arg)
		},
		New: func(p output.Params) (output.Output, error) {
			path := p.Arg
			if path == "" {
				path = filepath.Join(p.Dir, DefaultName)
			}
			col := StatementQuery
			if p.TargetScheme == "nebula" {
				col = StatementNGQL
			}
			return NewFile(path, Options{StatementColumn: col}), nil
		},
	}
}

// VUBytes is the request CSV's share of the memory of one VU (bytes): its
// writer, and its buffer, which the log's budget bounds.
const VUBytes = 1 << 10

// Created is the file, and the directories made for it, when Start
// created them (a file that existed is not listed).
func (f *File) Created() []string { return f.created }
