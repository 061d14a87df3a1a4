package csvlog

import (
	"os"

	"golang.org/x/sys/unix"
)

// directFile is a regular file whose writes may bypass the page cache
// (directSink).
type directFile struct{ *os.File }

// SetDirect implements directSink.
func (f directFile) SetDirect(on bool) error {
	fd := int(f.Fd())
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return err
	}
	if on {
		fl |= unix.O_DIRECT
	} else {
		fl &^= unix.O_DIRECT
	}
	_, err = unix.FcntlInt(uintptr(fd), unix.F_SETFL, fl)
	return err
}

// directOf returns f as a directSink with O_DIRECT on, or nil when f is
// no regular file or its file system refuses O_DIRECT.
func directOf(f *os.File) directSink {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	d := directFile{f}
	if d.SetDirect(true) != nil {
		return nil
	}
	return d
}
