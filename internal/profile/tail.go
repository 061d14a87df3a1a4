package profile

import (
	"strings"
	"sync"
)

// tailBuffer is an io.Writer keeping the last max bytes written. Safe for
// concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// suffix renders the kept output for an error message: "; stderr: ..."
// with its last few lines joined by " | ", or "" when nothing was written.
func (t *tailBuffer) suffix() string {
	t.mu.Lock()
	s := strings.TrimSpace(string(t.buf))
	t.mu.Unlock()
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return "; stderr: " + strings.Join(lines, " | ")
}
