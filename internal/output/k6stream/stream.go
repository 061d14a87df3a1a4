package k6stream

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/csvlog"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// Format is JSON or CSV.
type Format string

// Formats.
const (
	JSON Format = "json"
	CSV  Format = "csv"
)

// Stream is one --out json=FILE or csv=FILE. It is an reqlog.Log.
type Stream struct {
	log  *csvlog.Log
	f    *os.File
	gz   *gzip.Writer
	bw   *bufio.Writer
	path string
}

var _ reqlog.Log = (*Stream)(nil)

// Open creates path (gzip-compressed when it ends in .gz) for format. An
// existing file is never overwritten: that is an error. thresholds maps
// metric names to their threshold expressions (JSON Metric lines list them).
func Open(path string, format Format, reg *metrics.Registry, cfg Config, thresholds map[string][]string) (*Stream, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s exists: choose another file name (stampede never overwrites results)", path)
	}
	if err != nil {
		return nil, err
	}
	s := &Stream{f: f, path: path}
	var w interface{ Write([]byte) (int, error) } = f
	if strings.HasSuffix(path, ".gz") {
		s.gz, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
		w = s.gz
	}
	s.bw = bufio.NewWriterSize(w, 256<<10)
	c := cfg
	c.checkName = registryCheckNamer(reg)
	opts := csvlog.Options{}
	switch format {
	case JSON:
		opts.Header = jsonHeader(reg, thresholds)
		opts.NewEncoder = func(sc string) csvlog.RecordEncoder { return newJSONEncoder(&c, sc) }
	case CSV:
		opts.Header = CSVHeader
		opts.NewEncoder = func(sc string) csvlog.RecordEncoder { return newCSVEncoder(&c, sc) }
	default:
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("unknown stream format %q", format)
	}
	s.log = csvlog.New(s.bw, opts)
	return s, nil
}

// Writer implements reqlog.Log.
func (s *Stream) Writer(scenario string) reqlog.Writer { return s.log.Writer(scenario) }

// Requests is the number of requests written so far.
func (s *Stream) Requests() int64 { return s.log.Rows() }

// Close flushes every buffer and closes the file.
func (s *Stream) Close() error {
	err := s.log.Close()
	if ferr := s.bw.Flush(); err == nil {
		err = ferr
	}
	if s.gz != nil {
		if gerr := s.gz.Close(); err == nil {
			err = gerr
		}
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	return nil
}

// Err is the first write error so far (a full disk), nil while the file
// is healthy; safe to call from any goroutine during the run.
func (s *Stream) Err() error { return s.log.Err() }
