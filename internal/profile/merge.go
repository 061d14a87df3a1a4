// Package profile collects CPU profiles while scenarios run and merges them
// into one profile for profile-guided builds (go build -pgo, AutoFDO).
//
// A Collector is started before a scenario and stopped after it; ParseSpec
// builds one from a --profile flag value. Merge and MergeFiles combine
// pprof profiles with github.com/google/pprof/profile.
package profile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	pprofile "github.com/google/pprof/profile"
)

// ErrBadInput marks a merge input that is missing, unreadable, not a pprof
// profile or incompatible with the others: the user's mistake, not a
// failure of the tool. Match it with errors.Is; it adds no text to the
// message.
var ErrBadInput = errors.New("bad profile input")

// inputError is an error that matches ErrBadInput without saying so.
type inputError struct{ err error }

func (e *inputError) Error() string        { return e.err.Error() }
func (e *inputError) Unwrap() error        { return e.err }
func (e *inputError) Is(target error) bool { return target == ErrBadInput }

// badInput formats an error that matches ErrBadInput.
func badInput(format string, args ...any) error {
	return &inputError{fmt.Errorf(format, args...)}
}

// profileExts are the file name endings Expand picks up in directories.
var profileExts = []string{".pprof", ".pb.gz"}

// Expand turns inputs (files or directories) into the list of profile
// files to merge: a file is taken as is whatever its name; a directory is
// walked recursively for files ending in .pprof or .pb.gz, in lexical
// order. Errors wrap ErrBadInput: a missing input, or a directory holding
// no profiles.
func Expand(inputs []string) ([]string, error) {
	if len(inputs) == 0 {
		return nil, badInput("no profiles given")
	}
	var files []string
	for _, in := range inputs {
		info, err := os.Stat(in)
		if err != nil {
			return nil, badInput("%w", err)
		}
		if !info.IsDir() {
			files = append(files, in)
			continue
		}
		var found []string
		err = filepath.WalkDir(in, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && hasProfileExt(d.Name()) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, badInput("%w", err)
		}
		if len(found) == 0 {
			return nil, badInput("%s: no *.pprof or *.pb.gz files in directory", in)
		}
		slices.Sort(found)
		files = append(files, found...)
	}
	return files, nil
}

func hasProfileExt(name string) bool {
	return slices.ContainsFunc(profileExts, func(ext string) bool { return strings.HasSuffix(name, ext) })
}

// Merge reads the profiles named by paths (files or directories, see
// Expand) and merges them into one with pprof's profile.Merge: samples with
// the same stack add up. All inputs must have the same sample types (e.g.
// all CPU profiles). Errors name the offending file and wrap ErrBadInput.
func Merge(paths []string) (*pprofile.Profile, error) {
	files, err := Expand(paths)
	if err != nil {
		return nil, err
	}
	profs := make([]*pprofile.Profile, 0, len(files))
	for _, f := range files {
		p, err := readProfile(f)
		if err != nil {
			return nil, err
		}
		profs = append(profs, p)
	}
	merged, err := pprofile.Merge(profs)
	if err != nil {
		return nil, badInput("merging %d profiles: %w", len(profs), err)
	}
	return merged, nil
}

// readProfile parses one pprof file (gzip-compressed or not).
func readProfile(path string) (*pprofile.Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput("%w", err)
	}
	p, err := pprofile.ParseData(data)
	if err != nil {
		return nil, badInput("%s: not a pprof profile (%w)", path, err)
	}
	return p, nil
}

// Merged says what MergeFiles merged: how many profiles, and their total
// sample value in the unit of the first sample type ("samples" without
// one).
type Merged struct {
	Files int
	Total int64
	Unit  string
}

// MergeFiles merges inputs (files, or directories of profiles: see Expand
// and Merge) and writes the result to out as a gzip-compressed pprof
// profile, suitable for go build -pgo=out. out is replaced atomically: it
// is written to a temporary file in the same directory and renamed.
func MergeFiles(out string, inputs ...string) (Merged, error) {
	files, err := Expand(inputs)
	if err != nil {
		return Merged{}, err
	}
	p, err := Merge(files)
	if err != nil {
		return Merged{}, err
	}
	if err := WriteFile(out, p); err != nil {
		return Merged{}, err
	}
	m := Merged{Files: len(files), Unit: "samples"}
	for _, s := range p.Sample {
		m.Total += s.Value[0]
	}
	if len(p.SampleType) > 0 {
		m.Unit = p.SampleType[0].Type
	}
	return m, nil
}

// WriteFile writes p to path as a gzip-compressed pprof profile, replacing
// path atomically (temporary file in the same directory, then rename).
func WriteFile(path string, p *pprofile.Profile) error {
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return fmt.Errorf("encoding profile %s: %w", path, err)
	}
	if err := writeAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("writing profile: %w", err)
	}
	return nil
}

// writeAtomic writes data to path through a temporary file in the same
// directory and a rename, so readers never see a partial file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
