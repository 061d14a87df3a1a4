package loader

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
)

// bar is the load progress bar over data rows (rows/s and ETA); a nil
// *bar does nothing.
type bar struct {
	pb *progressbar.ProgressBar
}

// newBar counts the data rows of files (a fast newline count), times
// passes (the validation pass reads every row before the load pass), and
// starts a bar writing to w; nil w gives a nil bar.
func newBar(w io.Writer, dir string, files []string, passes int) *bar {
	if w == nil {
		return nil
	}
	var total int64
	for _, f := range files {
		total += countLines(filepath.Join(dir, filepath.FromSlash(f))) - 1
	}
	total *= int64(passes)
	pb := progressbar.NewOptions64(max(total, 1),
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("validating, loading"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("rows"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { io.WriteString(w, "\n") }),
	)
	pb.StartWithoutRender() // the rate counts from now, not from the first chunk
	return &bar{pb: pb}
}

func (b *bar) add(n int64) {
	if b != nil {
		b.pb.Add64(n)
	}
}

func (b *bar) finish() {
	if b != nil {
		b.pb.Finish()
	}
}

// countLines counts the lines of a file (0 when it cannot be read).
func countLines(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	var n int64
	last := byte('\n')
	for {
		k, err := f.Read(buf)
		if k > 0 {
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			last = buf[k-1]
		}
		if err != nil {
			break
		}
	}
	if last != '\n' {
		n++
	}
	return n
}
