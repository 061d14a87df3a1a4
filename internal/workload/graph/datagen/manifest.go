package datagen

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/usage"
)

// ManifestName is the file, in the output directory, that lists every file
// Generate wrote there with its size. `--force` removes only the files it
// lists (unchanged since), and refuses a directory holding anything else.
const ManifestName = "stampede-manifest.txt"

// manifestHeader is the first line of a manifest.
const manifestHeader = "# files written by stampede gen ldbc (size in bytes, or - while being written); --force removes only these"

// manifest records the files of one Generate call as they are created, so
// that even an interrupted run leaves a list of what it wrote.
type manifest struct {
	path  string
	files []string // relative, slash-separated
}

// add records rel (before it is written) and rewrites the manifest.
func (m *manifest) add(rel string) error {
	m.files = append(m.files, rel)
	return m.write(nil)
}

// write rewrites the manifest; sizes maps files to their final sizes
// (nil: unknown, written as "-").
func (m *manifest) write(sizes map[string]int64) error {
	var b strings.Builder
	b.WriteString(manifestHeader + "\n")
	for _, f := range m.files {
		size := "-"
		if n, ok := sizes[f]; ok {
			size = strconv.FormatInt(n, 10)
		}
		b.WriteString(size + "\t" + f + "\n")
	}
	tmp := m.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, m.path)
}

// finish writes the final sizes of every file.
func (m *manifest) finish(root string) error {
	sizes := map[string]int64{}
	for _, f := range m.files {
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		sizes[f] = fi.Size()
	}
	return m.write(sizes)
}

// readManifest returns the files a manifest lists, with their sizes (-1:
// unknown).
func readManifest(path string) (map[string]int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		size, rel, ok := strings.Cut(line, "\t")
		if !ok || rel == "" || strings.Contains(rel, "..") || filepath.IsAbs(rel) {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		n := int64(-1)
		if size != "-" {
			if n, err = strconv.ParseInt(size, 10, 64); err != nil {
				return nil, fmt.Errorf("%s: bad size in %q", path, line)
			}
		}
		out[rel] = n
	}
	return out, sc.Err()
}

// clearOwnFiles removes what an earlier Generate wrote into out, after
// checking that out holds nothing else: every file must be listed in the
// manifest with its recorded size. It refuses (a usage error) otherwise,
// naming the first file it would not remove, and then removes nothing.
func clearOwnFiles(out string) error {
	listed, err := readManifest(filepath.Join(out, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return badConfig("output directory %s holds files stampede did not write (it has no %s): choose an empty or new directory", out, ManifestName)
	}
	if err != nil {
		return badConfig("%v", err)
	}
	var files, dirs []string
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case d.IsDir():
			dirs = append(dirs, p)
			return nil
		case rel == ManifestName:
			return nil
		}
		size, ok := listed[rel]
		if !ok {
			return badConfig("output directory %s holds %s, which stampede did not write: choose an empty or new directory", out, rel)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || (size >= 0 && fi.Size() != size) {
			return badConfig("%s in %s changed since stampede wrote it: choose an empty or new directory", rel, out)
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		if usage.Is(err) {
			return err
		}
		return badConfig("output directory: %v", err)
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			return badConfig("cannot remove %s: %v", f, err)
		}
	}
	slices.Reverse(dirs) // deepest first; only empty ones go
	for _, d := range dirs {
		os.Remove(d)
	}
	return os.Remove(filepath.Join(out, ManifestName))
}
