package k8s

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Markers around a result directory printed into a pod's log.
const (
	beginMarker = "-----BEGIN STAMPEDE RESULT "
	endMarker   = "-----END STAMPEDE RESULT "
	markerTail  = "-----"
	lineWidth   = 76
)

var unsafeLabel = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// WriteArchive prints the files below dir to w as a gzipped tar in base64
// lines between BEGIN and END markers named label, so that a result
// directory survives `kubectl logs` (which mixes stdout and stderr, and may
// prefix lines). skip, when non-nil, leaves out files by their path
// relative to dir. It returns the number of base64 bytes written.
func WriteArchive(w io.Writer, dir, label string, skip func(rel string) bool) (int64, error) {
	label = cleanLabel(label)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if skip != nil && skip(rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: rel, Mode: 0o644, Size: info.Size(), ModTime: info.ModTime(), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.CopyN(tw, f, info.Size())
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return 0, fmt.Errorf("archive %s: %w", dir, err)
	}
	enc := base64.StdEncoding.EncodeToString(buf.Bytes())
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\n%s%s%s\n", beginMarker, label, markerTail)
	for i := 0; i < len(enc); i += lineWidth {
		bw.WriteString(enc[i:min(i+lineWidth, len(enc))])
		bw.WriteByte('\n')
	}
	fmt.Fprintf(bw, "%s%s%s\n", endMarker, label, markerTail)
	if err := bw.Flush(); err != nil {
		return 0, err
	}
	return int64(len(enc)), nil
}

func cleanLabel(s string) string {
	s = strings.Trim(unsafeLabel.ReplaceAllString(s, "_"), "._")
	if s == "" {
		s = "result"
	}
	return s
}

// block is an archive being read from the log of one source (one line
// prefix, e.g. kubectl's "[pod/NAME/stampede] ").
type block struct {
	label string
	data  strings.Builder
}

// ReadArchives extracts every archive printed by WriteArchive in r (logs
// of one or several pods, with or without kubectl's --prefix, even
// interleaved when prefixed) into outDir/LABEL and returns those
// directories in order of completion. Other log lines are ignored. An
// archive that is cut off (pod log rotated or truncated) is an error.
func ReadArchives(r io.Reader, outDir string) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	open := map[string]*block{} // by line prefix
	var dirs []string
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if i := strings.Index(line, beginMarker); i >= 0 {
			label := strings.TrimSuffix(line[i+len(beginMarker):], markerTail)
			open[line[:i]] = &block{label: cleanLabel(label)}
			continue
		}
		if i := strings.Index(line, endMarker); i >= 0 {
			b := open[line[:i]]
			if b == nil {
				continue
			}
			delete(open, line[:i])
			dir, err := extract(b, outDir)
			if err != nil {
				return dirs, err
			}
			dirs = append(dirs, dir)
			continue
		}
		for prefix, b := range open {
			if rest, ok := strings.CutPrefix(line, prefix); ok && isBase64Line(rest) {
				b.data.WriteString(rest)
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		return dirs, err
	}
	for _, b := range open {
		return dirs, fmt.Errorf("result %s is cut off (no END line): was the pod's log rotated? Use a results volume (--results-pvc) for large results", b.label)
	}
	return dirs, nil
}

func isBase64Line(s string) bool {
	if s == "" || len(s) > lineWidth {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// extract unpacks one archive into outDir/label, refusing paths that
// would leave it and a directory that already holds files.
func extract(b *block, outDir string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(b.data.String())
	if err != nil {
		return "", fmt.Errorf("result %s: %w", b.label, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return "", fmt.Errorf("result %s: %w", b.label, err)
	}
	dir := filepath.Join(outDir, b.label)
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return "", fmt.Errorf("%s already exists and is not empty", dir)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("result %s: %w", b.label, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		rel := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(rel) {
			return "", fmt.Errorf("result %s: unsafe path %q in archive", b.label, h.Name)
		}
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		f, err := os.Create(p)
		if err != nil {
			return "", err
		}
		_, cerr := io.Copy(f, tr)
		if err := f.Close(); cerr == nil {
			cerr = err
		}
		if cerr != nil {
			return "", fmt.Errorf("result %s: %w", b.label, cerr)
		}
	}
	return dir, nil
}

// StreamResult prints result directory dir into a pod's log (w) as
// WriteArchive does, labelled label, without the file leaveOut (a path
// relative to dir; "" leaves out nothing); a result past 8 MiB gets a
// warning on warn, since kubelet may rotate the log at 10 MiB.
func StreamResult(w, warn io.Writer, dir, label, leaveOut string) error {
	skip := func(rel string) bool { return leaveOut != "" && rel == leaveOut }
	n, err := WriteArchive(w, dir, label, skip)
	if n > 8<<20 {
		fmt.Fprintf(warn, "warning: the result printed into the log is %d MiB; kubelet may rotate logs at 10 MiB — use --results-pvc\n", n>>20)
	}
	return err
}
