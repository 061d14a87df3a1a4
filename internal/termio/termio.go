// Package termio answers what the console is: whether a writer is a
// terminal, and how wide it is.
package termio

import (
	"io"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// IsTerminal reports whether w is a terminal (a character device).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Width is the width in columns of the terminal w is, for the
// end-of-test summary printed there: the TIOCGWINSZ answer, else
// $COLUMNS, else 0 (the summary's default, 80). getenv may be nil.
func Width(w io.Writer, getenv func(string) string) int {
	if f, ok := w.(*os.File); ok {
		var ws struct{ row, col, x, y uint16 }
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws))); errno == 0 && ws.col > 0 {
			return int(ws.col)
		}
	}
	if getenv != nil {
		if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n > 0 {
			return n
		}
	}
	return 0
}
