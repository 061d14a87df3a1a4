package datagen

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// outputs owns the files of one Generate call. It is used from one
// goroutine only (the one that writes chunks in order).
type outputs struct {
	root     string
	files    []*outFile
	total    int64
	progress func(int64)
	// manifest lists every file created (nil: none kept).
	manifest *manifest
}

// outFile is one open output file with its row count.
type outFile struct {
	rel  string
	f    *os.File
	w    *bufio.Writer
	rows int64
}

// writeBufSize is the buffer of each output file, in bytes.
const writeBufSize = 1 << 20

// create opens rel (relative to the root, folders created as needed) and
// writes its header line (none when header is empty).
func (o *outputs) create(rel, header string) (*outFile, error) {
	path := filepath.Join(o.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if o.manifest != nil {
		if err := o.manifest.add(rel); err != nil {
			return nil, fmt.Errorf("manifest: %w", err)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	of := &outFile{rel: rel, f: f, w: bufio.NewWriterSize(f, writeBufSize)}
	o.files = append(o.files, of)
	if header == "" {
		return of, nil // a headerless file (the update streams)
	}
	if _, err := of.w.WriteString(header + "\n"); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return of, nil
}

// write appends rows formatted in b to f and reports progress.
func (o *outputs) write(f *outFile, b []byte, rows int64) error {
	if _, err := f.w.Write(b); err != nil {
		return fmt.Errorf("%s: %w", f.rel, err)
	}
	f.rows += rows
	o.total += rows
	return nil
}

// report calls the progress callback with the rows written so far.
func (o *outputs) report() {
	if o.progress != nil {
		o.progress(o.total)
	}
}

// closeAll flushes and closes every file; the first error wins.
func (o *outputs) closeAll() error {
	var errs []error
	for _, f := range o.files {
		if f.f == nil {
			continue
		}
		if err := f.w.Flush(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.rel, err))
		}
		if err := f.f.Close(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.rel, err))
		}
		f.f = nil
	}
	return errors.Join(errs...)
}

// rowCounts maps each file's relative path to its data rows.
func (o *outputs) rowCounts() map[string]int64 {
	m := make(map[string]int64, len(o.files))
	for _, f := range o.files {
		m[f.rel] = f.rows
	}
	return m
}
